/*
 * main.c - the nvtxtc driver: options, inputs and outputs, exit status.
 * Everything else is the library (compile.h and the back ends).
 *
 * Exit status (nvtxtc(1), EXIT STATUS): 0 no errors; 1 errors in an input
 * (or warnings under -Werror); 2 a usage error or an I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "emit_nvtxt.h"
#include "fmt.h"
#include "output.h"
#include "payload.h"
#ifdef NVTXTC_HAVE_NVTX
#include "replay.h"
#endif
#include "util.h"

#ifndef NVTXTC_VERSION
#define NVTXTC_VERSION "0.1"
#endif

enum emit_kind { EMIT_NONE, EMIT_NVTXT, EMIT_PAYLOAD };

struct options {
	bool fmt;
	bool check;
	bool in_place;
	enum emit_kind emit;
	const char *output;
	const char *stdin_name;
	long jobs;                 /* -j: threads; 0 = the number of processors */
	bool read_ahead;           /* a thread to spare for each input: nvtxt_compile_options.read_ahead */
	int color;                 /* -1 auto, 0 never, 1 always */
	struct nvtxt_diag_config diag;
};

struct totals {
	unsigned long errors, warnings;
};

static const char usage_text[] =
	"Usage: nvtxtc [lint] [OPTION]... FILE...\n"
	"       nvtxtc --emit=nvtxt [-o FILE] [OPTION]... FILE\n"
	"       nvtxtc --emit=payload -o FILE [OPTION]... FILE\n"
	"       nvtxtc fmt [--check] [-i] [OPTION]... FILE...\n"
	"       nvtxtc dump FILE\n"
	"       nvtxtc replay FILE\n"
	"Check NVTXT files (the text form of NVIDIA's NVTX annotations), print them\n"
	"in canonical form, or format them.  FILE '-' is standard input.\n"
	"\n"
	"Commands:\n"
	"  lint                 check the files and print diagnostics (the default)\n"
	"  fmt                  print the files with normalised layout\n"
	"  dump                 print a payload file for a person\n"
	"  replay               submit a payload file to NVTX (to the tool in\n"
	"                       NVTX_INJECTION64_PATH)\n"
	"\n"
	"Options:\n"
	"  --emit=nvtxt         print the canonical normal form of FILE\n"
	"  --emit=payload       write FILE as NVTX payload schemas and batches (needs -o)\n"
	"  -o FILE              write the output to FILE (atomically) instead of stdout\n"
	"  --check              fmt: list the files that would change; exit 1 if any\n"
	"  -i                   fmt: rewrite the files in place (atomically)\n"
	"  -j N                 use up to N threads (default: the number of processors):\n"
	"                       lint checks N files at a time, diagnostics staying in\n"
	"                       command-line order; a thread to spare reads ahead\n"
	"  --stdin-name=NAME    the name of standard input in diagnostics\n"
	"  -WNAME               enable warning NAME\n"
	"  -Wno-NAME            disable warning NAME\n"
	"  -Werror              make every warning an error\n"
	"  -Werror=NAME         make warning NAME an error\n"
	"  -Wno-error=NAME      keep warning NAME a warning under -Werror\n"
	"  -w                   disable every warning\n"
	"  --max-errors=N       show at most N errors and N warnings per file (default 50;\n"
	"                       0: no limit)\n"
	"  --color=WHEN         color diagnostics: auto (default), always or never\n"
	"  --list-checks        print every check (name, severity, description) and exit\n"
	"  -h, --help           print this help and exit\n"
	"  -V, --version        print the version and exit\n"
	"\n"
	"Warnings (all enabled by default):\n";

/* True when check i is a warning, which -W options select. */
static bool is_warning(int i)
{
	return nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING;
}

/* --list-checks: every check of the registry, one a line: name, severity, description. */
static void list_checks(void)
{
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++) {
		const struct nvtxt_check *c = nvtxt_check_get((enum nvtxt_check_id)i);
		printf("%-20s %-7s %s\n", c->name, c->severity == NVTXT_SEV_ERROR ? "error" : "warning",
		       c->description);
	}
}

