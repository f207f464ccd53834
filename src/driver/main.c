/*
 * main.c - the nvtxtc driver: the command line, parsed by options.c, is
 * dispatched through two tables: `subcommands[]` (lint, fmt, dump, ...)
 * and `emitters[]` (the back ends of --emit=NAME).  --help is printed from
 * the same tables and from options.c's `option_specs[]`.  Everything else
 * is the library (compile.h and the back ends) and the cmd_*.c files.
 *
 * Exit status (nvtxtc(1), EXIT STATUS): 0 no errors; 1 errors in an input
 * (or warnings under -Werror); 2 a usage error or an I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "progress.h"
#include "emit_chrome.h"
#include "nvtxt/emit_nvtxt.h"
#include "lsp.h"
#include "nvtxt/payload.h"
#include "processors.h"
#include "util.h"

/* --- back ends of --emit=NAME ------------------------------------------- */

/*
 * The state of --emit=nvtxt and --emit=payload: the back end itself and,
 * under --time-conversion, the filter in front of it that rewrites the
 * converted times (timeconv.h).
 */
struct emit_state {
	struct nvtxt_payload_writer *payload;
	struct nvtxt_emit_nvtxt *nvtxt;
	struct nvtxt_backend inner;
	struct nvtxt_tconv_filter filter;
};

/* Puts the time conversion filter in front of st->inner when --time-conversion was given. */
static void convert_times(const struct options *opt, struct emit_state *st, struct nvtxt_backend *be)
{
	if (opt->tconv.any_given)
		*be = nvtxt_tconv_filter_backend(&st->filter, &opt->tconv, &st->inner);
	else
		*be = st->inner;
}

static int start_nvtxt(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct emit_state *st = xcalloc(1, sizeof *st);

	st->nvtxt = nvtxt_emit_nvtxt_new(out);
	if (!st->nvtxt) {
		free(st);
		return -1;
	}
	st->inner = nvtxt_emit_nvtxt_backend(st->nvtxt);
	convert_times(opt, st, be);
	*state = st;
	return 0;
}

static int start_payload(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct emit_state *st = xcalloc(1, sizeof *st);

	st->payload = nvtxt_payload_writer_new(out);
	if (!st->payload) {
		free(st);
		return -1;
	}
	st->inner = nvtxt_payload_backend(st->payload);
	convert_times(opt, st, be);
	*state = st;
	return 0;
}

/*
 * After a compilation that ended early (a payload's read error, out of
 * memory: the back end's finish was not called), the normal form of every
 * call it received is written out, so that what precedes the error does
 * not depend on where the writer's buffer happened to end; a write error
 * stays on the stream for the caller's check.  A payload is never left in
 * part (cmd_lint.c empties standard output; -o is not committed).
 */
static void stop_emit(void *state)
{
	struct emit_state *st = state;

	if (st->nvtxt)
		nvtxt_emit_nvtxt_flush(st->nvtxt);
	nvtxt_payload_writer_free(st->payload);
	nvtxt_emit_nvtxt_free(st->nvtxt);
	free(st);
}

static const char *emit_error(void *state, size_t i, struct nvtxt_loc *loc)
{
	struct emit_state *st = state;

	if (i > 0 || !st->filter.error[0])
		return NULL;
	*loc = st->filter.error_loc;
	return st->filter.error;
}

static int start_chrome(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct nvtxt_chrome *c = nvtxt_chrome_new(out, &opt->tconv);

	*be = nvtxt_chrome_backend(c);
	*state = c;
	return 0;
}

static void stop_chrome(void *state)
{
	nvtxt_chrome_free(state);
}

static const char *chrome_error(void *state, size_t i, struct nvtxt_loc *loc)
{
	return nvtxt_chrome_error(state, i, loc);
}

const struct emitter emitters[] = {
	{ "nvtxt", "print the canonical normal form of FILE", false, start_nvtxt, stop_emit, emit_error, false },
	{ "payload", "write FILE as NVTX payload schemas and batches (needs -o)", true,
	  start_payload, stop_emit, emit_error, false },
	{ "chrome", "write FILE as Chrome Trace Event JSON (Perfetto, speedscope);\nseveral FILEs make one document", false,
	  start_chrome, stop_chrome, chrome_error, true },
	{ "none", "write nothing: only check the files, as lint does (the\ndefault)", false, NULL, NULL,
	  NULL, false },
};
const int n_emitters = sizeof emitters / sizeof emitters[0];

