/*
 * report_json.h - helpers that the JSON and SARIF writers share (private to
 * src/diag: diag_report.c, diag_json.c, diag_sarif.c).
 */
#ifndef NVTXT_REPORT_JSON_H
#define NVTXT_REPORT_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "nvtxt/checks.h"

/*
 * A JSON string of the NUL-terminated bytes s; each byte that does not
 * start a well-formed UTF-8 sequence becomes U+FFFD.  New reference, or
 * NULL when memory ran out (jansson's setters accept NULL and fail).
 */
json_t *report_json_string(const char *s);
/* Writes doc (a new reference, released here; NULL: fails) indented, and a line break. 0 or -1. */
int report_json_dump(json_t *doc, FILE *out);
/* "error", "warning" or "note". */
const char *report_severity_name(enum nvtxt_severity sev);

#endif
