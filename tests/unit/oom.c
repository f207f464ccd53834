/*
 * oom.c - unit test of the library's failure path (src/util/util.h, guards):
 * every allocation of a compilation is made to fail in turn (the test hook
 * nvtxt_test_fail_alloc_after), and each time nvtxt_compile must return 2
 * with io_errno ENOMEM, or succeed with exactly the diagnostics of a run
 * without failures.  Inputs: text in memory and a file, with syntax errors,
 * notes, fix-its, suppression comments, a category cycle, an unclosed range and a line longer
 * than a reader chunk (flex's buffer grows).  Under `make check-sanitize`,
 * LeakSanitizer fails the test if a failure leaks memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "nvtxt/emit_nvtxt.h"
#include "tap.h"
#include "util.h"

static const char base_text[] =
	"# variables, definitions, every kind of diagnostic\n"
	"TimeBase = Manual\n"
	"ProcessId = 1\n"
	"@RangePush, Time, ThreadId, Message\n"
	"RangePush, 10, 2, \"outer\"\n"
	"RangePush, 20, 2, 'inner'\n"
	"RangePop, 30, 2\n"
	"Markr, 40, 2, x\n"
	"Marker, $Tme, 2, x\n"
	"NameCategory, 1, \"one\"\n"
	"AddChildCategory, 1, 2\n"
	"AddChildCategory, 2, 1\n"
	"NameOsThread, 2, \"a\"\n"
	"# nvtxtc-disable-next-line renam, arity, nvtxtc-x\n"
	"NameOsThread, 2, \"b\"\n"
	"# nvtxtc-disable-next-line unclosed-range\n"
	"NameOsThread, 2, \"c\"\n"
	"Marker, 50, 2, \"unterminated\n"
	"= 3\n"
	"Marker, 60, 2, \"ok\", , 7\n";

/* every line through flex and bison and every call through the full checks */
static bool no_fast_paths;

struct outcome {
	int status;
	struct nvtxt_compile_result res;
	char *diags;
	size_t diags_len;
	char *events;
	size_t events_len;
};

static void compile_once(const char *text, size_t len, const char *path, bool read_ahead,
			 struct outcome *o)
{
	struct nvtxt_diag_config cfg;
	FILE *dout = open_memstream(&o->diags, &o->diags_len);
	FILE *eout = open_memstream(&o->events, &o->events_len);
	struct nvtxt_text_printer printer = { .out = dout };
	struct nvtxt_emit_nvtxt *w = nvtxt_emit_nvtxt_new(eout);
	struct nvtxt_backend be = nvtxt_emit_nvtxt_backend(w);
	struct nvtxt_compile_options opt = {
		.display_name = "oom.nvtxt",
		.fd = -1,
		.text = text,
		.text_len = len,
		.diag_config = &cfg,
		.sink = { &printer, nvtxt_text_printer_report },
		.backend = &be,
		.read_ahead = read_ahead,
		.no_fast_paths = no_fast_paths,
	};

	nvtxt_diag_config_init(&cfg);
	if (path) {
		opt.text = NULL;
		opt.fd = open(path, O_RDONLY);
	}
	o->status = nvtxt_compile(&opt, &o->res);
	nvtxt_emit_nvtxt_free(w);
	if (path)
		close(opt.fd);
	fclose(dout);
	fclose(eout);
}

static void outcome_free(struct outcome *o)
{
	free(o->diags);
	free(o->events);
}

/* Fails every allocation in turn; returns how many were tried. */
static unsigned long fail_each(const char *what, const char *text, size_t len, const char *path,
			       bool read_ahead)
{
	struct outcome want, got;
	unsigned long total, n, wrong = 0, succeeded = 0;

	nvtxt_test_fail_alloc_after(-1);
	compile_once(text, len, path, read_ahead, &want);
	total = nvtxt_test_fail_alloc_after(-1);
	tap_ok(want.status == 1 && want.res.errors > 0 && want.res.warnings > 0,
	       "%s: the reference run reports errors and warnings (%lu allocations)", what, total);
	for (n = 0; n <= total; n++) {
		nvtxt_test_fail_alloc_after((long)n);
		compile_once(text, len, path, read_ahead, &got);
		nvtxt_test_fail_alloc_after(-1);
		if (got.status == 2) {
			if (got.res.io_errno != ENOMEM) {
				if (wrong++ < 3)
					printf("# allocation %lu: status 2 with errno %d\n", n, got.res.io_errno);
			}
		} else {
			/* past the last allocation: the same run as the reference */
			succeeded++;
			if (got.status != want.status || got.diags_len != want.diags_len ||
			    memcmp(got.diags, want.diags, want.diags_len) != 0 ||
			    got.events_len != want.events_len ||
			    memcmp(got.events, want.events, want.events_len) != 0) {
				if (wrong++ < 3)
					printf("# allocation %lu: status %d, output differs from the reference\n",
					       n, got.status);
			}
		}
		outcome_free(&got);
	}
	tap_ok(wrong == 0, "%s: each of %lu allocations failing returns ENOMEM (%lu wrong)", what, total,
	       wrong);
	tap_ok(succeeded >= 1, "%s: with no allocation failing the run completes", what);
	outcome_free(&want);
	return total;
}

int main(void)
{
	size_t base = sizeof(base_text) - 1, long_len = 200000;
	char *text = malloc(base + long_len + 64);
	char path[] = "/tmp/nvtxt-oom-XXXXXX";
	int fd;

	if (!text)
		return 1;
	memcpy(text, base_text, base);
	fail_each("text in memory", text, base, NULL, false);
	no_fast_paths = true;
	fail_each("text in memory, no fast paths", text, base, NULL, false);
	no_fast_paths = false;

	/* a call with a string longer than a chunk: a slow line, flex's buffer grows */
	{
		size_t n = base;
		memcpy(text + n, "Marker, 70, 2, \"", 16);
		n += 16;
		memset(text + n, 'm', long_len);
		n += long_len;
		memcpy(text + n, "\"\nRangePush, 80, 3\n", 20);
		n += 19;
		fail_each("a long line, read ahead", text, n, NULL, true);

		fd = mkstemp(path);
		tap_ok(fd >= 0 && write(fd, text, n) == (ssize_t)n, "wrote the input to %s", path);
		close(fd);
		fail_each("a file", NULL, 0, path, false);
		unlink(path);
	}
	free(text);
	return tap_done();
}
