/*
 * fuzz_common.h - shared by the libFuzzer targets of tests/fuzz/: the input
 * handed to nvtxt_compile through a memfd (a regular file, so the front end
 * also takes its pread excerpt path), a diagnostic sink that formats every
 * diagnostic into /dev/null (so the printer and the excerpts run too), and
 * helpers that compile a buffer into a malloc'd string.
 */
#ifndef NVTXT_FUZZ_COMMON_H
#define NVTXT_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "reader.h"
#include "diag_engine.h"
#include "nvtxt/emit_nvtxt.h"
#include "fmt.h"

static int fuzz_fd = -1;
static FILE *fuzz_null;
static struct nvtxt_text_printer fuzz_printer;

static void fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz harness: %s: %s\n", what, strerror(errno));
	abort();
}

static void fuzz_init(void)
{
	if (fuzz_fd >= 0)
		return;
	fuzz_fd = memfd_create("nvtxt-fuzz", 0);
	if (fuzz_fd < 0)
		fuzz_die("memfd_create");
	fuzz_null = fopen("/dev/null", "w");
	if (!fuzz_null)
		fuzz_die("/dev/null");
	fuzz_printer.out = fuzz_null;
}

/* Puts data into the memfd and rewinds it. */
static void fuzz_load(const void *data, size_t size)
{
	const char *p = data;
	size_t done = 0;

	if (ftruncate(fuzz_fd, 0) != 0)
		fuzz_die("ftruncate");
	while (done < size) {
		ssize_t n = pwrite(fuzz_fd, p + done, size - done, (off_t)done);
		if (n <= 0)
			fuzz_die("pwrite");
		done += (size_t)n;
	}
	if (lseek(fuzz_fd, 0, SEEK_SET) != 0)
		fuzz_die("lseek");
}

/*
 * Returns the read end of a pipe holding data (the input of `nvtxtc lint -`
 * or an editor's buffer: not seekable, so excerpts come from the scanner),
 * or -1 when data does not fit in the pipe.
 */