static void help(void)
{
	fputs(usage_text, stdout);
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (is_warning(i))
			printf("  %-20s %s\n", nvtxt_check_get((enum nvtxt_check_id)i)->name,
			       nvtxt_check_get((enum nvtxt_check_id)i)->description);
	fputs("\nExit status: 0 no errors, 1 errors (or warnings under -Werror),\n"
	      "2 usage or I/O error.  See nvtxtc(1) and nvtxt(5).\n",
	      stdout);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("nvtxtc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'nvtxtc --help' for more information.\n", stderr);
	return 2;
}

/* -W arguments: NAME, no-NAME, error, error=NAME, no-error=NAME. */
static int warning_option(struct options *o, const char *arg)
{
	static bool all_errors;
	int w;
	const char *name = arg;
	int level = NVTXT_LEVEL_WARN;

	if (strcmp(arg, "error") == 0) {
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (is_warning(i) && o->diag.level[i] != NVTXT_LEVEL_OFF)
				o->diag.level[i] = NVTXT_LEVEL_ERROR;
		all_errors = true;
		return 0;
	}
	if (strncmp(arg, "error=", 6) == 0) {
		name = arg + 6;
		level = NVTXT_LEVEL_ERROR;
	} else if (strncmp(arg, "no-error=", 9) == 0) {
		name = arg + 9;
		level = NVTXT_LEVEL_WARN;
	} else if (strncmp(arg, "no-", 3) == 0) {
		name = arg + 3;
		level = NVTXT_LEVEL_OFF;
	} else if (all_errors) {
		level = NVTXT_LEVEL_ERROR;
	}
	w = nvtxt_check_lookup(name);
	if (w >= 0 && !is_warning(w))
		return usage_error("'-W%s' names an error check, and errors cannot be disabled or changed "
				   "(-W options select warnings; see --list-checks)", arg);
	if (w < 0) {
		const char *names[NVTXT_CHECK_COUNT];
		const char *near;
		size_t n = 0;
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (is_warning(i))
				names[n++] = nvtxt_check_get((enum nvtxt_check_id)i)->name;
		near = suggest(name, strlen(name), names, n);
		if (near) {
			fprintf(stderr, "nvtxtc: error: unknown warning '-W%s'; did you mean '%s'?\n", arg, near);
			return 2;
		}
		return usage_error("unknown warning '-W%s' (see --help for the list)", arg);
	}
	o->diag.level[w] = (unsigned char)level;
	return 0;
}

static void print_summary(FILE *err, const struct nvtxt_compile_result *r, const char *name,
			  unsigned long max)
{
	if (!r->hidden_errors && !r->hidden_warnings)
		return;
	fprintf(err, "%s: note: ", name);
	if (r->hidden_errors)
		fprintf(err, "%lu more error%s", r->hidden_errors, r->hidden_errors == 1 ? "" : "s");
	if (r->hidden_errors && r->hidden_warnings)
		fputs(" and ", err);
	if (r->hidden_warnings)
		fprintf(err, "%lu more warning%s", r->hidden_warnings,
			r->hidden_warnings == 1 ? "" : "s");
	fprintf(err, " not shown (--max-errors=%lu)\n", max);
}

/* Opens an input; prints the reason on err and returns -1 when it cannot be read. */
static int open_input(const char *path, bool *is_stdin, FILE *err)
{
	struct stat st;
	int fd;

	*is_stdin = strcmp(path, "-") == 0;
	if (*is_stdin)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(err, "nvtxtc: error: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(err, "nvtxtc: error: cannot read '%s': it is a directory\n", path);
		close(fd);
		return -1;
	}
	return fd;
}

struct run {
	struct options *opt;
	struct nvtxt_text_printer printer;
	struct totals totals;
};

/*
 * Compiles one input; diagnostics go to printer->out, and the counts are
 * added to *totals.
 */
