/*
 * fuzz_report.c - libFuzzer target for the machine-readable diagnostics
 * (src/diag/diag_report.c, diag_json.c, diag_sarif.c) and the fix-its
 * that --fix applies: bytes -> nvtxt_compile in check mode with a struct
 * nvtxt_report as the sink (the mode picked from the input, as
 * fuzz_frontend), then the JSON and the SARIF document of the run.
 *
 * Properties: both documents parse back (jansson's json_loadb: valid JSON,
 * valid UTF-8, whatever bytes the input has); the JSON one has as many
 * diagnostics as the report; every fix-it of a fixable check locates bytes
 * of the input (line_offset + col - 1 + len within it) on one line, as
 * cmd_fix.c replaces them.  Aborts otherwise.
 */
#include "fuzz_common.h" /* first: it defines _GNU_SOURCE */

#include <jansson.h>

#include "diag_report.h"

struct both {
	struct nvtxt_report report;
	const uint8_t *data;
	size_t size;
};

static void sink(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct both *b = user;

	if (d->fixit && d->loc.line && nvtxt_check_get(d->check)->fixable) {
		size_t at = (size_t)d->loc.line_offset + d->loc.col - 1;
		if (!d->loc.col || at + d->loc.len > b->size ||
		    memchr(b->data + at, '\n', d->loc.len)) {
			fprintf(stderr, "a fix-it at %u:%u (+%u) is not on one line of the input\n",
				(unsigned)d->loc.line, (unsigned)d->loc.col, (unsigned)d->loc.len);
			abort();
		}
	}
	nvtxt_report_sink(&b->report, d, src);
}

static void parse_back(const char *what, int (*write)(const struct nvtxt_report *, const struct nvtxt_report_run *, FILE *),
		       const struct nvtxt_report *r, size_t want_diags)
{
	char *argv[] = { "nvtxtc", "lint", "fuzz.nvtxt", NULL };
	struct nvtxt_report_run run = { "0.1", 1, 3, argv };
	struct fuzz_out o;
	FILE *mem = fuzz_output(&o);
	json_error_t err;
	json_t *doc;

	if (write(r, &run, mem) != 0)
		fuzz_die("writing a document");
	if (fclose(mem) != 0)
		fuzz_die("fclose(memstream)");
	doc = json_loadb(o.text, o.len, 0, &err);
	if (!doc) {
		fprintf(stderr, "the %s document does not parse back: %s (line %d)\n", what, err.text, err.line);
		abort();
	}
	if (want_diags != (size_t)-1) {
		size_t n = 0, i;
		json_t *f;
		json_array_foreach(json_object_get(doc, "files"), i, f)
			n += json_array_size(json_object_get(f, "diagnostics"));
		if (n != want_diags) {
			fprintf(stderr, "the JSON document has %zu diagnostics, the report %zu\n", n, want_diags);
			abort();
		}
	}
	json_decref(doc);
	free(o.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_mode mode = fuzz_pick_mode(data, size);
	struct both b = { .data = data, .size = size };
	struct nvtxt_compile_options co = {
		.display_name = "fuzz \"dir\"/\xC3\xA9t\xC3\xA9.nvtxt",
		.diag_config = &mode.config,
		.sink = { &b, sink },
	};
	struct nvtxt_compile_result res;
	size_t n = 0;

	nvtxt_report_init(&b.report);
	co.fd = fuzz_input_fd(data, size, mode.pipe);
	nvtxt_compile(&co, &res);
	if (co.fd != fuzz_fd)
		close(co.fd);
	for (size_t i = 0; i < b.report.nfiles; i++)
		n += b.report.files[i].ndiags;
	parse_back("JSON", nvtxt_report_write_json, &b.report, n);
	parse_back("SARIF", nvtxt_report_write_sarif, &b.report, (size_t)-1);
	nvtxt_report_free(&b.report);
	return 0;
}