__attribute__((unused)) static int fuzz_pipe(const void *data, size_t size)
{
	int p[2];
	const char *d = data;
	size_t done = 0;

	if (pipe(p) != 0)
		fuzz_die("pipe");
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	if ((long)size >= fcntl(p[1], F_GETPIPE_SZ)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	while (done < size) {
		ssize_t n = write(p[1], d + done, size - done);
		if (n <= 0)
			fuzz_die("write(pipe)");
		done += (size_t)n;
	}
	close(p[1]);
	return p[0];
}

/* How a front-end run is configured (the command-line options it stands for). */
struct fuzz_mode {
	bool pipe;                         /* `lint -`: input from a pipe */
	struct nvtxt_diag_config config;   /* -Werror, -w, --max-errors */
	bool color;                        /* --color */
};

/* The default: a regular file, default warnings, --max-errors=50, color. */
static struct fuzz_mode fuzz_default_mode(void)
{
	struct fuzz_mode m = { .pipe = false, .color = true };
	nvtxt_diag_config_init(&m.config);
	return m;
}

/*
 * A mode picked from the input (its size and middle byte, so the same
 * input always runs the same way, and its text is not changed): one in
 * eight each of pipe input, -Werror, -w, --max-errors=1, --max-errors=0,
 * --color=never; the default otherwise.
 */
__attribute__((unused)) static struct fuzz_mode fuzz_pick_mode(const uint8_t *data, size_t size)
{
	struct fuzz_mode m = fuzz_default_mode();
	unsigned selector = (unsigned)size + (size ? data[size / 2] : 0);

	switch (selector % 8) {
	case 0: m.pipe = true; break;
	case 1:
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			m.config.level[i] = NVTXT_LEVEL_ERROR;
		break;
	case 2:
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			m.config.level[i] = NVTXT_LEVEL_OFF;
		break;
	case 3: m.config.max_errors = 1; break;
	case 4: m.config.max_errors = 0; break;
	case 5: m.color = false; break;
	default: break;
	}
	return m;
}

/*
 * The input as nvtxt_compile gets it: a pipe when pipe_input (and the data
 * fits in one), else the memfd.  Close it unless it is fuzz_fd.
 */
static int fuzz_input_fd(const void *data, size_t size, bool pipe_input)
{
	int fd = -1;

	fuzz_init();
	if (pipe_input)
		fd = fuzz_pipe(data, size);
	if (fd < 0) {
		fuzz_load(data, size);
		fd = fuzz_fd;
	}
	return fd;
}

struct fuzz_out {
	char *text;     /* malloc'd, NUL-terminated */
	size_t len;
	int status;     /* nvtxt_compile's return */
	struct nvtxt_compile_result res;
};

/* An empty memstream whose text ends up in o->text and o->len. */
static FILE *fuzz_output(struct fuzz_out *o)
{
	FILE *mem;

	o->text = NULL;
	o->len = 0;
	mem = open_memstream(&o->text, &o->len);
	if (!mem)
		fuzz_die("open_memstream");
	return mem;
}

/*
 * Compiles data in `mode`: check mode with the canonical NVTXT back end
 * when fmt is false, syntax mode with the layout formatter when true.
 */
__attribute__((unused)) static void fuzz_compile_mode(const void *data, size_t size, bool fmt,
						      const struct fuzz_mode *mode, struct fuzz_out *o)
{
	FILE *mem;
	struct nvtxt_backend be;
	struct nvtxt_emit_nvtxt *w = NULL;
	struct nvtxt_fmt f = { 0 };
	struct nvtxt_compile_options co = {
		.display_name = "fuzz.nvtxt",
		.diag_config = &mode->config,
		.sink = { &fuzz_printer, nvtxt_text_printer_report },
	};
	int fd = fuzz_input_fd(data, size, mode->pipe);

	fuzz_printer.color = mode->color;
	mem = fuzz_output(o);
	co.fd = fd;
	if (fmt) {
		f.out = mem;
		co.instruction = nvtxt_fmt_instruction;
		co.instruction_user = &f;
	} else {
		if (!(w = nvtxt_emit_nvtxt_new(mem)))
			fuzz_die("nvtxt_emit_nvtxt_new");
		be = nvtxt_emit_nvtxt_backend(w);
		co.backend = &be;
	}
	memset(&o->res, 0xA5, sizeof o->res);  /* every field must be written */
	o->status = nvtxt_compile(&co, &o->res);
	nvtxt_emit_nvtxt_free(w);
	if (fmt)
		nvtxt_fmt_flush(&f);
	if (fd != fuzz_fd)
		close(fd);
	if (fclose(mem) != 0)
		fuzz_die("fclose(memstream)");
	if (o->status < 0 || o->status > 2) {
		fprintf(stderr, "nvtxt_compile returned %d\n", o->status);
		abort();
	}
	if (o->res.io_errno) {
		fprintf(stderr, "nvtxt_compile: unexpected I/O error %d on a memfd\n", o->res.io_errno);
		abort();
	}
	if ((o->status == 0) != (o->res.errors == 0)) {
		fprintf(stderr, "nvtxt_compile returned %d with %lu errors\n", o->status, o->res.errors);
		abort();
	}
	if (o->res.hidden_errors > o->res.errors || o->res.hidden_warnings > o->res.warnings) {
		fprintf(stderr, "more hidden diagnostics than diagnostics\n");
		abort();
	}
}

/* fuzz_compile_mode in the default mode. */
__attribute__((unused)) static void fuzz_compile(const void *data, size_t size, bool fmt,
						 struct fuzz_out *o)
{
	struct fuzz_mode m = fuzz_default_mode();
	fuzz_compile_mode(data, size, fmt, &m, o);
}

/* Aborts, showing both texts, when a != b. */
__attribute__((unused)) static void fuzz_same(const char *what, const struct fuzz_out *a, const struct fuzz_out *b)
{
	if (a->len == b->len && memcmp(a->text, b->text, a->len) == 0)
		return;
	fprintf(stderr, "%s differ:\n--- first (%zu bytes)\n%.*s\n--- second (%zu bytes)\n%.*s\n---\n",
		what, a->len, (int)(a->len > 4000 ? 4000 : a->len), a->text,
		b->len, (int)(b->len > 4000 ? 4000 : b->len), b->text);
	abort();
}

/* Syntax mode's instruction callback for fuzz_fast_paths_agree: every field of every AST node. */
static void fuzz_dump_loc(FILE *f, const char *what, const struct nvtxt_loc *l)
{
	fprintf(f, " %s=%u:%u+%u@%llu", what, l->line, l->col, l->len, (unsigned long long)l->line_offset);
}

static void fuzz_dump_str(FILE *f, const char *what, struct nvtxt_str s)
{
	fprintf(f, " %s=%zu:", what, s.len);
	if (s.ptr) {
		fwrite(s.ptr, 1, s.len, f);
	} else {
		fputs("(null)", f);
	}
}

__attribute__((unused)) static void fuzz_dump_instr(void *user, const struct nvtxt_instr *in)
{
	FILE *f = user;

	fprintf(f, "instr kind=%d broken=%d", (int)in->kind, (int)in->broken);
	fuzz_dump_loc(f, "loc", &in->loc);
	fuzz_dump_str(f, "name", in->name);
	fuzz_dump_loc(f, "name_loc", &in->name_loc);
	fuzz_dump_loc(f, "end_loc", &in->end_loc);
	fputc('\n', f);
	for (size_t i = 0; i < in->nargs; i++) {
		fputs("  arg", f);
		fuzz_dump_str(f, "name", in->args[i]);
		fuzz_dump_loc(f, "loc", &in->arg_locs[i]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < in->nvalues; i++) {
		const struct nvtxt_value *v = &in->values[i];
		fprintf(f, "  value kind=%d quote=%d integer=%lld origin=%d", (int)v->kind, v->quote,
			(long long)v->integer, v->origin != NULL);
		if (v->kind != NVTXT_V_ABSENT)
			fuzz_dump_str(f, "text", v->text);
		fuzz_dump_loc(f, "loc", &v->loc);
		fputc('\n', f);
	}
}

/*
 * One run for fuzz_fast_paths_agree: the diagnostics (as the text printer
 * prints them) and, in order with them, the canonical NVTXT of the events
 * (check mode) or a dump of every AST node (syntax mode), into o.
 */
static void fuzz_run_paths(const void *data, size_t size, const struct fuzz_mode *mode, bool syntax,
			   bool no_fast_paths, bool read_ahead, bool from_text, struct fuzz_out *o)
{
	FILE *mem;
	struct nvtxt_backend be;
	struct nvtxt_emit_nvtxt *w = NULL;
	struct nvtxt_text_printer printer = { .color = mode->color };
	struct nvtxt_compile_options co = {
		.display_name = "fuzz.nvtxt",
		.diag_config = &mode->config,
		.no_fast_paths = no_fast_paths,
		.read_ahead = read_ahead,
	};
	/* from_text: the input in memory (nvtxt_compile_options.text), excerpts from it */
	int fd = from_text ? -1 : fuzz_input_fd(data, size, mode->pipe);

	mem = fuzz_output(o);
	printer.out = mem;
	co.sink = (struct nvtxt_diag_sink){ &printer, nvtxt_text_printer_report };
	co.fd = fd;
	if (from_text) {
		co.text = size ? data : "";
		co.text_len = size;
	}
	if (syntax) {
		co.instruction = fuzz_dump_instr;
		co.instruction_user = mem;
	} else {
		if (!(w = nvtxt_emit_nvtxt_new(mem)))
			fuzz_die("nvtxt_emit_nvtxt_new");
		be = nvtxt_emit_nvtxt_backend(w);
		co.backend = &be;
	}
	o->status = nvtxt_compile(&co, &o->res);
	nvtxt_emit_nvtxt_free(w);
	if (fd >= 0 && fd != fuzz_fd)
		close(fd);
	fprintf(mem, "status %d errors %lu warnings %lu hidden %lu %lu lines %lu\n", o->status,
		o->res.errors, o->res.warnings, o->res.hidden_errors, o->res.hidden_warnings, o->res.lines);
	if (fclose(mem) != 0)
		fuzz_die("fclose(memstream)");
}

/*
 * The fast paths (src/frontend/fast_line.c, the call plans of src/passes/sema.c) against
 * the reference (every line through flex and bison, every call through
 * the full checks; nvtxt_compile_options.no_fast_paths): the same
 * diagnostics, events and AST nodes, in check mode and in syntax mode,
 * with the fast path's scanning steps at every level this processor runs
 * (portable, SSE2, AVX2: reader.h, fast_scan_force), and with the input
 * read in this thread and read ahead in a second one (read_ahead, which
 * starts only past the first 128 KiB chunk).  Returns true when they
 * agree; otherwise prints the outputs to stderr.
 */
__attribute__((unused)) static bool fuzz_fast_paths_agree(const void *data, size_t size,
							  const struct fuzz_mode *mode)
{
	bool same = true;

	for (int syntax = 0; syntax <= 1 && same; syntax++) {
		struct fuzz_out reference;

		fuzz_run_paths(data, size, mode, syntax, true, false, false, &reference);
		if (!mode->pipe) {
			/* the same input from memory: the same output, excerpts included */
			struct fuzz_out text;

			fuzz_run_paths(data, size, mode, syntax, true, false, true, &text);
			same = text.len == reference.len && memcmp(text.text, reference.text, text.len) == 0;
			if (!same)
				fprintf(stderr, "%s mode: the input from memory and from a file differ:\n--- memory (%zu bytes)\n%.*s\n--- file (%zu bytes)\n%.*s\n---\n",
					syntax ? "syntax" : "check", text.len,
					(int)(text.len > 6000 ? 6000 : text.len), text.text, reference.len,
					(int)(reference.len > 6000 ? 6000 : reference.len), reference.text);
			free(text.text);
		}
		for (int level = 0; level < FAST_SCAN_LEVELS && same; level++) {
			if (!fast_scan_available((enum fast_scan)level))
				continue;
			fast_scan_force((enum fast_scan)level);
			for (int ahead = 0; ahead <= 1 && same; ahead++) {
				struct fuzz_out fast;

				fuzz_run_paths(data, size, mode, syntax, false, ahead, ahead && !mode->pipe, &fast);
				same = fast.len == reference.len && memcmp(fast.text, reference.text, fast.len) == 0;
				if (!same)
					fprintf(stderr, "%s mode, scanning level %d%s: the fast paths and the reference differ:\n--- fast (%zu bytes)\n%.*s\n--- reference (%zu bytes)\n%.*s\n---\n",
						syntax ? "syntax" : "check", level, ahead ? ", read ahead" : "",
						fast.len, (int)(fast.len > 6000 ? 6000 : fast.len), fast.text,
						reference.len, (int)(reference.len > 6000 ? 6000 : reference.len), reference.text);
				free(fast.text);
				if (size <= 128 * 1024)
					break; /* no second thread for a single chunk */
			}
		}
		fast_scan_force(FAST_SCAN_LEVELS);
		free(reference.text);
	}
	return same;
}

#endif
