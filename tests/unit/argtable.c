/*
 * argtable.c - the argument table (src/lang/args.def) against everything
 * that reads it: every argument x a table of tricky values, written
 * literally, through a $ variable and as a static argument, under TimeBase
 * Qpc and Relative.  For each case:
 *   - the full path (flex and bison, every call through the full checks:
 *     nvtxt_compile_options.no_fast_paths) and the fast paths give the
 *     same diagnostics (check and message) and the same normal form
 *     (--emit=nvtxt);
 *   - a value rejected by a conversion is reported with its row's
 *     expectation: "expected EXPECTED for NAME, found ...";
 *   - hover over the value (the language server, src/lsp/lsp_lang.c,
 *     in process) accepts exactly what lint accepts, names the check lint
 *     reports, and shows the value of the normal form (its ARGB for a
 *     Color, its name for a TimeBase).
 * Plus the table's own facts: names, time bases, documentation.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/checks.h"
#include "nvtxt/compile.h"
#include "nvtxt/emit_nvtxt.h"
#include "lang_args.h"
#include "lang_doc.h"
#include "lsp.h"
#include "tap.h"

/* The values, as written at the argument's place ("" is absent). */
static const char *const tricky[] = {
	"\"0x+1234567\"", "0x+1234567", "\"0x 1234567\"", "\"0x-1234567\"", "0x-1234567", "-0", "+5", "5",
	"\"5\"", "-1", "\"0x\"", "0x", "4294967295", "4294967296", "9223372036854775807",
	"9223372036854775808", "-9223372036854775808", "18446744073709551616", "0xFF0000FF", "0xff0000ff",
	"0XfF0000Ff", "\"0xFF0000FF\"", "\"0xff0000ff\"", "\"0XFF0000FF\"", "0xFF0000", "\"0xFF0000\"",
	"0x00FF0000", "#FF0000", "Red", "red", "RED", "LightBlue", "light blue", "\"Light Blue\"", "Qpc", "qpc",
	"\"Relative\"", "ClockMonotonicRaw", "Clock Monotonic Raw", "hello", "hello world", "\"\"", "'single'",
	"",
};

/* A command that has the argument, and a good value for each of its default arguments. */
struct shape {
	enum nvtxt_command cmd;
	const char *good[NVTXT_ARG_COUNT];
};

static const struct shape marker = { NVTXT_CMD_MARKER, { "1", "Qpc", "1", "2", "3", "Blue", "m", "5" } };
static const struct shape start_end = { NVTXT_CMD_RANGE_START_END,
					{ "0", "9223372036854775807", "Qpc", "1", "2", "3", "Blue", "m", "5" } };
static const struct shape name_process = { NVTXT_CMD_NAME_PROCESS, { "1", "n" } };
static const struct shape add_child = { NVTXT_CMD_ADD_CHILD_CATEGORY, { "1", "7" } };

static const struct shape *shape_of(enum nvtxt_arg arg)
{
	switch (arg) {
	case NVTXT_ARG_START:
	case NVTXT_ARG_END:
		return &start_end;
	case NVTXT_ARG_NAME:
		return &name_process;
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		return &add_child;
	default:
		return &marker;
	}
}

enum form { LITERAL, DOLLAR, STATIC };
static const char *const form_name[] = { "literal", "$V", "static" };

/* One case's text, and where the value (or $V) is: line (0-based) and column. */
struct doc {
	char text[1024];
	unsigned line, col;
};

static void make_doc(struct doc *d, enum nvtxt_arg arg, const char *value, enum form form, bool relative)
{
	const struct shape *sh = shape_of(arg);
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(sh->cmd, args), len = 0;
	char *t = d->text;

	d->line = 0;
	if (form == DOLLAR) {
		len += (size_t)sprintf(t + len, "V = %s\n", value);
		d->line = 1;
	} else if (form == STATIC) {
		len += (size_t)sprintf(t + len, "%s = %s\n@%s", nvtxt_arg_name(arg), value, nvtxt_command_name(sh->cmd));
		for (size_t i = 0; i < n; i++)
			if (args[i] != arg)
				len += (size_t)sprintf(t + len, ", %s", nvtxt_arg_name(args[i]));
		len += (size_t)sprintf(t + len, "\n");
		d->line = 2;
	}
	len += (size_t)sprintf(t + len, "%s", nvtxt_command_name(sh->cmd));
	d->col = 0;
	for (size_t i = 0; i < n; i++) {
		const char *v = sh->good[i];
		if (relative && args[i] == NVTXT_ARG_TIMEBASE)
			v = "Relative";
		if (relative && arg == NVTXT_ARG_END && args[i] == NVTXT_ARG_START)
			v = "-9223372036854775808";
		if (args[i] == arg && form == STATIC)
			continue;
		len += (size_t)sprintf(t + len, ", ");
		if (args[i] == arg) {
			size_t line_start = len;
			while (line_start && t[line_start - 1] != '\n')
				line_start--;
			d->col = (unsigned)(len - line_start);
			v = form == DOLLAR ? "$V" : value;
		}
		len += (size_t)sprintf(t + len, "%s", v);
	}
	sprintf(t + len, "\n");
}