/* --- subcommands ---------------------------------------------------------- */

static const char *validate_lint(const struct options *o, char **operands, int n);
static const char *validate_fmt(const struct options *o, char **operands, int n);
static const char *validate_one_file(const struct options *o, char **operands, int n);
static const char *validate_no_operand(const struct options *o, char **operands, int n);
static const char *validate_info(const struct options *o, char **operands, int n);
static const char *validate_help(const struct options *o, char **operands, int n);
static int run_help(struct run *run, char **operands, int n);

const struct subcommand subcommands[] = {
	{ "lint", "[lint] [--fix] [OPTION]... FILE...", "check the files and print diagnostics (the default)",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_INPUT | OPTC_WARN | OPTC_EMIT | OPTC_TIME | OPTC_FIX | OPTC_PROGRESS, true, validate_lint,
	  run_lint },
	{ "fmt", "fmt [--check|-l] [-d] [-i|-w|--recover] [OPTION]... FILE...", "print the files with normalised layout",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_INPUT | OPTC_FMT | OPTC_PROGRESS, true, validate_fmt, run_fmt },
	{ "info", "info [--format=FORMAT] [OPTION]... FILE...",
	  "print facts about the files: events per command, threads,\n"
	  "time spans, categories, the longest ranges",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_INPUT | OPTC_WARN | OPTC_TIME | OPTC_INFO | OPTC_PROGRESS, true, validate_info, run_info },
	{ "stats", "stats [--report=NAME] [--format=FMT] [--timeunit=UNIT] [-o FILE] [OPTION]... FILE...",
	  "print the NVTX range statistics of nsys stats\n"
	  "(nvtx_sum and others) of the files together",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_INPUT | OPTC_WARN | OPTC_TIME | OPTC_STATS | OPTC_PROGRESS, true, validate_info, run_stats },
	{ "dump", "dump FILE", "print a payload file for a person", OPTC_GENERAL | OPTC_PROGRESS, false, validate_one_file,
	  run_dump },
	{ "replay", "replay FILE",
	  "submit a payload file to NVTX (to the tool in\n"
	  "NVTX_INJECTION64_PATH)",
	  OPTC_GENERAL | OPTC_PROGRESS, false, validate_one_file, run_replay },
	{ "lsp", "lsp [--stdio] [OPTION]...",
	  "run a Language Server Protocol server on standard\n"
	  "input and output, for editors (nvtxtc(1), EDITORS)",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_WARN | OPTC_LSP, false, validate_no_operand, run_lsp },
	{ "help", "help [COMMAND]", "print this help, or the options of COMMAND", OPTC_GENERAL, false,
	  validate_help, run_help },
};
const int n_subcommands = sizeof subcommands / sizeof subcommands[0];

static const struct subcommand *find_command(const char *name)
{
	for (int i = 0; i < n_subcommands; i++)
		if (strcmp(name, subcommands[i].name) == 0)
			return &subcommands[i];
	return NULL;
}

static int run_help(struct run *run, char **operands, int n)
{
	print_help(stdout, n == 1 ? find_command(operands[0]) : NULL);
	return finish_stdout(&run->sink, 0);
}

/* --- validation ----------------------------------------------------------- */

/*
 * True when standard output can take a payload file, whose header is
 * written last at offset 0: a regular file at offset 0, not in append mode.
 */
static bool stdout_seekable(void)
{
	struct stat st;
	int fl = fcntl(1, F_GETFL);

	return fstat(1, &st) == 0 && S_ISREG(st.st_mode) && lseek(1, 0, SEEK_CUR) == 0 && fl != -1 &&
	       !(fl & O_APPEND);
}

static const char *validate_lint(const struct options *o, char **operands, int n)
{
	static char msg[256];

	(void)operands;
	if (n == 0)
		return "no input files";
	if (o->emit && o->emit->start && n != 1 && !o->emit->merges) {
		snprintf(msg, sizeof msg, "--emit=%s writes one file per output: give one FILE (only "
			 "--emit=chrome merges several)", o->emit->name);
		return msg;
	}
	if (o->output && !(o->emit && o->emit->start))
		return "-o needs --emit=FORMAT";
	if (o->tconv.any_given && !(o->emit && o->emit->start))
		return "--time-conversion needs --emit=FORMAT (or nvtxtc info)";
	if (o->fix && o->emit && o->emit->start)
		return "--fix rewrites the files; it does not take --emit";
	if (o->emit && o->emit->needs_output && !o->output) {
		snprintf(msg, sizeof msg, "--emit=%s writes a binary file: give it with -o FILE",
			 o->emit->name);
		return msg;
	}
	if (o->emit && o->emit->needs_output && strcmp(o->output, "-") == 0 && !stdout_seekable()) {
		snprintf(msg, sizeof msg, "--emit=%s -o -: standard output is not a seekable file (a pipe or "
			 "a terminal), and a payload's header is written last, at offset 0: give a file "
			 "with -o FILE", o->emit->name);
		return msg;
	}
	return NULL;
}

