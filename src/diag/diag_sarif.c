/*
 * diag_sarif.c - the run's diagnostics as one SARIF 2.1.0 log (OASIS
 * "Static Analysis Results Interchange Format Version 2.1.0"; section
 * numbers below are that standard's).  Written with jansson.
 *
 * One run (3.14): tool.driver with every check of the registry as a rule
 * (3.19.23, 3.49), one artifact per input of the command line (3.24), one
 * result per diagnostic (3.27) with a content-based fingerprint
 * (3.27.17), notes as relatedLocations (3.27.22), fix-its as fixes (3.55),
 * an invocation with the exit status (3.20), messages about no input as
 * its toolExecutionNotifications (3.20.21), and columnKind utf16CodeUnits
 * (3.14.26): columns count UTF-16 code units.  URIs: sarif_uri.h.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag_report.h"
#include "report_json.h"
#include "sarif_uri.h"

/* The text of b as a malloc'd string (free() it); b is released (its memory is a temporary, util.h). */
static char *own(struct buf *b)
{
	char *s = xstrndup(b->ptr ? b->ptr : "", b->len);
	buf_free(b);
	return s;
}

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "SRCROOT"
#define INFORMATION_URI "man:nvtxtc(1)"
/*
 * The key of nvtxtc's fingerprints, with the version of their function.
 * Not GitHub's primaryLocationLineHash: its upload action computes that
 * one itself for the files it can open, and warns for every result whose
 * given value differs from its own.
 */
#define FINGERPRINT_KEY "nvtxtc/v1"

/* "undefined-variable" -> "UndefinedVariable": the rule's name (3.49.7). */
static char *pascal_name(const char *id)
{
	struct buf b = { 0 };
	bool up = true;

	for (; *id; id++) {
		if (*id == '-') {
			up = true;
			continue;
		}
		buf_addc(&b, up ? (char)toupper((unsigned char)*id) : *id);
		up = false;
	}
	return own(&b);
}

/* A message object (3.11) of plain text: a sentence ending with a period (3.11.5). */
static json_t *message(const char *text)
{
	size_t n = strlen(text);
	json_t *s;

	if (n && strchr(".?!", text[n - 1])) {
		s = report_json_string(text);
	} else {
		char *t = xmalloc(n + 2);
		memcpy(t, text, n);
		t[n] = '.';
		t[n + 1] = '\0';
		s = report_json_string(t);
		free(t);
	}
	return json_pack("{s:o}", "text", s);
}

/* A sentence from a one-line description of the registry: capitalised, with a period. */
static char *sentence(const char *fmt, ...) NVTXT_PRINTF(1, 2);
static char *sentence(const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (b.ptr)
		b.ptr[0] = (char)toupper((unsigned char)b.ptr[0]);
	return own(&b);
}

/* Where a check's rule is written down: "nvtxt(5), COMMANDS" or the section as given when it names its page. */
static void section_ref(struct buf *b, const char *section)
{
	if (strchr(section, '('))
		buf_adds(b, section);
	else
		buf_printf(b, "nvtxt(5), %s", section);
}

/* Appends help text of the registry (`code` in backquotes) as plain text or as Markdown (CommonMark). */
static void add_help(struct buf *b, const char *s, bool markdown)
{
	bool code = false;

	while (*s) {
		size_t n = strcspn(s, markdown && !code ? "`\\*_[]<>" : "`");
		buf_add(b, s, n);
		s += n;
		if (!*s)
			break;
		if (*s == '`') {
			code = !code;
			if (markdown)
				buf_addc(b, '`');
		} else {
			buf_addc(b, '\\'); /* a Markdown special character outside code: escaped */
			buf_addc(b, *s);
		}
		s++;
	}
}

/*
 * The help of a rule (3.49.13), text or Markdown, from the registry: what
 * the check finds, what to do (its HELP column), where the rule is written
 * down, and how a warning is disabled or silenced.
 */
static char *help(const struct nvtxt_check *c, const char *where, bool markdown)
{
	struct buf b = { 0 }, line = { 0 };
	const char *sep = markdown ? "\n\n" : " ";
	bool error = c->severity == NVTXT_SEV_ERROR;
	char *first = sentence("%s.", c->description);

	buf_adds(&b, markdown ? "**" : "");
	add_help(&b, first, markdown);
	buf_adds(&b, markdown ? "**" : "");
	buf_adds(&b, sep);
	add_help(&b, c->help, markdown);
	buf_printf(&line, "%sThe rule is in %s (the manual pages of nvtxtc).", sep, where);
	add_help(&b, line.ptr, markdown);
	buf_free(&line);
	if (error) {
		buf_printf(&b, "%sAn error: it cannot be disabled or suppressed.", sep);
	} else {
		buf_printf(&line, "%sA warning: disable it with `-Wno-%s`, make it an error with `-Werror=%s`, or "
			   "silence one line with the comment `# nvtxtc-disable-next-line %s` on the line before it.",
			   sep, c->name, c->name, c->name);
		add_help(&b, line.ptr, markdown);
		buf_free(&line);
	}
	free(first);
	return own(&b);
}