/* --- lint: the full path and the fast paths ------------------------------- */

struct lint {
	char diags[2048];   /* "check: message\n" per diagnostic */
	char conv_check[64];/* the first conversion check (type-mismatch, ...), or "" */
	char conv_msg[512];
	char *out;          /* the normal form */
	size_t out_len;
	unsigned long errors;
};

static bool conversion_check(enum nvtxt_check_id id)
{
	return id == NVTXT_CHECK_TYPE_MISMATCH || id == NVTXT_CHECK_OUT_OF_RANGE || id == NVTXT_CHECK_INVALID_COLOR ||
	       id == NVTXT_CHECK_INVALID_TIMEBASE || id == NVTXT_CHECK_COLOR_ALPHA;
}

static void collect(void *user, const struct nvtxt_diag *dg, const struct nvtxt_source *src)
{
	struct lint *l = user;
	size_t len = strlen(l->diags);
	const char *name = nvtxt_check_get(dg->check)->name;

	(void)src;
	snprintf(l->diags + len, sizeof(l->diags) - len, "%u:%u %s: %s\n", (unsigned)dg->loc.line,
		 (unsigned)dg->loc.col, name, dg->message);
	if (!l->conv_check[0] && conversion_check(dg->check)) {
		snprintf(l->conv_check, sizeof(l->conv_check), "%s", name);
		snprintf(l->conv_msg, sizeof(l->conv_msg), "%s", dg->message);
	}
}

static void lint(const struct doc *d, bool fast, struct lint *l)
{
	FILE *mem;
	struct nvtxt_emit_nvtxt *w;
	struct nvtxt_backend be;
	struct nvtxt_diag_config config;
	struct nvtxt_compile_result res;
	struct nvtxt_compile_options co = {
		.display_name = "argtable.nvtxt",
		.fd = -1,
		.text = d->text,
		.text_len = strlen(d->text),
		.diag_config = &config,
		.sink = { l, collect },
		.no_fast_paths = !fast,
	};

	memset(l, 0, sizeof(*l));
	nvtxt_diag_config_init(&config);
	mem = open_memstream(&l->out, &l->out_len);
	w = nvtxt_emit_nvtxt_new(mem);
	if (!mem || !w)
		abort();
	be = nvtxt_emit_nvtxt_backend(w);
	co.backend = &be;
	nvtxt_compile(&co, &res);
	nvtxt_emit_nvtxt_free(w);
	fclose(mem);
	l->errors = res.errors;
}

/* Field `i` of the normal form's event line (the last line), unquoted, into out. */
static void nf_field(const struct lint *l, size_t i, char *out, size_t size)
{
	const char *p = l->out, *line = p;
	bool quoted = false;
	size_t k = 0, n = 0;

	out[0] = '\0';
	for (const char *q = p; *q; q++)
		if (q[0] == '\n' && q[1])
			line = q + 1;
	for (p = line; *p && *p != '\n'; p++) {
		if (*p == '"')
			quoted = !quoted;
		if (*p == ',' && !quoted) {
			if (k++ == i)
				break;
			n = 0;
			continue;
		}
		if (k == i && (n || *p != ' ') && *p != '"' && n + 1 < size)
			out[n++] = *p;
	}
	out[k >= i ? n : 0] = '\0';
}

/* --- hover ------------------------------------------------------------------ */

static struct lsp_server *server;
static char *lsp_out;
static size_t lsp_out_len, lsp_seen;
static FILE *lsp_mem;
static int next_id = 1;

static void lsp_send(json_t *msg)
{
	char *body = json_dumps(msg, JSON_COMPACT);
	char head[64];
	int k = snprintf(head, sizeof(head), "Content-Length: %zu\r\n\r\n", strlen(body));

	lsp_server_feed(server, head, (size_t)k);
	lsp_server_feed(server, body, strlen(body));
	free(body);
	json_decref(msg);
}