static const char *validate_fmt(const struct options *o, char **operands, int n)
{
	(void)operands;
	if (n == 0)
		return "no input files";
	if (o->check && o->in_place)
		return "fmt takes --check or -i (-w), not both";
	if (o->diff && o->in_place)
		return "fmt takes -d or -i (-w), not both";
	if (o->recover && (o->check || o->list || o->diff || o->in_place))
		return "fmt --recover only puts files back from their journals: it takes no --check, -l, -d or -i";
	return NULL;
}

/* info and stats: one FILE or more */
static const char *validate_info(const struct options *o, char **operands, int n)
{
	(void)o;
	(void)operands;
	return n == 0 ? "no input files" : NULL;
}

static const char *validate_one_file(const struct options *o, char **operands, int n)
{
	(void)o;
	(void)operands;
	return n == 1 ? NULL : "this command takes exactly one payload file";
}

static const char *validate_no_operand(const struct options *o, char **operands, int n)
{
	(void)o;
	(void)operands;
	return n == 0 ? NULL : "this command takes no operand";
}

static const char *validate_help(const struct options *o, char **operands, int n)
{
	static char msg[160];
	const char *names[16], *near;
	int k = 0;

	(void)o;
	if (n == 0 || (n == 1 && find_command(operands[0])))
		return NULL;
	if (n > 1)
		return "help takes one command name at most";
	for (int i = 0; i < n_subcommands && k < 16; i++)
		names[k++] = subcommands[i].name;
	near = suggest(operands[0], strlen(operands[0]), names, (size_t)k);
	snprintf(msg, sizeof msg, "unknown command '%.40s'%s%s%s", operands[0], near ? "; did you mean '" : "",
		 near ? near : "", near ? "'?" : "");
	return msg;
}

/*
 * The file of `files` (n of them; "-" is standard input) that is the file
 * `so` describes, by device and inode, or NULL.
 */
static const char *same_as(const struct stat *so, char **files, int n)
{
	struct stat si;

	for (int i = 0; i < n; i++) {
		bool in = strcmp(files[i], "-") == 0;
		if ((in ? fstat(0, &si) : stat(files[i], &si)) == 0 && si.st_dev == so->st_dev &&
		    si.st_ino == so->st_ino)
			return files[i];
	}
	return NULL;
}

/*
 * An output (-o, --diagnostics-output) that is one of the inputs, by its
 * device and inode (a symbolic or hard link to it too), a file found under
 * a directory operand included: it would be replaced by what is made of
 * it.  Returns the message, or NULL.
 */
static const char *output_is_input(const char *out, const char *what, char **operands, int n)
{
	static char msg[1024];
	const struct nvtxt_diag_sink quiet = { 0 }; /* the command reports what the walk finds */
	struct stat so, sd;
	const char *in = NULL;
	char **files;
	int nfiles;

	if (!out || strcmp(out, "-") == 0 || stat(out, &so) != 0 || !S_ISREG(so.st_mode))
		return NULL;
	in = same_as(&so, operands, n);
	for (int i = 0; i < n && !in; i++) {
		if (strcmp(operands[i], "-") == 0 || stat(operands[i], &sd) != 0 || !S_ISDIR(sd.st_mode))
			continue;
		expand_operands(&quiet, &operands[i], 1, &files, &nfiles);
		if ((in = same_as(&so, files, nfiles)) != NULL)
			snprintf(msg, sizeof msg, "output is the input: %s '%.200s' is the same file as the input "
				 "'%.200s' (under the directory '%.200s'); nothing written", what, out, in, operands[i]);
		free_files(files, nfiles);
		if (in)
			return msg;
	}
	if (!in)
		return NULL;
	snprintf(msg, sizeof msg, "output is the input: %s '%.200s' is the same file as the input "
		 "'%.200s'; nothing written", what, out, strcmp(in, "-") == 0 ? "standard input" : in);
	return msg;
}

