/*
 * diag_sarif.c - the run's diagnostics as one SARIF 2.1.0 log (OASIS
 * "Static Analysis Results Interchange Format Version 2.1.0"; section
 * numbers below are that standard's).  Written with jansson.
 *
 * One run (3.14): tool.driver with every check of the registry as a rule
 * (3.19.23, 3.49), one artifact per input (3.24), one result per
 * diagnostic (3.27), notes as relatedLocations (3.27.22), fix-its as fixes
 * (3.55), an invocation with the exit status (3.20), messages about no
 * input as its toolExecutionNotifications (3.20.21), and columnKind
 * utf16CodeUnits (3.14.26): columns count UTF-16 code units.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag_report.h"
#include "report_json.h"

/* The text of b as a malloc'd string (free() it); b is released (its memory is a temporary, util.h). */
static char *own(struct buf *b)
{
	char *s = xstrndup(b->ptr ? b->ptr : "", b->len);
	buf_free(b);
	return s;
}

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "SRCROOT"

/* Appends s percent-encoded as a URI path (RFC 3986: unreserved characters and '/' stay). */
static void add_uri_path(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || strchr("-._~/", *p))
			buf_addc(b, (char)*p);
		else
			buf_printf(b, "%%%02X", *p);
	}
}

/* file:///the/working/directory/ (with the final slash of a directory, 3.14.14). */
static char *cwd_uri(void)
{
	char dir[PATH_MAX];
	struct buf b = { 0 };

	buf_adds(&b, "file://");
	if (getcwd(dir, sizeof dir))
		add_uri_path(&b, dir);
	else
		buf_adds(&b, "/");
	if (b.ptr[b.len - 1] != '/')
		buf_addc(&b, '/');
	return own(&b);
}

/*
 * The artifactLocation (3.4) of input `name`: a path relative to the
 * working directory, as given, is a relative URI against SRCROOT; an
 * absolute path is a file:// URI of its own.  "./" prefixes are dropped;
 * a path that climbs out of the directory ("../") is made absolute.
 */
static json_t *artifact_location(const char *name, size_t index)
{
	struct buf b = { 0 };
	json_t *j;

	while (name[0] == '.' && name[1] == '/')
		name += 2;
	if (name[0] == '/' || strncmp(name, "../", 3) == 0) {
		char *cwd = name[0] == '/' ? NULL : cwd_uri();
		buf_adds(&b, cwd ? cwd : "file://");
		add_uri_path(&b, name);
		free(cwd);
		j = json_pack("{s:s, s:I}", "uri", b.ptr, "index", (json_int_t)index);
	} else {
		add_uri_path(&b, name);
		j = json_pack("{s:s, s:s, s:I}", "uri", b.ptr, "uriBaseId", SRCROOT, "index", (json_int_t)index);
	}
	buf_free(&b);
	return j;
}

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

static json_t *rule(enum nvtxt_check_id id)
{
	const struct nvtxt_check *c = nvtxt_check_get(id);
	bool error = c->severity == NVTXT_SEV_ERROR;
	struct buf where = { 0 };
	char *name = pascal_name(c->name);
	char *shortd = sentence("%s.", c->description);
	char *full, *help;
	json_t *j;

	section_ref(&where, c->section);
	full = sentence("%s: the rule of %s.%s", c->description, where.ptr,
			c->fixable ? " Its fix-its are unambiguous: nvtxtc --fix applies them." : "");
	if (error)
		help = sentence("%s. The rule is in %s. An error: it cannot be disabled or suppressed.",
				c->description, where.ptr);
	else
		help = sentence("%s. The rule is in %s. A warning: disable it with -Wno-%s, make it an error "
				"with -Werror=%s, or silence one line with a comment "
				"'# nvtxtc-disable-next-line %s' before it.",
				c->description, where.ptr, c->name, c->name, c->name);
	j = json_pack("{s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s, s:b}}", "id", c->name,
		      "shortDescription", "text", shortd, "fullDescription", "text", full,
		      "defaultConfiguration", "level", error ? "error" : "warning", "help", "text", help,
		      "properties", "section", where.ptr, "fixable", c->fixable);
	/* a name that only differs from the id by case is no name (3.49.7; the validator's SARIF1001) */
	if (strchr(c->name, '-'))
		json_object_set_new(j, "name", json_string(name));
	free(name);
	free(shortd);
	free(full);
	free(help);
	buf_free(&where);
	return j;
}

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