static int compile_one(const struct options *opt, struct nvtxt_text_printer *printer,
		       struct totals *totals, const char *path, int fd, const char *display,
		       const struct nvtxt_backend *be, struct nvtxt_fmt *fmt)
{
	struct nvtxt_compile_options co = {
		.display_name = display,
		.fd = fd,
		.diag_config = &opt->diag,
		.sink = { printer, nvtxt_text_printer_report },
		.backend = be,
		.read_ahead = opt->read_ahead,
	};
	struct nvtxt_compile_result res;
	int status;

	if (fmt) {
		co.instruction = nvtxt_fmt_instruction;
		co.instruction_user = fmt;
	}
	status = nvtxt_compile(&co, &res);
	print_summary(printer->out, &res, display, opt->diag.max_errors);
	totals->errors += res.errors;
	totals->warnings += res.warnings;
	if (res.io_errno)
		fprintf(printer->out, "nvtxtc: error: %s: %s\n", path, strerror(res.io_errno));
	return status;
}

static int copy_stream(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) || fflush(to) != 0 ? -1 : 0;
}

/* True when the contents of fd (from offset 0) equal those of f. */
static bool same_contents(int fd, FILE *f)
{
	char a[65536], b[65536];
	ssize_t n;
	size_t m;
	off_t off = 0;

	rewind(f);
	for (;;) {
		n = pread(fd, a, sizeof(a), off);
		m = fread(b, 1, sizeof(b) < (size_t)(n > 0 ? n : 1) ? sizeof(b) : (size_t)(n > 0 ? n : 1), f);
		if (n < 0)
			return false;
		if (n == 0)
			return m == 0 && fgetc(f) == EOF;
		if ((size_t)n != m || memcmp(a, b, m) != 0)
			return false;
		off += n;
	}
}

/* Copies standard input to a temporary file, so fmt can read it twice. */
static int spool_stdin(void)
{
	FILE *t = tmpfile();
	FILE *in = fdopen(dup(0), "r");
	int fd = -1;

	if (t && in && copy_stream(in, t) == 0)
		fd = dup(fileno(t));
	if (in)
		fclose(in);
	if (t)
		fclose(t);
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	return fd;
}

static int run_fmt(struct run *run, char **files, int nfiles)
{
	int worst = 0;

	for (int i = 0; i < nfiles; i++) {
		bool is_stdin;
		const char *path = files[i];
		const char *display;
		int fd = open_input(path, &is_stdin, stderr);
		struct nvtxt_fmt fmt = { 0 };
		FILE *tmp;
		int status;

		if (fd < 0) {
			worst = 2;
			continue;
		}
		if (is_stdin) {
			fd = spool_stdin();
			if (fd < 0) {
				fprintf(stderr, "nvtxtc: error: cannot read standard input: %s\n", strerror(errno));
				worst = 2;
				continue;
			}
			if (run->opt->in_place) {
				fprintf(stderr, "nvtxtc: error: -i cannot rewrite standard input\n");
				close(fd);
				worst = 2;
				continue;
			}
		}
		display = is_stdin ? (run->opt->stdin_name ? run->opt->stdin_name : "<stdin>") : path;
		tmp = tmpfile();
		if (!tmp) {
			fprintf(stderr, "nvtxtc: error: cannot create a temporary file: %s\n", strerror(errno));
			close(fd);
			worst = 2;
			continue;
		}
		fmt.out = tmp;
		status = compile_one(run->opt, &run->printer, &run->totals, path, fd, display, NULL, &fmt);
		nvtxt_fmt_flush(&fmt);
		if (fflush(tmp) != 0 || ferror(tmp)) {
			fprintf(stderr, "nvtxtc: error: writing a temporary file: %s\n", strerror(errno));
			status = 2;
		}
		if (status != 0) {
			if (status == 1)
				fprintf(stderr, "nvtxtc: %s: not formatted: it has syntax errors\n", display);
		} else if (run->opt->check) {
			if (!same_contents(fd, tmp)) {
				printf("%s\n", display);
				status = 1;
			}
		} else if (run->opt->in_place) {
			if (!same_contents(fd, tmp)) {
				struct nvtxt_output out;
				if (output_open(&out, path) != 0 || copy_stream(tmp, out.file) != 0) {
					fprintf(stderr, "nvtxtc: error: cannot write '%s': %s\n", path, strerror(errno));
					if (out.file)
						output_abort(&out);
					status = 2;
				} else if (output_commit(&out) != 0) {
					fprintf(stderr, "nvtxtc: error: cannot write '%s': %s\n", path, strerror(errno));
					status = 2;
				}
			}
		} else if (copy_stream(tmp, stdout) != 0) {
			fprintf(stderr, "nvtxtc: error: writing standard output: %s\n", strerror(errno));
			status = 2;
		}
		fclose(tmp);
		close(fd);
		if (status > worst)
			worst = status;
	}
	return worst;
}