/*
 * A rule (3.49) of the registry.  No helpUri (3.49.12): nvtxtc has no web
 * site, so the help text names the section of its manual pages instead.
 */
static json_t *rule(enum nvtxt_check_id id)
{
	const struct nvtxt_check *c = nvtxt_check_get(id);
	bool error = c->severity == NVTXT_SEV_ERROR;
	struct buf where = { 0 };
	char *name = pascal_name(c->name);
	char *shortd = sentence("%s.", c->description);
	char *full, *text, *md;
	json_t *j;

	section_ref(&where, c->section);
	full = sentence("%s: the rule of %s.%s", c->description, where.ptr,
			c->fixable ? " Its fix-its are unambiguous: nvtxtc --fix applies them." : "");
	text = help(c, where.ptr, false);
	md = help(c, where.ptr, true);
	j = json_pack("{s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:{s:s, s:b}}", "id", c->name,
		      "shortDescription", "text", shortd, "fullDescription", "text", full,
		      "defaultConfiguration", "level", error ? "error" : "warning", "help", "text", text,
		      "markdown", md, "properties", "section", where.ptr, "fixable", c->fixable);
	/* a name that only differs from the id by case is no name (3.49.7; the validator's SARIF1001) */
	if (strchr(c->name, '-'))
		json_object_set_new(j, "name", json_string(name));
	free(name);
	free(shortd);
	free(full);
	free(text);
	free(md);
	buf_free(&where);
	return j;
}

/* One input as the log names it: its artifactLocation (3.4), shared by every result of the file. */
struct artifact {
	json_t *loc;         /* {"uri", "uriBaseId"?, "index"}, or only {"index"} for unnamed stdin */
	bool unnamed;        /* standard input without --stdin-name: no file to name */
	long long size;      /* bytes; -1: unknown */
};

/* A region (3.30) in UTF-16 columns; only the line when the columns are unknown. */
static json_t *region(const struct nvtxt_report_loc *l, bool with_snippet)
{
	json_t *r = json_pack("{s:I}", "startLine", (json_int_t)l->line);

	if (l->col16 && l->end_col16) {
		json_object_set_new(r, "startColumn", json_integer(l->col16));
		json_object_set_new(r, "endLine", json_integer(l->line));
		json_object_set_new(r, "endColumn", json_integer(l->end_col16));
		if (with_snippet && l->snippet)
			json_object_set_new(r, "snippet", json_pack("{s:o}", "text", report_json_string(l->snippet)));
	}
	return r;
}

/*
 * A physicalLocation (3.29): the artifact, the region and the whole line
 * as its contextRegion.  A diagnostic about the file as a whole (no line)
 * spans its bytes (3.30.2: the byte-offset form, which a payload file
 * needs too), from 0 to its size, or an empty region at its start when
 * the size is unknown.
 */
static json_t *physical_location(const struct artifact *a, const struct nvtxt_report_loc *l)
{
	json_t *p = json_pack("{s:O}", "artifactLocation", a->loc);

	if (!l->line) {
		json_object_set_new(p, "region", json_pack("{s:i, s:I}", "byteOffset", 0, "byteLength",
							   (json_int_t)(a->size > 0 ? a->size : 0)));
		return p;
	}
	json_object_set_new(p, "region", region(l, true));
	if (l->line_text && l->col16)
		json_object_set_new(p, "contextRegion",
				    json_pack("{s:I, s:{s:o}}", "startLine", (json_int_t)l->line, "snippet",
					      "text", report_json_string(l->line_text)));
	return p;
}

/*
 * A location (3.28) in input a.  Standard input without --stdin-name is
 * no file: a logical location (3.33) named "standard input" instead of a
 * physical one, so that no file of the repository is claimed (GitHub's
 * rules, the validator's GH1017, refuse an artifactLocation without a
 * uri); the region it would have is in its properties.
 */