/* A physicalLocation (3.29): the artifact, the region and the whole line as its contextRegion. */
static json_t *physical_location(json_t *artifact, const struct nvtxt_report_loc *l)
{
	json_t *p = json_pack("{s:O}", "artifactLocation", artifact);

	if (l->line) {
		json_object_set_new(p, "region", region(l, true));
		if (l->line_text && l->col16)
			json_object_set_new(p, "contextRegion",
					    json_pack("{s:I, s:{s:o}}", "startLine", (json_int_t)l->line, "snippet",
						      "text", report_json_string(l->line_text)));
	}
	return p;
}

/*
 * A result (3.27) of the file whose artifactLocation is `artifact` (shared
 * by every result of the file; the level names are SARIF's, 3.27.10).
 */
static json_t *result(const struct nvtxt_report_diag *d, json_t *artifact)
{
	const struct nvtxt_check *c = nvtxt_check_get(d->check);
	json_t *r = json_pack("{s:s, s:i, s:s, s:o, s:[{s:o}]}", "ruleId", c->name, "ruleIndex",
			      (int)d->check, "level", report_severity_name(d->severity), "message", message(d->message),
			      "locations", "physicalLocation", physical_location(artifact, &d->loc));

	if (d->nnotes) {
		json_t *related = json_array();
		for (size_t i = 0; i < d->nnotes; i++) {
			json_t *loc = json_pack("{s:I, s:o}", "id", (json_int_t)i + 1, "message",
						message(d->notes[i].message));
			if (d->notes[i].loc.line)
				json_object_set_new(loc, "physicalLocation",
						    physical_location(artifact, &d->notes[i].loc));
			json_array_append_new(related, loc);
		}
		json_object_set_new(r, "relatedLocations", related);
	}
	if (d->fixit && d->loc.line && d->loc.col16 && d->loc.end_col16) {
		struct buf what = { 0 };
		buf_printf(&what, "Replace '%s' with '%s'", d->loc.snippet ? d->loc.snippet : "", d->fixit);
		json_object_set_new(
			r, "fixes",
			json_pack("[{s:o, s:[{s:o, s:[{s:o, s:{s:o}}]}]}]", "description", message(what.ptr),
				  "artifactChanges", "artifactLocation", json_incref(artifact),
				  "replacements", "deletedRegion", region(&d->loc, false), "insertedContent",
				  "text", report_json_string(d->fixit)));
		buf_free(&what);
	}
	if (d->promoted)
		json_object_set_new(r, "properties", json_pack("{s:b}", "promotedByWerror", 1));
	return r;
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
	char *cwd = cwd_uri();
	char *semver = semantic_version(run->tool_version);

	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		json_array_append_new(rules, rule((enum nvtxt_check_id)i));
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct nvtxt_report_file *f = &r->files[i];
		json_t *artifact = artifact_location(f->name, i), *loc = json_copy(artifact);
		json_object_del(loc, "index");
		json_array_append_new(artifacts, json_pack("{s:o, s:[s]}", "location", loc, "roles", "analysisTarget"));
		for (size_t k = 0; k < f->ndiags; k++)
			json_array_append_new(results, result(&f->diags[k], artifact));
		json_decref(artifact);
	}
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
	doc = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:[o], s:{s:{s:s}}, s:o, s:o, s:s}]}",
			"$schema", SARIF_SCHEMA, "version", "2.1.0", "runs", "tool", "driver", "name", "nvtxtc",
			"version", run->tool_version, "semanticVersion", semver, "rules", rules,
			"invocations", invocation, "originalUriBaseIds", SRCROOT, "uri", cwd, "artifacts",
			artifacts, "results", results, "columnKind", "utf16CodeUnits");
	free(cwd);
	free(semver);
	return report_json_dump(doc, out);
}