/* A payload file read into memory and validated. */
struct payload_file {
	unsigned char *data;
	size_t size;
	struct nvtxt_payload_reader *r;
};

/*
 * Reads fd from offset 0 to EOF and validates it (nvtxt-payload(5)).
 * Returns 0; 1 for an invalid payload; 2 on a read error (message printed).
 */
static int payload_load(int fd, const char *display, struct payload_file *pf, FILE *errf)
{
	size_t cap = 65536;
	ssize_t n;
	char err[512];

	memset(pf, 0, sizeof *pf);
	pf->data = malloc(cap);
	if (!pf->data)
		goto io;
	while ((n = pread(fd, pf->data + pf->size, cap - pf->size, (off_t)pf->size)) != 0) {
		if (n < 0)
			goto io;
		pf->size += (size_t)n;
		if (pf->size == cap) {
			unsigned char *p = realloc(pf->data, cap * 2);
			if (!p)
				goto io;
			pf->data = p;
			cap *= 2;
		}
	}
	if (nvtxt_payload_open(&pf->r, pf->data, pf->size, err, sizeof err) != 0) {
		fprintf(errf, "%s: error: %s\n", display, err);
		return 1;
	}
	return 0;
io:
	fprintf(errf, "nvtxtc: error: cannot read '%s': %s\n", display, strerror(errno));
	return 2;
}

static void payload_free(struct payload_file *pf)
{
	nvtxt_payload_reader_free(pf->r);
	free(pf->data);
}

/* True when fd (not standard input) holds a payload file, by its magic. */
static bool is_payload(int fd)
{
	unsigned char magic[8];

	return pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
	       nvtxt_payload_sniff(magic, sizeof magic);
}

/*
 * A payload file where NVTXT is expected.  It is decompiled to its normal
 * form, which then goes through the whole front end like any NVTXT file,
 * so a payload is held to every rule of nvtxt(5); diagnostics point at
 * lines of that normal form (nvtxtc --emit=nvtxt FILE).  Its calls go to
 * `be` (NULL: lint).
 */
static int decompile_one(const struct options *opt, struct nvtxt_text_printer *printer,
			 struct totals *totals, int fd, const char *display,
			 const struct nvtxt_backend *be)
{
	struct payload_file pf;
	struct nvtxt_backend text;
	char err[512];
	FILE *nf;
	int status = payload_load(fd, display, &pf, printer->out);

	if (status != 0) {
		payload_free(&pf);
		return status;
	}
	nf = tmpfile();
	if (!nf) {
		fprintf(printer->out, "nvtxtc: error: cannot create a temporary file: %s\n", strerror(errno));
		payload_free(&pf);
		return 2;
	}
	text = nvtxt_emit_nvtxt_backend(nf);
	if (nvtxt_payload_decompile(pf.r, &text, err, sizeof err) != 0) {
		fprintf(printer->out, "%s: error: %s\n", display, err);
		status = 1;
	} else if (fflush(nf) != 0 || lseek(fileno(nf), 0, SEEK_SET) != 0) {
		fprintf(printer->out, "nvtxtc: error: writing a temporary file: %s\n", strerror(errno));
		status = 2;
	} else {
		status = compile_one(opt, printer, totals, display, fileno(nf), display, be, NULL);
	}
	fclose(nf);
	payload_free(&pf);
	return status;
}

