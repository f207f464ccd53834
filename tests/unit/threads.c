/*
 * threads.c - unit test: compilations run at once in several threads
 * (libnvtxt(3), ATTRIBUTES: no global mutable state).  Each thread
 * compiles texts in memory (with read-ahead or without) many times, with
 * its own sink and normal-form writer, and every run must print exactly
 * what the same compilation printed alone in the main thread.  Under
 * `make check-sanitize` AddressSanitizer watches the threads' memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/nvtxt.h"
#include "tap.h"

static const char *const texts[] = {
	"TimeBase = Manual\nProcessId = 1\n@RangePush, Time, ThreadId, Message\n"
	"RangePush, 10, 2, \"a\"\nRangePush, 20, 3, 'b'\nRangePop, 30, 2\nMarkr, 1, 2\n"
	"NameCategory, 1, \"one\"\nAddChildCategory, 1, 2\nAddChildCategory, 2, 1\n",
	"Marker, 1, Qpc, 1, 2, 3, Red, \"m\", 7\nMarker, 2, Qpc, 1, 2,,, \"x\n"
	"# nvtxtc-disable-next-line rename\nNameOsThread, 1, 2, \"t\"\nNameOsThread, 1, 2, \"u\"\n"
	"RangeStartEnd, 5, 9, Rdtsc, 1, 2, , Blue, $Undefined, 1\n",
};
enum { NTEXTS = sizeof texts / sizeof texts[0], THREADS = 4, ROUNDS = 10 };

/* Compiles texts[i] (repeated to make it longer) and returns diagnostics + events + status. */
static char *compile_text(size_t i, bool read_ahead)
{
	char *out = NULL, *text;
	size_t len = 0, one = strlen(texts[i]), copies = 300;
	FILE *f = open_memstream(&out, &len);
	struct nvtxt_diag_config cfg;
	struct nvtxt_text_printer printer = { .out = f };
	struct nvtxt_emit_nvtxt *w = nvtxt_emit_nvtxt_new(f);
	struct nvtxt_backend be = nvtxt_emit_nvtxt_backend(w);
	struct nvtxt_compile_result res;
	struct nvtxt_compile_options opt = {
		.display_name = "thread.nvtxt",
		.fd = -1,
		.diag_config = &cfg,
		.sink = { &printer, nvtxt_text_printer_report },
		.backend = &be,
		.read_ahead = read_ahead,
	};
	int status;

	text = malloc(one * copies);
	if (!f || !w || !text)
		abort();
	for (size_t k = 0; k < copies; k++)
		memcpy(text + k * one, texts[i], one);
	opt.text = text;
	opt.text_len = one * copies;
	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 0;
	status = nvtxt_compile(&opt, &res);
	nvtxt_emit_nvtxt_free(w);
	fprintf(f, "status %d errors %lu warnings %lu lines %lu\n", status, res.errors, res.warnings,
		res.lines);
	fclose(f);
	free(text);
	return out;
}

static char *reference[NTEXTS];

struct worker {
	int id;
	int mismatches;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	for (int r = 0; r < ROUNDS; r++) {
		size_t i = (size_t)(w->id + r) % NTEXTS;
		char *got = compile_text(i, (w->id + r) % 3 == 0);
		if (strcmp(got, reference[i]) != 0)
			w->mismatches++;
		free(got);
	}
	return NULL;
}

int main(void)
{
	pthread_t tid[THREADS];
	struct worker w[THREADS];
	int started = 0, mismatches = 0;

	for (size_t i = 0; i < NTEXTS; i++)
		reference[i] = compile_text(i, false);
	tap_ok(strstr(reference[0], "error:") && strstr(reference[1], "warning:"),
	       "the reference runs report errors and warnings");
	for (int t = 0; t < THREADS; t++) {
		w[t] = (struct worker){ t, 0 };
		if (pthread_create(&tid[t], NULL, work, &w[t]) == 0)
			started++;
	}
	tap_ok(started == THREADS, "%d threads started", started);
	for (int t = 0; t < started; t++) {
		pthread_join(tid[t], NULL);
		mismatches += w[t].mismatches;
	}
	tap_ok(mismatches == 0, "%d threads x %d compilations at once print what each prints alone (%d differ)",
	       THREADS, ROUNDS, mismatches);
	for (size_t i = 0; i < NTEXTS; i++)
		free(reference[i]);
	return tap_done();
}