static json_t *location(const struct artifact *a, const struct nvtxt_report_loc *l, json_t *msg)
{
	json_t *j;

	if (!a->unnamed) {
		j = json_pack("{s:o}", "physicalLocation", physical_location(a, l));
	} else {
		j = json_pack("{s:[{s:s, s:s}]}", "logicalLocations", "name", "standard input", "kind", "resource");
		if (l->line)
			json_object_set_new(j, "properties", json_pack("{s:o}", "region", region(l, true)));
	}
	if (msg)
		json_object_set_new(j, "message", msg);
	return j;
}

/*
 * A result (3.27) of input a (the level names are SARIF's, 3.27.10), with
 * its fingerprint (see fingerprints).
 */
static json_t *result(const struct nvtxt_report_diag *d, const struct artifact *a, const char *fingerprint)
{
	const struct nvtxt_check *c = nvtxt_check_get(d->check);
	json_t *r = json_pack("{s:s, s:i, s:s, s:o, s:[o], s:{s:s}}", "ruleId", c->name, "ruleIndex",
			      (int)d->check, "level", report_severity_name(d->severity), "message", message(d->message),
			      "locations", location(a, &d->loc, NULL), "partialFingerprints", FINGERPRINT_KEY,
			      fingerprint);

	if (d->nnotes) {
		json_t *related = json_array();
		for (size_t i = 0; i < d->nnotes; i++) {
			const struct nvtxt_report_loc *nl = &d->notes[i].loc;
			json_t *loc = nl->line ? location(a, nl, message(d->notes[i].message))
					       : json_pack("{s:o}", "message", message(d->notes[i].message));
			json_object_set_new(loc, "id", json_integer((json_int_t)i + 1));
			json_array_append_new(related, loc);
		}
		json_object_set_new(r, "relatedLocations", related);
	}
	if (d->fixit && d->loc.line && d->loc.col16 && d->loc.end_col16) {
		struct buf what = { 0 };
		buf_printf(&what, "Replace '%s' with '%s'", d->loc.snippet ? d->loc.snippet : "", d->fixit);
		json_object_set_new(
			r, "fixes",
			json_pack("[{s:o, s:[{s:O, s:[{s:o, s:{s:o}}]}]}]", "description", message(what.ptr),
				  "artifactChanges", "artifactLocation", a->loc, "replacements", "deletedRegion",
				  region(&d->loc, false), "insertedContent", "text", report_json_string(d->fixit)));
		buf_free(&what);
	}
	if (d->promoted)
		json_object_set_new(r, "properties", json_pack("{s:b}", "promotedByWerror", 1));
	return r;
}

/* FNV-1a, 64 bits (Fowler, Noll and Vo; draft-eastlake-fnv), continued from h. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* s with each run of spaces, tabs and other ASCII white space made one space, none at either end. */
static char *collapse(const char *s)
{
	struct buf b = { 0 };
	bool space = false;

	for (; *s; s++) {
		if (strchr(" \t\r\n\v\f", *s)) {
			space = b.len > 0;
			continue;
		}
		if (space)
			buf_addc(&b, ' ');
		space = false;
		buf_addc(&b, *s);
	}
	return own(&b);
}

struct hashed {
	uint64_t hash;
	size_t index;
};

static int by_hash(const void *a, const void *b)
{
	const struct hashed *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The fingerprints of f's results (partialFingerprints, 3.27.17), stable
 * when lines are added or removed elsewhere in the file: "H:N", H the 16
 * hex digits of FNV-1a 64 of the rule id, a NUL byte and the text of the
 * result's line with white space collapsed (its message when the line is
 * unknown: a payload input, a line over 4096 bytes, the file as a whole),
 * N the occurrence of that hash among the file's results, from 1, in
 * their order.  An array of f->ndiags malloc'd strings.
 */
static char **fingerprints(const struct nvtxt_report_file *f)
{
	struct hashed *h = xcalloc(f->ndiags + 1, sizeof(*h));
	char **out = xcalloc(f->ndiags + 1, sizeof(*out));

	for (size_t k = 0; k < f->ndiags; k++) {
		const struct nvtxt_report_diag *d = &f->diags[k];
		const char *name = nvtxt_check_get(d->check)->name;
		char *text = collapse(d->loc.line_text ? d->loc.line_text : d->message);
		h[k].hash = fnv1a(fnv1a(0xcbf29ce484222325ULL, name, strlen(name) + 1), text, strlen(text));
		h[k].index = k;
		free(text);
	}
	qsort(h, f->ndiags, sizeof(*h), by_hash);
	for (size_t k = 0, n = 0; k < f->ndiags; k++) {
		struct buf b = { 0 };
		n = k && h[k].hash == h[k - 1].hash ? n + 1 : 1;
		buf_printf(&b, "%016llx:%zu", (unsigned long long)h[k].hash, n);
		out[h[k].index] = own(&b);
	}
	free(h);
	return out;
}