/* nvtxtc dump FILE, nvtxtc replay FILE. */
static int run_payload_command(const char *cmd, int argc, char **argv)
{
	struct payload_file pf;
	bool is_stdin;
	int fd, status;

	if (argc != 3)
		return usage_error("'nvtxtc %s' takes exactly one payload file", cmd);
#ifndef NVTXTC_HAVE_NVTX
	if (strcmp(cmd, "replay") == 0) {
		fputs("nvtxtc: error: replay: nvtxtc was built without the NVTX headers "
		      "(configure --with-nvtx=DIR)\n", stderr);
		return 2;
	}
#endif
	fd = open_input(argv[2], &is_stdin, stderr);
	if (fd < 0)
		return 2;
	status = payload_load(fd, is_stdin ? "<stdin>" : argv[2], &pf, stderr);
	if (status == 0 && strcmp(cmd, "dump") == 0) {
		if (nvtxt_payload_dump(pf.r, stdout) != 0) {
			fprintf(stderr, "nvtxtc: error: writing standard output: %s\n", strerror(errno));
			status = 2;
		}
	}
#ifdef NVTXTC_HAVE_NVTX
	if (status == 0 && strcmp(cmd, "replay") == 0) {
		char err[512];
		if (nvtxt_replay(pf.r, argv[2], err, sizeof err) != 0) {
			fprintf(stderr, "nvtxtc: error: replay: %s\n", err);
			status = 2;
		}
	}
#endif
	payload_free(&pf);
	if (!is_stdin)
		close(fd);
	return status;
}

/* One file of a parallel lint: its diagnostics are kept until its turn to print. */
struct lint_job {
	const char *path;
	char *text;
	size_t len;
	int status;
	struct totals totals;
	bool done;
};

struct lint_pool {
	const struct options *opt;
	bool color;
	struct lint_job *jobs;
	int njobs;
	int next;                /* the next job to start */
	pthread_mutex_t lock;
	pthread_cond_t finished;
};

/*
 * Checks one file (NVTXT, or a payload through its normal form) and hands
 * its calls to `be` (NULL: lint only); what it reports goes to printer->out.
 */
static int check_file(const struct options *opt, struct nvtxt_text_printer *printer,
		      struct totals *totals, const char *path, const struct nvtxt_backend *be)
{
	bool is_stdin;
	int fd = open_input(path, &is_stdin, printer->out);
	const char *display;
	int status;

	if (fd < 0)
		return 2;
	display = is_stdin ? (opt->stdin_name ? opt->stdin_name : "<stdin>") : path;
	if (!is_stdin && is_payload(fd))
		status = decompile_one(opt, printer, totals, fd, display, be);
	else
		status = compile_one(opt, printer, totals, path, fd, display, be, NULL);
	if (!is_stdin)
		close(fd);
	return status;
}

static void *lint_worker(void *arg)
{
	struct lint_pool *pool = arg;

	for (;;) {
		struct lint_job *job;
		struct nvtxt_text_printer printer = { .color = pool->color };
		FILE *err;

		pthread_mutex_lock(&pool->lock);
		if (pool->next >= pool->njobs) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		job = &pool->jobs[pool->next++];
		pthread_mutex_unlock(&pool->lock);

		err = open_memstream(&job->text, &job->len);
		if (!err) {
			job->status = 2;
		} else {
			printer.out = err;
			job->status = check_file(pool->opt, &printer, &job->totals, job->path, NULL);
			fclose(err);
		}
		pthread_mutex_lock(&pool->lock);
		job->done = true;
		pthread_cond_broadcast(&pool->finished);
		pthread_mutex_unlock(&pool->lock);
	}
}

/*
 * nvtxtc lint -j N: files are checked by N threads, and each file's
 * diagnostics are printed whole, in command-line order, as soon as the
 * files before it are printed.
 */
