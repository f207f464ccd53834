/*
 * diag_json.c - the run's diagnostics as one JSON document, the schema of
 * nvtxtc(1), JSON DIAGNOSTICS ("schema_version": 1).  Written with
 * jansson: every string is escaped by the library.
 */
#include <string.h>

#include "diag_report.h"
#include "report_json.h"

enum { JSON_SCHEMA_VERSION = 1 };

/* {"line": L, "column": C, "column_utf16": U or null} */
static json_t *position(uint32_t line, uint32_t col, uint32_t col16)
{
	return json_pack("{s:I, s:I, s:o}", "line", (json_int_t)line, "column", (json_int_t)col,
			 "column_utf16", col16 ? json_integer(col16) : json_null());
}

/* {"start": POSITION, "end": POSITION} (end exclusive), or null for no place. */
static json_t *range(const struct nvtxt_report_loc *l)
{
	if (!l->line)
		return json_null();
	return json_pack("{s:o, s:o}", "start", position(l->line, l->col, l->col16),
			 "end", position(l->line, l->end_col, l->end_col16));
}

static json_t *diagnostic(const struct nvtxt_report_diag *d)
{
	const struct nvtxt_check *c = nvtxt_check_get(d->check);
	json_t *notes = json_array(), *fixits = json_array();
	json_t *j;

	for (size_t i = 0; i < d->nnotes; i++)
		json_array_append_new(notes, json_pack("{s:o, s:o}", "message",
						       report_json_string(d->notes[i].message), "range",
						       range(&d->notes[i].loc)));
	if (d->fixit && d->loc.line)
		json_array_append_new(fixits, json_pack("{s:o, s:o}", "range", range(&d->loc),
							"replacement", report_json_string(d->fixit)));
	j = json_pack("{s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:b}", "check", c->name, "severity",
		      report_severity_name(d->severity), "promoted", d->promoted, "message",
		      report_json_string(d->message), "range", range(&d->loc), "notes", notes, "fixits",
		      fixits, "fixable", c->fixable && d->fixit && d->loc.line);
	return j;
}

static json_t *fix(const struct nvtxt_report_fix *x)
{
	return json_pack("{s:s, s:o, s:o, s:o}", "check", nvtxt_check_get(x->check)->name, "range",
			 range(&x->loc), "original",
			 x->original ? report_json_string(x->original) : json_null(), "replacement",
			 report_json_string(x->replacement));
}

int nvtxt_report_write_json(const struct nvtxt_report *r, const struct nvtxt_report_run *run, FILE *out)
{
	json_t *files = json_array(), *messages = json_array();
	unsigned long errors = 0, warnings = 0;

	for (size_t i = 0; i < r->nfiles; i++) {
		const struct nvtxt_report_file *f = &r->files[i];
		json_t *diags = json_array(), *fixed = json_array();
		for (size_t k = 0; k < f->ndiags; k++)
			json_array_append_new(diags, diagnostic(&f->diags[k]));
		for (size_t k = 0; k < f->nfixes; k++)
			json_array_append_new(fixed, fix(&f->fixes[k]));
		json_array_append_new(files, json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I}", "file",
						       report_json_string(f->name), "diagnostics", diags,
						       "fixed", fixed, "errors", (json_int_t)f->errors,
						       "warnings", (json_int_t)f->warnings, "hidden_errors",
						       (json_int_t)f->hidden_errors, "hidden_warnings",
						       (json_int_t)f->hidden_warnings));
		errors += f->errors;
		warnings += f->warnings;
	}
	for (size_t i = 0; i < r->nrun_diags; i++)
		json_array_append_new(messages, diagnostic(&r->run_diags[i]));
	return report_json_dump(json_pack("{s:i, s:{s:s, s:s}, s:o, s:o, s:I, s:I, s:i}",
					  "schema_version", JSON_SCHEMA_VERSION, "tool", "name", "nvtxtc",
					  "version", run->tool_version, "files", files, "messages",
					  messages, "errors", (json_int_t)errors, "warnings",
					  (json_int_t)warnings, "exit_status", run->exit_status),
				out);
}