/* The answer to request `id` among the messages written since the last call (new reference), or NULL. */
static json_t *answer(int id)
{
	json_t *found = NULL;

	fflush(lsp_mem);
	while (lsp_seen < lsp_out_len) {
		const char *h = lsp_out + lsp_seen, *body = strstr(h, "\r\n\r\n");
		size_t n = strtoul(h + strlen("Content-Length: "), NULL, 10);
		json_t *j = body ? json_loadb(body + 4, n, 0, NULL) : NULL;

		if (!body)
			break;
		lsp_seen = (size_t)(body + 4 - lsp_out) + n;
		if (j && json_integer_value(json_object_get(j, "id")) == id && json_object_get(j, "result") && !found)
			found = json_incref(json_object_get(j, "result"));
		json_decref(j);
	}
	return found;
}

/* The hover text over d's value (malloc'd; "" when none). */
static char *hover(const struct doc *d)
{
	char uri[64];
	int id = next_id++;
	json_t *r;
	const char *text;
	char *copy;

	snprintf(uri, sizeof(uri), "file:///argtable/%d.nvtxt", id);
	lsp_send(json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method", "textDocument/didOpen", "params",
		       "textDocument", "uri", uri, "languageId", "nvtxt", "version", 1, "text", d->text));
	lsp_send(json_pack("{s:s,s:i,s:s,s:{s:{s:s},s:{s:i,s:i}}}", "jsonrpc", "2.0", "id", id, "method",
		       "textDocument/hover", "params", "textDocument", "uri", uri, "position", "line", (int)d->line,
		       "character", (int)d->col));
	r = answer(id);
	text = json_string_value(json_object_get(json_object_get(r, "contents"), "value"));
	copy = strdup(text ? text : "");
	json_decref(r);
	lsp_send(json_pack("{s:s,s:s,s:{s:{s:s}}}", "jsonrpc", "2.0", "method", "textDocument/didClose", "params",
		       "textDocument", "uri", uri));
	return copy;
}

/* What the hover says of the value: rejected (and the check in [...] after "Not valid"), the check of a warning, the value. */
struct hover_says {
	bool rejected;
	char check[64];
	char value[256];
};

static void between(const char *p, const char *open, const char *close, char *out, size_t size)
{
	const char *a = p ? strstr(p, open) : NULL, *b;

	out[0] = '\0';
	if (!a)
		return;
	a += strlen(open);
	b = strstr(a, close);
	if (b && (size_t)(b - a) < size) {
		memcpy(out, a, (size_t)(b - a));
		out[b - a] = '\0';
	}
}

static void read_hover(const char *h, enum nvtxt_arg arg, struct hover_says *hs)
{
	const char *value_part = strstr(h, "\n\n") ? strstr(h, "\n\n") + 2 : h;

	memset(hs, 0, sizeof(*hs));
	hs->rejected = strstr(h, "Not valid:") || strstr(h, "(invalid") || strstr(h, "undefined:");
	between(strstr(h, "Not valid:"), "[", "]", hs->check, sizeof(hs->check));
	if (!hs->check[0])
		between(strstr(h, "fully transparent"), "[", "]", hs->check, sizeof(hs->check));
	switch ((enum lang_conv)lang_args[arg].conv) {
	case LANG_CONV_COLOR:
		between(h, "ARGB `", "`", hs->value, sizeof(hs->value));
		break;
	case LANG_CONV_TIMEBASE:
		between(h, "Time base `", "`", hs->value, sizeof(hs->value));
		break;
	case LANG_CONV_STRING:
		between(value_part, "String \"", "\"", hs->value, sizeof(hs->value));
		break;
	default: {
		const char *p = value_part;
		while ((p = strstr(p, "Integer ")) && !(p[8] == '-' || (p[8] >= '0' && p[8] <= '9')))
			p++;
		if (p)
			sscanf(p + 8, "%255[-0-9]", hs->value);
		break;
	}
	}
}

/* --- the cases ---------------------------------------------------------------- */

static unsigned long cases, failures;

static void fail(const struct doc *d, const char *what, const char *a, const char *b)
{
	if (failures++ < 20)
		printf("# %s\n#   text: %s#   %s\n#   %s\n", what, d->text, a, b);
}