/* --- the run ---------------------------------------------------------------- */

/* No FILE: standard input when it is not a terminal (gofmt, clang-format), and open. */
static bool stdin_is_input(void)
{
	return fcntl(0, F_GETFD) != -1 && !isatty(0);
}

/* "N errors and M warnings generated." on standard error, after a text run. */
static void print_summary(const struct totals *t)
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

/* The usage problems found once the options are parsed: a message for usage_error, or NULL. */
static const char *check_usage(struct run *run, char **ops, int nops)
{
	const struct options *opt = run->opt;
	const char *problem = opt->cmd->validate ? opt->cmd->validate(opt, ops, nops) : NULL;

	if (!problem && opt->diag_output && !run->report)
		problem = "--diagnostics-output needs --diagnostics-format=json or sarif";
	return problem;
}

/* Runs the command on its operands; the exit status. */
static int run_command(struct run *run, char **ops, int nops)
{
	struct options *opt = run->opt;
	const char *same = output_is_input(opt->output, "-o", ops, nops);

	if (!same)
		same = output_is_input(opt->diag_output, "--diagnostics-output", ops, nops);
	if (same) {
		if (opt->diag_output && strstr(same, "--diagnostics-output"))
			opt->diag_output = NULL; /* the document goes where it would without the option */
		io_error(&run->sink, NULL, "%s", same);
		return 2;
	}
	if (opt->color < 0) {
		const char *term = getenv("TERM");
		opt->color = isatty(2) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
	}
	run->printer.color = opt->color != 0;
	progress_setup(run);
	if (opt->jobs == 0)
		opt->jobs = usable_processors();
	return opt->cmd->run(run, ops, nops);
}

static int nvtxtc_main(int argc, char **argv)
{
	static char *stdin_operand[] = { "-", NULL };
	struct options opt = { .color = -1, .progress = -1, .cmd = &subcommands[0] };
	struct run run = { .opt = &opt };
	const char *problem = NULL;
	int first = 1, status, nargs, nops;
	char **args, **ops;

	/* past a file-size limit (ulimit -f) a write fails with EFBIG and is reported */
	signal(SIGXFSZ, SIG_IGN);
	nvtxt_diag_config_init(&opt.diag);
	nvtxt_tconv_init(&opt.tconv);
	run.out = stdout;
	run.printer.out = stderr;
	run.printer.color = false;
	run.sink = (struct nvtxt_diag_sink){ &run.printer, nvtxt_text_printer_report };
	diag_output_prescan(&run, argc, argv);

	if (argc > 1 && find_command(argv[1])) {
		opt.cmd = find_command(argv[1]);
		opt.cmd_given = true;
		first = 2;
	} else if (argc > 1) {
		problem = unknown_command(argv[1]); /* `nvtxtc lnt f.nvtxt` */
	}
	args = argv + first - 1;
	nargs = argc - (first - 1);
	status = problem ? usage_error(&run.sink, "%s", problem) : parse_options(&opt, nargs, args, &run.sink);
	if (status == 0)
		return 0; /* --help, --version, --list-checks: no diagnostics, no document */
	if (status > 0)
		return diag_output_finish(&run, argc, argv, status);
	ops = args + optind;
	nops = nargs - optind;
	if (nops == 0 && opt.cmd->reads_stdin && stdin_is_input()) {
		ops = stdin_operand;
		nops = 1;
	}
	problem = check_usage(&run, ops, nops);
	if (problem)
		return diag_output_finish(&run, argc, argv, usage_error(&run.sink, "%s", problem));
	status = run_command(&run, ops, nops);
	if (!run.report)
		print_summary(&run.totals);
	status = finish_stdout(&run.sink, status);
	/* diagnostics that could not be written still end the run with status 2 */
	status = diag_output_finish(&run, argc, argv, status);
	if (fflush(stderr) != 0 || ferror(stderr))
		status = 2;
	return status;
}

int main(int argc, char **argv)
{
	static struct guard out_of_memory;

	/* the library returns ENOMEM; the driver's own allocations end here (util.h) */
	if (setjmp(out_of_memory.env)) {
		fputs("nvtxtc: out of memory\n", stderr);
		return 2;
	}
	guard_push(&out_of_memory);
	return nvtxtc_main(argc, argv);
}
