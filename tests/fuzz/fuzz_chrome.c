/*
 * fuzz_chrome.c - libFuzzer target for the Chrome Trace Event back end,
 * the time conversion and the info collector (--emit=chrome,
 * --time-conversion, nvtxtc info).
 *
 * An input whose first line is "#conv RULE" has RULE parsed as a
 * --time-conversion argument (parsing must never crash; a valid rule is
 * used); the whole input is compiled with the chrome back end and again
 * with the info collector.  Properties: when the file has no errors and
 * every time converted, the export is one JSON object that jansson parses,
 * with a traceEvents array holding at least one event for each Marker,
 * RangePush (its range: an X, or a B and an E) and RangeStartEnd, and its
 * B and E events balanced on every (pid, tid) (a push left open at end of
 * file gets its range too); the info report builds and prints.  Aborts
 * otherwise.
 */
#include "fuzz_common.h"

#include <jansson.h>

#include "emit_chrome.h"
#include "info.h"
#include "timeconv.h"

static size_t timed_events;

/*
 * True when every thread's E events close its B events: never more E than
 * B so far, none left open at the end (a linear list of threads: fuzz
 * inputs are small).
 */
static bool balanced(json_t *events)
{
	struct open { json_int_t pid, tid; long depth; } *open = NULL;
	size_t n = 0, i, k;
	bool ok = true;
	json_t *e;

	json_array_foreach(events, i, e) {
		const char *ph = json_string_value(json_object_get(e, "ph"));
		json_int_t pid = json_integer_value(json_object_get(e, "pid"));
		json_int_t tid = json_integer_value(json_object_get(e, "tid"));

		if (!ph || (strcmp(ph, "B") != 0 && strcmp(ph, "E") != 0))
			continue;
		for (k = 0; k < n && (open[k].pid != pid || open[k].tid != tid); k++)
			;
		if (k == n) {
			struct open *grown = realloc(open, (n + 1) * sizeof *open);
			if (!grown)
				fuzz_die("realloc");
			open = grown;
			open[n++] = (struct open){ pid, tid, 0 };
		}
		open[k].depth += ph[0] == 'B' ? 1 : -1;
		ok = ok && open[k].depth >= 0;
	}
	for (k = 0; k < n; k++)
		ok = ok && open[k].depth == 0;
	free(open);
	return ok;
}

static int count_event(void *user, const struct nvtxt_event *ev)
{
	(void)user;
	timed_events += ev->command <= NVTXT_CMD_RANGE_START_END && ev->command != NVTXT_CMD_RANGE_POP;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvtxt_tconv tc;
	struct nvtxt_diag_config cfg;
	struct nvtxt_compile_options co = {
		.display_name = "fuzz.nvtxt",
		.diag_config = &cfg,
		.sink = { &fuzz_printer, nvtxt_text_printer_report },
	};
	struct nvtxt_compile_result res;
	struct nvtxt_backend be, counter = { .event = count_event };
	struct nvtxt_chrome *c;
	struct nvtxt_info *info;
	struct fuzz_out o;
	FILE *mem;
	int status;

	nvtxt_diag_config_init(&cfg);
	nvtxt_tconv_init(&tc);
	if (size > 6 && memcmp(data, "#conv ", 6) == 0) {
		char rule[128], err[320];
		size_t n = 0;
		while (6 + n < size && n < sizeof rule - 1 && data[6 + n] != '\n')
			rule[n] = (char)data[6 + n], n++;
		rule[n] = '\0';
		nvtxt_tconv_parse(&tc, rule, err, sizeof err);
	}

	/* the export */
	co.fd = fuzz_input_fd(data, size, false);
	mem = fuzz_output(&o);
	c = nvtxt_chrome_new(mem, &tc);
	be = nvtxt_chrome_backend(c);
	co.backend = &be;
	status = nvtxt_compile(&co, &res);
	if (fclose(mem) != 0)
		fuzz_die("fclose(memstream)");
	if (status == 0 && nvtxt_chrome_errors(c) == 0) {
		json_error_t jerr;
		json_t *doc = json_loadb(o.text, o.len, 0, &jerr);
		json_t *events = json_object_get(doc, "traceEvents");

		timed_events = 0;
		co.fd = fuzz_input_fd(data, size, false);
		co.backend = &counter;
		nvtxt_compile(&co, &res);
		if (!doc || !json_is_array(events) || json_array_size(events) < timed_events || !balanced(events)) {
			fprintf(stderr, "export is not a trace (%s, %zu events for %zu calls, B/E %s):\n%.*s\n",
				doc ? "JSON" : jerr.text, json_array_size(events), timed_events,
				doc && balanced(events) ? "balanced" : "not balanced",
				(int)(o.len > 4000 ? 4000 : o.len), o.text);
			abort();
		}
		json_decref(doc);
	} else if (status == 2 && nvtxt_chrome_errors(c) == 0) {
		fprintf(stderr, "export failed without a reason (errno %d)\n", res.io_errno);
		abort();
	}
	nvtxt_chrome_free(c);
	free(o.text);

	/* info */
	info = nvtxt_info_new(&tc);
	be = nvtxt_info_backend(info);
	co.fd = fuzz_input_fd(data, size, false);
	co.backend = &be;
	nvtxt_compile(&co, &res);
	if (nvtxt_info_print(info, "fuzz.nvtxt", fuzz_null) != 0) {
		fprintf(stderr, "info could not print\n");
		abort();
	}
	nvtxt_info_free(info);
	return 0;
}