static void one_case(enum nvtxt_arg arg, const char *value, enum form form, bool relative)
{
	struct doc d;
	struct lint full, fast;
	const struct lang_arg *a = &lang_args[arg];
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(shape_of(arg)->cmd, args), at = 0;
	char field[256], want[640];

	make_doc(&d, arg, value, form, relative);
	cases++;
	lint(&d, false, &full);
	lint(&d, true, &fast);
	if (strcmp(full.diags, fast.diags) != 0)
		fail(&d, "the full and the fast path report differently", full.diags, fast.diags);
	if (full.out_len != fast.out_len || memcmp(full.out, fast.out, full.out_len) != 0)
		fail(&d, "the full and the fast path give different normal forms", full.out, fast.out);
	snprintf(want, sizeof(want), "expected %s for %s, found ", relative ? a->expected_relative : a->expected,
		 a->name);
	if (full.conv_check[0] && strcmp(full.conv_check, "color-alpha") != 0 &&
	    strncmp(full.conv_msg, want, strlen(want)) != 0)
		fail(&d, "the message does not say the row's expectation", full.conv_msg, want);
	while (at < n && args[at] != arg)
		at++;
	nf_field(&full, at + 1, field, sizeof(field)); /* field 0: the command */
	if (form != STATIC && value[0]) {
		char *h = hover(&d);
		struct hover_says hs;
		bool accepted = full.errors == 0;
		read_hover(h, arg, &hs);
		if (hs.rejected == accepted || strcmp(hs.check, full.conv_check) != 0 ||
		    (accepted && strcmp(hs.value, field) != 0)) {
			char x[600], y[1200];
			snprintf(x, sizeof(x), "lint: %s, check '%s', value '%s'", accepted ? "accepted" : "rejected",
				 full.conv_check, field);
			snprintf(y, sizeof(y), "hover: %s, check '%s', value '%s' (%s)", hs.rejected ? "rejected" : "accepted",
				 hs.check, hs.value, h);
			fail(&d, "hover and lint disagree", x, y);
		}
		free(h);
	}
	free(full.out);
	free(fast.out);
}

/* The table's own facts. */
static void table_facts(void)
{
	char list[256] = "";
	bool names = true, docs = true;

	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 tb == 0 ? "" : tb + 1 == NVTXT_TB_COUNT ? " or " : ", ", nvtxt_timebase_name((enum nvtxt_timebase)tb));
	tap_is_str(LANG_TIMEBASE_LIST, list, "LANG_TIMEBASE_LIST names every time base of lang.c, in order");
	for (int i = 0; i < NVTXT_ARG_COUNT; i++) {
		const struct lang_arg *a = &lang_args[i];
		names &= a->name && nvtxt_arg_lookup(a->name, strlen(a->name)) == i &&
			 strcmp(nvtxt_arg_name((enum nvtxt_arg)i), a->name) == 0;
		docs &= lang_arg_doc((enum nvtxt_arg)i) == &a->doc && a->doc.type && a->doc.range && a->doc.meaning &&
			a->expected && a->expected_relative && a->min <= a->max;
	}
	tap_ok(names, "every row of args.def: its name looks up to its argument, both ways");
	tap_ok(docs, "every row of args.def: documentation, expectations and a range");
}

int main(void)
{
	const size_t nvalues = sizeof(tricky) / sizeof(tricky[0]);
	static const char init[] = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}";

	table_facts();
	lsp_mem = open_memstream(&lsp_out, &lsp_out_len);
	server = lsp_server_new(lsp_mem);
	lsp_send(json_loads(init, 0, NULL));
	lsp_send(json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method", "initialized", "params"));
	for (int arg = 0; arg < NVTXT_ARG_COUNT; arg++) {
		unsigned long before = failures;
		for (size_t i = 0; i < nvalues; i++)
			for (int form = LITERAL; form <= STATIC; form++)
				for (int rel = 0; rel < 2; rel++) {
					if (form != LITERAL && !tricky[i][0])
						continue; /* an absent value is only written in a call */
					if (rel && shape_of((enum nvtxt_arg)arg) != &marker &&
					    shape_of((enum nvtxt_arg)arg) != &start_end)
						continue;
					if (rel && arg == NVTXT_ARG_TIMEBASE)
						continue;
					one_case((enum nvtxt_arg)arg, tricky[i], (enum form)form, rel);
				}
		tap_ok(failures == before, "%s x %zu values (literal, $V, static; TimeBase Qpc and Relative): full path, "
		       "fast path, hover and normal form agree", nvtxt_arg_name((enum nvtxt_arg)arg), nvalues);
	}
	tap_ok(cases > 1000, "%lu cases in all (%lu disagree)", cases, failures);
	/* the drift of issue 21: strtoull's sign and blanks once gave these an ARGB meaning in hover */
	for (size_t i = 0; i < 3; i++) {
		static const char *const signed_hex[] = { "\"0x+1234567\"", "\"0x-1234567\"", "\"0x 1234567\"" };
		struct doc d;
		char *h;
		make_doc(&d, NVTXT_ARG_COLOR, signed_hex[i], LITERAL, false);
		h = hover(&d);
		tap_ok(!strstr(h, "ARGB `") && strstr(h, "[invalid-color]"),
		       "hover on the Color %s: no ARGB meaning, invalid-color as lint says", signed_hex[i]);
		free(h);
	}
	lsp_server_free(server);
	fclose(lsp_mem);
	free(lsp_out);
	printf("1..%d\n", tap_count);
	(void)form_name;
	return tap_failed != 0;
}