static int run_lint_parallel(struct run *run, char **files, int nfiles, long threads)
{
	struct lint_pool pool = { .opt = run->opt, .color = run->printer.color, .njobs = nfiles };
	pthread_t *tids;
	int worst = 0, started = 0;

	pool.jobs = xcalloc((size_t)nfiles, sizeof(*pool.jobs));
	for (int i = 0; i < nfiles; i++)
		pool.jobs[i].path = files[i];
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.finished, NULL);
	if (threads > nfiles)
		threads = nfiles;
	tids = xcalloc((size_t)threads, sizeof(*tids));
	for (long t = 0; t < threads; t++)
		if (pthread_create(&tids[started], NULL, lint_worker, &pool) == 0)
			started++;
	if (!started)
		lint_worker(&pool);
	for (int i = 0; i < nfiles; i++) {
		struct lint_job *job = &pool.jobs[i];
		pthread_mutex_lock(&pool.lock);
		while (!job->done)
			pthread_cond_wait(&pool.finished, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
		if (job->len)
			fwrite(job->text, 1, job->len, stderr);
		free(job->text);
		run->totals.errors += job->totals.errors;
		run->totals.warnings += job->totals.warnings;
		if (job->status > worst)
			worst = job->status;
	}
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&pool.lock);
	pthread_cond_destroy(&pool.finished);
	free(tids);
	free(pool.jobs);
	return worst;
}

static int run_check(struct run *run, char **files, int nfiles)
{
	const char *output = run->opt->output;
	int worst = 0;

	for (int i = 0; i < nfiles; i++) {
		struct nvtxt_backend be;
		struct nvtxt_output out = { 0 };
		struct nvtxt_payload_writer *pw = NULL;
		int status;

		if (run->opt->emit == EMIT_NVTXT) {
			if (output && output_open(&out, output) != 0) {
				fprintf(stderr, "nvtxtc: error: cannot write '%s': %s\n", output, strerror(errno));
				return 2;
			}
			be = nvtxt_emit_nvtxt_backend(output ? out.file : stdout);
		} else if (run->opt->emit == EMIT_PAYLOAD) {
			if (output_open(&out, output) != 0 || !(pw = nvtxt_payload_writer_new(out.file))) {
				fprintf(stderr, "nvtxtc: error: cannot write '%s': %s\n", output, strerror(errno));
				if (out.file)
					output_abort(&out);
				return 2;
			}
			be = nvtxt_payload_backend(pw);
		}
		status = check_file(run->opt, &run->printer, &run->totals, files[i],
				    run->opt->emit == EMIT_NONE ? NULL : &be);
		nvtxt_payload_writer_free(pw);
		if (out.file) {
			if (status != 0) {
				output_abort(&out);
			} else if (output_commit(&out) != 0) {
				fprintf(stderr, "nvtxtc: error: cannot write '%s': %s\n", output, strerror(errno));
				status = 2;
			}
		}
		if (status > worst)
			worst = status;
	}
	return worst;
}

static void print_totals(const struct totals *t)
{
	if (!t->errors && !t->warnings)
		return;
	if (t->errors)
		fprintf(stderr, "%lu error%s", t->errors, t->errors == 1 ? "" : "s");
	if (t->warnings && t->errors)
		fputs(" and ", stderr);
	if (t->warnings)
		fprintf(stderr, "%lu warning%s", t->warnings, t->warnings == 1 ? "" : "s");
	fputs(" generated.\n", stderr);
}