/* Input i's artifact (3.24) in artifacts[], and its results in results[]. */
static void add_input(const struct nvtxt_report_file *f, size_t i, const struct sarif_base *base,
		      json_t *artifacts, json_t *results)
{
	struct artifact a = { .unnamed = f->unnamed, .size = f->size };
	char **fp = fingerprints(f);

	if (f->unnamed) {
		a.loc = json_pack("{s:I}", "index", (json_int_t)i);
		json_array_append_new(artifacts,
				      json_pack("{s:{s:s}, s:[s]}", "description", "text",
						"Standard input, read without --stdin-name: no file.", "roles",
						"analysisTarget"));
	} else {
		bool relative;
		char *uri = sarif_uri(base, f->name, &relative);
		a.loc = relative ? json_pack("{s:s, s:s}", "uri", uri, "uriBaseId", SRCROOT)
				 : json_pack("{s:s}", "uri", uri);
		json_array_append_new(artifacts, json_pack("{s:O, s:[s]}", "location", a.loc, "roles",
							   "analysisTarget"));
		json_object_set_new(a.loc, "index", json_integer((json_int_t)i));
		free(uri);
	}
	for (size_t k = 0; k < f->ndiags; k++) {
		json_array_append_new(results, result(&f->diags[k], &a, fp[k]));
		free(fp[k]);
	}
	free(fp);
	json_decref(a.loc);
}

/* The version as SemVer 2.0.0 (3.19.5): "0.1" -> "0.1.0". */
static char *semantic_version(const char *v)
{
	struct buf b = { 0 };
	int dots = 0;

	for (const char *p = v; *p && *p != '-' && *p != '+'; p++)
		dots += *p == '.';
	buf_adds(&b, v);
	if (dots < 2) {
		size_t core = strcspn(v, "-+");
		b.len = 0;
		buf_add(&b, v, core);
		for (; dots < 2; dots++)
			buf_adds(&b, ".0");
		buf_adds(&b, v + core);
	}
	return own(&b);
}

int nvtxt_report_write_sarif(const struct nvtxt_report *r, const struct nvtxt_report_run *run, FILE *out)
{
	json_t *rules = json_array(), *artifacts = json_array(), *results = json_array();
	json_t *notifications = json_array(), *args = json_array(), *invocation, *doc;
	struct sarif_base base;
	char *cwd, *semver = semantic_version(run->tool_version);

	sarif_base_init(&base);
	cwd = sarif_base_uri(&base);
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		json_array_append_new(rules, rule((enum nvtxt_check_id)i));
	for (size_t i = 0; i < r->nfiles; i++)
		add_input(&r->files[i], i, &base, artifacts, results);
	for (size_t i = 0; i < r->nrun_diags; i++) {
		const struct nvtxt_report_diag *d = &r->run_diags[i];
		json_array_append_new(notifications,
				      json_pack("{s:s, s:o, s:{s:s, s:i}}", "level", report_severity_name(d->severity),
						"message", message(d->message), "associatedRule", "id",
						nvtxt_check_get(d->check)->name, "index", (int)d->check));
	}
	for (int i = 1; i < run->argc; i++)
		json_array_append_new(args, report_json_string(run->argv[i]));
	invocation = json_pack("{s:b, s:i, s:o, s:{s:s}}", "executionSuccessful", run->exit_status < 2,
			       "exitCode", run->exit_status, "arguments", args, "workingDirectory", "uri", cwd);
	if (json_array_size(notifications))
		json_object_set_new(invocation, "toolExecutionNotifications", notifications);
	else
		json_decref(notifications);
	/* informationUri (3.19.17): no web site; the manual page, as systemd's Documentation= names one */
	doc = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:s, s:o}}, s:[o], s:{s:{s:s}}, s:o, s:o, s:s}]}",
			"$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name", "nvtxtc",
			"version", run->tool_version, "semanticVersion", semver, "informationUri", INFORMATION_URI,
			"rules", rules, "invocations", invocation, "originalUriBaseIds", SRCROOT, "uri", cwd,
			"artifacts", artifacts, "results", results, "columnKind", "utf16CodeUnits");
	sarif_base_free(&base);
	free(cwd);
	free(semver);
	return report_json_dump(doc, out);
}