int main(int argc, char **argv)
{
	enum { OPT_EMIT = 256, OPT_STDIN_NAME, OPT_MAX_ERRORS, OPT_COLOR, OPT_CHECK, OPT_LIST_CHECKS };
	static const struct option longopts[] = {
		{ "emit", required_argument, NULL, OPT_EMIT },
		{ "stdin-name", required_argument, NULL, OPT_STDIN_NAME },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "list-checks", no_argument, NULL, OPT_LIST_CHECKS },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct options opt = { .color = -1 };
	struct run run = { .opt = &opt };
	int c, first = 1, status;
	char *end;

	nvtxt_diag_config_init(&opt.diag);
	if (argc > 1 && (strcmp(argv[1], "dump") == 0 || strcmp(argv[1], "replay") == 0))
		return run_payload_command(argv[1], argc, argv);
	if (argc > 1 && strcmp(argv[1], "fmt") == 0) {
		opt.fmt = true;
		first = 2;
	} else if (argc > 1 && strcmp(argv[1], "lint") == 0) {
		first = 2;
	}
	argv += first - 1;
	argc -= first - 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:ij:VW:w", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case 'V':
			printf("nvtxtc %s\n", NVTXTC_VERSION);
			return 0;
		case OPT_LIST_CHECKS:
			list_checks();
			return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
		case 'o':
			opt.output = optarg;
			break;
		case 'i':
			opt.in_place = true;
			break;
		case 'j':
			errno = 0;
			opt.jobs = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || opt.jobs < 1 || opt.jobs > 1024)
				return usage_error("-j expects a number of jobs from 1 to 1024, found '%s'", optarg);
			break;
		case OPT_CHECK:
			opt.check = true;
			break;
		case 'W':
			if (warning_option(&opt, optarg) != 0)
				return 2;
			break;
		case 'w':
			for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
				if (is_warning(i))
					opt.diag.level[i] = NVTXT_LEVEL_OFF;
			break;
		case OPT_EMIT:
			if (strcmp(optarg, "nvtxt") == 0)
				opt.emit = EMIT_NVTXT;
			else if (strcmp(optarg, "payload") == 0)
				opt.emit = EMIT_PAYLOAD;
			else if (strcmp(optarg, "none") == 0)
				opt.emit = EMIT_NONE;
			else
				return usage_error("unknown --emit format '%s': expected nvtxt, payload or none", optarg);
			break;
		case OPT_STDIN_NAME:
			opt.stdin_name = optarg;
			break;
		case OPT_MAX_ERRORS:
			errno = 0;
			opt.diag.max_errors = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return usage_error("--max-errors expects a number >= 0, found '%s'", optarg);
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") == 0)
				opt.color = -1;
			else if (strcmp(optarg, "always") == 0)
				opt.color = 1;
			else if (strcmp(optarg, "never") == 0)
				opt.color = 0;
			else
				return usage_error("--color expects auto, always or never, found '%s'", optarg);
			break;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				fprintf(stderr, "nvtxtc: error: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "nvtxtc: error: unknown option '%s'\n", argv[optind - 1]);
			fputs("Try 'nvtxtc --help' for more information.\n", stderr);
			return 2;
		}
	}
	if (optind >= argc)
		return usage_error("%s", "no input files");
	if (opt.fmt && opt.emit != EMIT_NONE)
		return usage_error("%s", "fmt does not take --emit");
	if (!opt.fmt && (opt.check || opt.in_place))
		return usage_error("%s", "--check and -i are options of 'nvtxtc fmt'");
	if (opt.fmt && opt.output)
		return usage_error("%s", "fmt writes to standard output or, with -i, in place; -o is for --emit");
	if (opt.check && opt.in_place)
		return usage_error("%s", "fmt takes --check or -i, not both");
	if (opt.emit != EMIT_NONE && argc - optind != 1)
		return usage_error("%s", "--emit takes exactly one input file");
	if (opt.output && opt.emit == EMIT_NONE)
		return usage_error("%s", "-o needs --emit=FORMAT");
	if (opt.emit == EMIT_PAYLOAD && !opt.output)
		return usage_error("%s", "--emit=payload writes a binary file: give it with -o FILE");

	if (opt.color < 0) {
		const char *term = getenv("TERM");
		opt.color = isatty(2) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
	}
	run.printer.out = stderr;
	run.printer.color = opt.color != 0;
	if (opt.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		opt.jobs = n > 0 ? n : 1;
	}
	if (opt.fmt) {
		opt.read_ahead = opt.jobs >= 2;
		status = run_fmt(&run, argv + optind, argc - optind);
	} else if (opt.emit == EMIT_NONE && opt.jobs > 1 && argc - optind > 1) {
		/* each file's thread reads ahead in a second one when there are processors to spare */
		long workers = opt.jobs < argc - optind ? opt.jobs : argc - optind;
		opt.read_ahead = opt.jobs >= 2 * workers;
		status = run_lint_parallel(&run, argv + optind, argc - optind, opt.jobs);
	} else {
		opt.read_ahead = opt.jobs >= 2;
		status = run_check(&run, argv + optind, argc - optind);
	}
	print_totals(&run.totals);
	if (fflush(stdout) != 0 && status < 2) {
		fprintf(stderr, "nvtxtc: error: writing standard output: %s\n", strerror(errno));
		status = 2;
	}
	return status;
}
