/*
 * options.c - the command line of nvtxtc: the table of options, --help
 * (from it and from the tables of commands and back ends of main.c), and
 * parsing, with a suggestion for what was mistyped (an option, a -W name,
 * a command), spelt as the user must type it.
 *
 * Each option is a row of `option_specs[]`: the commands that accept it
 * (OPTC_*), its --help lines, and its letter or long name.  A letter may
 * have two rows for different commands: `-w` is gofmt's -i for fmt and
 * silences the warnings elsewhere; the row of the command wins.  An option
 * that the command does not accept is a usage error (nvtxtc(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver.h"
#include "stats.h"
#include "util.h"

#ifndef NVTXTC_VERSION
#define NVTXTC_VERSION "0.1"
#endif

enum {
	OPT_EMIT = 256,
	OPT_STDIN_NAME,
	OPT_MAX_ERRORS,
	OPT_COLOR,
	OPT_CHECK,
	OPT_LIST_CHECKS,
	OPT_STDIO,
	OPT_TIME_CONVERSION,
	OPT_FORMAT,
	OPT_DIAG_FORMAT,
	OPT_DIAG_OUTPUT,
	OPT_FIX,
	OPT_RECOVER,
	OPT_REPORT,
	OPT_TIMEUNIT,
	OPT_PROGRESS,
	OPT_NO_PROGRESS,
};

struct option_spec {
	int id;            /* the short option's letter, or OPT_* for a long-only one */
	const char *name;  /* the long name, or NULL */
	int has_arg;       /* no_argument, required_argument, optional_argument */
	unsigned cls;      /* OPTC_*: the subcommands that accept it */
	const char *shown; /* --help's left column; NULL: printed by print_options itself */
	const char *help;  /* --help's right column; lines after the first are indented */
	const char *values; /* what a suggestion may add after '=' ("a b c"), or NULL */
};

static const struct option_spec option_specs[] = {
	{ OPT_EMIT, "emit", required_argument, OPTC_EMIT, NULL, NULL, NULL },
	{ 'o', NULL, required_argument, OPTC_EMIT | OPTC_STATS, "-o FILE",
	  "write the output to FILE (atomically) instead of stdout;\n"
	  "'-o -' is standard output (for --emit=payload only a\n"
	  "seekable file: its header is written last)", NULL },
	{ OPT_TIME_CONVERSION, "time-conversion", required_argument, OPTC_TIME, "--time-conversion=RULE",
	  "convert the times of a time base to nanoseconds:\n"
	  "TIMEBASE:lin:NS_A,T_A,FREQ or\n"
	  "TIMEBASE:lerp:NS_A,T_A,NS_B,T_B (repeatable)", NULL },
	{ OPT_FORMAT, "format", required_argument, OPTC_INFO | OPTC_STATS, "--format=FORMAT",
	  "info: print text (default) or json; stats: column\n"
	  "(default), table, csv, tsv, json or html", "text json column table csv tsv html" },
	{ OPT_REPORT, "report", required_argument, OPTC_STATS, "--report=NAME",
	  "stats: nvtx_sum (default), nvtx_pushpop_sum,\n"
	  "nvtx_startend_sum or nvtx_pushpop_trace",
	  "nvtx_sum nvtx_pushpop_sum nvtx_startend_sum nvtx_pushpop_trace" },
	{ OPT_TIMEUNIT, "timeunit", required_argument, OPTC_STATS, "--timeunit=UNIT",
	  "stats: times in nsec (default), usec, msec or sec", "nsec usec msec sec" },
	{ OPT_CHECK, "check", no_argument, OPTC_FMT, "--check",
	  "fmt: list the files that would change; exit 1 if any", NULL },
	{ 'l', NULL, no_argument, OPTC_FMT, "-l", "fmt: list the files that would change; exit 1 if any\n"
	  "(with -i: list the files rewritten)", NULL },
	{ 'd', NULL, no_argument, OPTC_FMT, "-d", "fmt: print a unified diff of each file that would\n"
	  "change; exit 1 if any", NULL },
	{ 'i', NULL, no_argument, OPTC_FMT, "-i", "fmt: rewrite the files in place (atomically)", NULL },
	{ 'w', NULL, no_argument, OPTC_FMT, "-w", "fmt: the same as -i (gofmt's flag)", NULL },
	{ OPT_RECOVER, "recover", no_argument, OPTC_FMT, "--recover",
	  "fmt: put back the previous text of each file that an\n"
	  "interrupted write left with a journal (nvtxtc(1),\n"
	  "FILES WRITTEN); change nothing else", NULL },
	{ 'j', NULL, required_argument, OPTC_INPUT, "-j N",
	  "use up to N threads (default: the processors usable):\n"
	  "lint and fmt (but for printing) take N files at a time,\n"
	  "output staying in command-line order, fewer when file\n"
	  "descriptors are short; a thread to spare reads and\n"
	  "parses ahead, sharing the work (the checking thread\n"
	  "parses itself instead of waiting for it)", NULL },
	{ OPT_PROGRESS, "progress", no_argument, OPTC_PROGRESS, "--progress",
	  "show a progress line on stderr (bytes and percent of\n"
	  "the file, rate, time left) after a second on a file,\n"
	  "even when stderr is not a terminal (the default shows\n"
	  "it on a terminal only; never with json or sarif)", NULL },
	{ OPT_NO_PROGRESS, "no-progress", no_argument, OPTC_PROGRESS, "--no-progress",
	  "never show the progress line", NULL },
	{ OPT_STDIN_NAME, "stdin-name", required_argument, OPTC_INPUT, "--stdin-name=NAME",
	  "the name of standard input in diagnostics", NULL },
	{ 'W', NULL, required_argument, OPTC_WARN, NULL, NULL, NULL },
	{ 'w', NULL, no_argument, OPTC_WARN, "-w", "disable every warning", NULL },
	{ OPT_MAX_ERRORS, "max-errors", required_argument, OPTC_DIAG, "--max-errors=N",
	  "show at most N errors and N warnings per file (default 50;\n"
	  "0: no limit)", NULL },
	{ OPT_COLOR, "color", optional_argument, OPTC_GENERAL, "--color[=WHEN]",
	  "color diagnostics: auto (default), always or never;\n"
	  "--color alone means always", "auto always never" },
	{ 'f', NULL, required_argument, OPTC_GENERAL, "-fdiagnostics-color=WHEN",
	  "GCC's spelling of --color=WHEN", NULL },
	{ OPT_STDIO, "stdio", no_argument, OPTC_LSP, "--stdio",
	  "lsp: speak on standard input and output (the only\n"
	  "transport; accepted as LSP clients pass it)", NULL },
	{ OPT_FIX, "fix", no_argument, OPTC_FIX, "--fix",
	  "lint: apply the fix-its of fixable checks to the files\n"
	  "(atomically; '-': print the fixed text), then report\n"
	  "what is left", NULL },
	{ OPT_DIAG_FORMAT, "diagnostics-format", required_argument, OPTC_GENERAL,
	  "--diagnostics-format=NAME",
	  "diagnostics as text (default), or as one json or\n"
	  "sarif (SARIF 2.1.0) document for the whole run, on\n"
	  "stdout when nothing else is written there, else stderr", "text json sarif" },
	{ 'f', NULL, required_argument, OPTC_GENERAL, "-fdiagnostics-format=NAME",
	  "GCC's spelling: text, json or sarif (also json-stderr,\n"
	  "sarif-stderr); the document goes to standard error", NULL },
	{ OPT_DIAG_OUTPUT, "diagnostics-output", required_argument, OPTC_GENERAL,
	  "--diagnostics-output=FILE",
	  "write the json or sarif document to FILE (atomically)", NULL },
	{ OPT_LIST_CHECKS, "list-checks", no_argument, OPTC_GENERAL, "--list-checks",
	  "print every check (name, severity, description) and exit;\n"
	  "as one JSON document with --diagnostics-format=json", NULL },
	{ 'h', "help", no_argument, OPTC_GENERAL, "-h, --help", "print this help and exit", NULL },
	{ 'V', "version", no_argument, OPTC_GENERAL, "-V, --version", "print the version and exit", NULL },
};
enum { N_OPTIONS = sizeof option_specs / sizeof option_specs[0] };

/* The -W forms, in --help's Options section. */
static const char *const warning_forms[][2] = {
	{ "-WNAME", "enable warning NAME" },
	{ "-Wno-NAME", "disable warning NAME" },
	{ "-Werror", "make every warning an error" },
	{ "-Werror=NAME", "make warning NAME an error" },
	{ "-Wno-error=NAME", "keep warning NAME a warning under -Werror" },
	{ "-Wall, -Wextra", "enable every warning not set by a -W option of its\nown (gcc-style Makefiles)" },
};

/* --- --help --------------------------------------------------------------- */

/* "  LEFT  HELP", the lines of HELP after the first under its first. */
static void print_row(FILE *out, const char *left, const char *help)
{
	const char *nl;

	if (strlen(left) > 20 && left[0] == '-')
		fprintf(out, "  %s\n%23s", left, ""); /* a long option: its help on the next line */
	else
		fprintf(out, "  %-20s ", left);
	while ((nl = strchr(help, '\n')) != NULL) {
		fprintf(out, "%.*s\n%23s", (int)(nl - help), help, "");
		help = nl + 1;
	}
	fprintf(out, "%s\n", help);
}

/* The rows of the Options section for the option classes `cls`. */
static void print_options(FILE *out, unsigned cls)
{
	char left[64];

	for (int i = 0; i < N_OPTIONS; i++) {
		const struct option_spec *s = &option_specs[i];
		if (!(s->cls & cls))
			continue;
		if (s->id == OPT_EMIT) {
			for (int e = 0; e < n_emitters; e++) {
				if (!emitters[e].summary)
					continue;
				snprintf(left, sizeof left, "--emit=%s", emitters[e].name);
				print_row(out, left, emitters[e].summary);
			}
		} else if (s->id == 'W') {
			for (size_t f = 0; f < sizeof warning_forms / sizeof warning_forms[0]; f++)
				print_row(out, warning_forms[f][0], warning_forms[f][1]);
		} else {
			print_row(out, s->shown, s->help);
		}
	}
}

void print_help(FILE *out, const struct subcommand *cmd)
{
	unsigned cls = cmd ? cmd->options : ~0u;

	fprintf(out, "Usage: nvtxtc %s\n", cmd ? cmd->synopsis : subcommands[0].synopsis);
	for (int i = 0; (!cmd || cmd == &subcommands[0]) && i < n_emitters; i++)
		if (emitters[i].start)
			fprintf(out, "       nvtxtc --emit=%s %s [OPTION]... FILE%s\n", emitters[i].name,
				emitters[i].needs_output ? "-o FILE" : "[-o FILE]", emitters[i].merges ? "..." : "");
	for (int i = 1; !cmd && i < n_subcommands; i++)
		fprintf(out, "       nvtxtc %s\n", subcommands[i].synopsis);
	if (cmd) {
		/* the summary on one line */
		fprintf(out, "nvtxtc %s: ", cmd->name);
		for (const char *p = cmd->summary; *p; p++)
			fputc(*p == '\n' ? ' ' : *p, out);
		fputs(".\n", out);
	} else {
		fputs("Check NVTXT files (the text form of NVIDIA's NVTX annotations), print them\n"
		      "in canonical form, or format them.  FILE '-' is standard input, and so is\n"
		      "no FILE when standard input is not a terminal (lint, fmt, info).\n"
		      "\nCommands:\n",
		      out);
		for (int i = 0; i < n_subcommands; i++)
			print_row(out, subcommands[i].name, subcommands[i].summary);
	}
	fputs("\nOptions:\n", out);
	print_options(out, cls);
	if (cls & OPTC_WARN) {
		fputs("\nWarnings (all enabled by default):\n", out);
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING)
				print_row(out, nvtxt_check_get((enum nvtxt_check_id)i)->name,
					  nvtxt_check_get((enum nvtxt_check_id)i)->description);
	}
	fputs("\nExit status: 0 no errors, 1 errors (or warnings under -Werror),\n"
	      "2 usage or I/O error.  See nvtxtc(1) and nvtxt(5).\n",
	      out);
}

void write_error_stdout(const struct nvtxt_diag_sink *sink, int err)
{
	io_error(sink, NULL, "cannot write standard output: %s", strerror(err ? err : EIO));
}

int finish_stdout(const struct nvtxt_diag_sink *sink, int status)
{
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && status < 2) {
		write_error_stdout(sink, errno);
		return 2;
	}
	return status;
}

int usage_error(const struct nvtxt_diag_sink *sink, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL, fmt, ap);
	va_end(ap);
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, NULL,
				    "try 'nvtxtc --help' for more information");
	return 2;
}

/* --- --list-checks ---------------------------------------------------------- */

/*
 * --list-checks: every check of the registry, one a line: name, severity,
 * description; with --diagnostics-format=json, one JSON document
 * {"version": 1, "checks": [{"name", "severity", "fixable", "section",
 * "description"}, ...]} (nvtxtc(1), OPTIONS).  Returns 0, or -1 when the
 * JSON document could not be made (out of memory); a failed write is left
 * in the stream's error flag.
 */
static int list_checks(FILE *out, enum diag_format format)
{
	json_t *doc, *checks;

	if (format != DIAG_JSON) {
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++) {
			const struct nvtxt_check *c = nvtxt_check_get((enum nvtxt_check_id)i);
			fprintf(out, "%-22s %-7s %s\n", c->name,
				c->severity == NVTXT_SEV_ERROR ? "error" : "warning", c->description);
		}
		return 0;
	}
	checks = json_array();
	doc = json_pack("{s:i, s:o}", "version", 1, "checks", checks);
	if (!doc)
		return -1;
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++) {
		const struct nvtxt_check *c = nvtxt_check_get((enum nvtxt_check_id)i);
		if (json_array_append_new(checks, json_pack("{s:s, s:s, s:b, s:s, s:s, s:s}", "name", c->name,
							    "severity", c->severity == NVTXT_SEV_ERROR ? "error" : "warning",
							    "fixable", c->fixable, "section", c->section,
							    "description", c->description, "help", c->help)) != 0) {
			json_decref(doc);
			return -1;
		}
	}
	/* a failed write shows in the stream's error flag, which the caller checks */
	if (json_dumpf(doc, out, JSON_INDENT(2)) == 0)
		fputc('\n', out);
	json_decref(doc);
	return 0;
}

/* --- -W --------------------------------------------------------------------- */

/* True when check i is a warning, which -W options select. */
static bool is_warning(int i)
{
	return nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING;
}

/*
 * An unknown -W name: the nearest warning name, spelt as the option the
 * user must type (-Wrenam: -Wrename; -Wno-error=renam: -Wno-error=rename;
 * -Wal: -Wall).  prefix is what came before the name in arg.
 */
static int unknown_warning(const struct nvtxt_diag_sink *sink, const char *arg, const char *name)
{
	const char *names[NVTXT_CHECK_COUNT + 3];
	const char *near;
	size_t n = 0;

	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (is_warning(i))
			names[n++] = nvtxt_check_get((enum nvtxt_check_id)i)->name;
	if (name == arg) {
		/* no "no-" or "error=" before it: the groups are spelt here too */
		names[n++] = "all";
		names[n++] = "extra";
		names[n++] = "error";
	}
	near = suggest(name, strlen(name), names, n);
	if (near)
		return usage_error(sink, "unknown warning '-W%s'; did you mean '-W%.*s%s'?", arg,
				   (int)(name - arg), arg, near);
	return usage_error(sink, "unknown warning '-W%s' (see --help for the list)", arg);
}

/* One -W option (nvtxt_warning_option, the library's one parser of them); 0, or the exit status. */
static int warning_option(struct options *o, const char *arg, const struct nvtxt_diag_sink *sink)
{
	const char *name;

	switch (nvtxt_warning_option(&o->diag, &o->warn, arg, &name)) {
	case NVTXT_WARNING_OK:
		return 0;
	case NVTXT_WARNING_ERROR_CHECK:
		return usage_error(sink, "'-W%s' names an error check, and errors cannot be disabled or changed "
				   "(-W options select warnings; see --list-checks)", arg);
	case NVTXT_WARNING_UNKNOWN:
		break;
	}
	return unknown_warning(sink, arg, name);
}

/* --- suggestions -------------------------------------------------------------- */

/*
 * An unknown long option: the nearest of the long options, and of each
 * with its values (--emit-nvtxt: --emit=nvtxt); with '=', the nearest
 * name, the value kept (--colour=never: --color=never).
 */
static int unknown_option(const struct nvtxt_diag_sink *sink, const char *arg)
{
	struct buf all = { 0 };
	const char *cand[256], *eq = strchr(arg, '='), *near;
	size_t n = 0, len = eq ? (size_t)(eq - arg) : strlen(arg);
	int r;

	for (int i = 0; i < N_OPTIONS && n + 8 < sizeof cand / sizeof cand[0]; i++) {
		const struct option_spec *s = &option_specs[i];
		const char *v = s->values;
		if (!s->name)
			continue;
		buf_printf(&all, "%s--%s", all.len ? " " : "", s->name);
		for (int e = 0; !eq && s->id == OPT_EMIT && e < n_emitters; e++)
			buf_printf(&all, " --emit=%s", emitters[e].name);
		while (!eq && v && *v) {
			size_t k = strcspn(v, " ");
			buf_printf(&all, " --%s=%.*s", s->name, (int)k, v);
			v += k + (v[k] == ' ');
		}
	}
	/* the words of `all`, split in place */
	for (char *p = all.ptr; p && *p && n < sizeof cand / sizeof cand[0];) {
		cand[n++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = '\0';
	}
	near = suggest(arg, len, cand, n);
	if (near)
		r = usage_error(sink, "unknown option '%s'; did you mean '%s%s'?", arg, near, eq ? eq : "");
	else
		r = usage_error(sink, "unknown option '%s'", arg);
	buf_free(&all);
	return r;
}

const char *unknown_command(const char *word)
{
	static char msg[160];
	const char *names[16];
	const char *near;
	struct stat st;
	int n = 0;

	if (word[0] == '-' || stat(word, &st) == 0 || errno != ENOENT)
		return NULL;
	for (int i = 0; i < n_subcommands && n < 16; i++)
		names[n++] = subcommands[i].name;
	near = suggest(word, strlen(word), names, (size_t)n);
	if (!near)
		return NULL;
	snprintf(msg, sizeof msg, "unknown command '%.40s' (and no file of that name); did you mean '%s'?",
		 word, near);
	return msg;
}

/* --- parsing ---------------------------------------------------------------- */

/* The row of option `id` for `cmd`: the command's own if the letter has two; else the first. */
static const struct option_spec *spec_for(int id, const struct subcommand *cmd)
{
	const struct option_spec *first = NULL;

	for (int i = 0; i < N_OPTIONS; i++) {
		if (option_specs[i].id != id)
			continue;
		if (option_specs[i].cls & cmd->options)
			return &option_specs[i];
		if (!first)
			first = &option_specs[i];
	}
	return first;
}

/* An option the command does not take: named as the user spelt it, with why when it helps. */
static int not_an_option(const struct nvtxt_diag_sink *sink, const struct option_spec *s,
			 const struct subcommand *cmd, const char *arg)
{
	char sp[80];

	if (s->name)
		snprintf(sp, sizeof sp, "--%s", s->name);
	else if (arg && (s->id == 'W' || s->id == 'f')) /* -Wall, -fdiagnostics-color=... */
		snprintf(sp, sizeof sp, "-%c%.60s", s->id, arg);
	else
		snprintf(sp, sizeof sp, "-%c", s->id);
	if (s->cls == OPTC_WARN && (cmd->options & OPTC_FMT))
		return usage_error(sink, "'%s' is not an option of 'nvtxtc %s': it reports syntax errors "
				   "only, which no warning option changes", sp, cmd->name);
	if (s->cls == OPTC_INPUT && (cmd->options & OPTC_LSP))
		return usage_error(sink, "'%s' is not an option of 'nvtxtc %s': it checks the documents "
				   "its client sends, not files", sp, cmd->name);
	return usage_error(sink, "'%s' is not an option of 'nvtxtc %s'", sp, cmd->name);
}

/* getopt_long's tables from option_specs (a letter with two rows once). */
static void getopt_tables(struct option *longopts, char *shortopts)
{
	size_t ns = 0, nl = 0;

	shortopts[ns++] = ':';
	for (int i = 0; i < N_OPTIONS; i++) {
		const struct option_spec *s = &option_specs[i];
		if (s->name)
			longopts[nl++] = (struct option){ s->name, s->has_arg, NULL, s->id };
		if (s->id < 256 && !memchr(shortopts, s->id, ns)) {
			shortopts[ns++] = (char)s->id;
			if (s->has_arg == required_argument)
				shortopts[ns++] = ':';
		}
	}
	shortopts[ns] = '\0';
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
}

/* --color=WHEN and -fdiagnostics-color=WHEN (name: the option as spelt in messages). */
static int set_color(struct options *o, const char *arg, const char *name, const struct nvtxt_diag_sink *sink)
{
	if (!arg || strcmp(arg, "always") == 0)
		o->color = 1;
	else if (strcmp(arg, "auto") == 0)
		o->color = -1;
	else if (strcmp(arg, "never") == 0)
		o->color = 0;
	else
		return usage_error(sink, "%s expects auto, always or never, found '%s'", name, arg);
	return -1;
}

static int set_emit(struct options *o, const char *arg, const struct nvtxt_diag_sink *sink)
{
	const char *names[16], *near;
	struct buf list = { 0 };
	int r;

	o->emit = NULL;
	for (int i = 0; i < n_emitters && i < 16; i++) {
		names[i] = emitters[i].name;
		if (strcmp(arg, emitters[i].name) == 0)
			o->emit = &emitters[i];
	}
	if (o->emit)
		return -1;
	for (int i = 0; i < n_emitters; i++)
		buf_printf(&list, "%s%s", i == 0 ? "" : i == n_emitters - 1 ? " or " : ", ", emitters[i].name);
	near = suggest(arg, strlen(arg), names, (size_t)(n_emitters < 16 ? n_emitters : 16));
	if (near)
		r = usage_error(sink, "unknown --emit format '%s': expected %s; did you mean '%s'?", arg,
				list.ptr, near);
	else
		r = usage_error(sink, "unknown --emit format '%s': expected %s", arg, list.ptr);
	buf_free(&list);
	return r;
}

/* -f: GCC's -fdiagnostics-format=NAME, -fdiagnostics-color[=WHEN], -fno-diagnostics-color. */
static int set_gcc_option(struct options *o, const char *arg, const struct nvtxt_diag_sink *sink)
{
	const char *problem;

	if (strcmp(arg, "diagnostics-color") == 0)
		return set_color(o, NULL, "-fdiagnostics-color", sink);
	if (strcmp(arg, "no-diagnostics-color") == 0)
		return set_color(o, "never", "-fno-diagnostics-color", sink);
	if (strncmp(arg, "diagnostics-color=", 18) == 0)
		return set_color(o, arg + 18, "-fdiagnostics-color", sink);
	problem = diag_format_option(o, arg, true);
	return problem ? usage_error(sink, "%s", problem) : -1;
}

/* A number option: -j (1..1024) and --max-errors (>= 0). */
static int set_number(struct options *o, int id, const char *arg, const struct nvtxt_diag_sink *sink)
{
	char *end;

	errno = 0;
	if (id == 'j') {
		o->jobs = strtol(arg, &end, 10);
		if (errno || end == arg || *end || o->jobs < 1 || o->jobs > 1024)
			return usage_error(sink, "-j expects a number of jobs from 1 to 1024, found '%s'", arg);
		return -1;
	}
	o->diag.max_errors = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-')
		return usage_error(sink, "--max-errors expects a number >= 0, found '%s'", arg);
	return -1;
}

/* The i-th value of stats --report (which 1), --timeunit (0) or --format (-1), NULL past the last. */
static const char *stats_value(int which, int i)
{
	if (which > 0)
		return stats_report_name((enum stats_report)i);
	return which == 0 ? stats_unit_name((enum stats_unit)i) : stats_format_name((enum stats_format)i);
}

/* stats --report, --timeunit or --format: the value's index into *o (-1 to go on), or a usage error. */
static int stats_option(struct options *o, int which, const char *arg, const struct nvtxt_diag_sink *sink)
{
	const char *names[8];
	size_t n = 0;
	struct buf list = { 0 };
	int r;

	while (n < 8 && stats_value(which, (int)n))
		names[n] = stats_value(which, (int)n), n++;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], arg) == 0) {
			*(which > 0 ? &o->stats_report : which == 0 ? &o->stats_unit : &o->stats_format) = (int)i;
			return -1;
		}
	}
	buf_add_list(&list, names, n, "or");
	r = usage_error(sink, "--%s expects %s, found '%s'", which > 0 ? "report" : which == 0 ? "timeunit" : "format",
			list.ptr, arg);
	buf_free(&list);
	return r;
}

/* An option with a value; -1 to go on, or the exit status. */
static int set_value(struct options *o, const struct option_spec *s, const char *arg,
		     const struct nvtxt_diag_sink *sink)
{
	char err[320];
	const char *problem;

	switch (s->id) {
	case 'o':
		o->output = arg;
		break;
	case 'j':
	case OPT_MAX_ERRORS:
		return set_number(o, s->id, arg, sink);
	case 'W':
		return warning_option(o, arg, sink) != 0 ? 2 : -1;
	case OPT_EMIT:
		return set_emit(o, arg, sink);
	case OPT_TIME_CONVERSION:
		if (nvtxt_tconv_parse(&o->tconv, arg, err, sizeof err) != 0)
			return usage_error(sink, "--time-conversion=%s: %s", arg, err);
		break;
	case OPT_REPORT:
		return stats_option(o, 1, arg, sink);
	case OPT_TIMEUNIT:
		return stats_option(o, 0, arg, sink);
	case OPT_FORMAT:
		if (o->cmd->options & OPTC_STATS)
			return stats_option(o, -1, arg, sink);
		if (strcmp(arg, "text") != 0 && strcmp(arg, "json") != 0)
			return usage_error(sink, "--format expects text or json, found '%s'", arg);
		o->info_json = strcmp(arg, "json") == 0;
		break;
	case OPT_STDIN_NAME:
		o->stdin_name = arg;
		break;
	case OPT_DIAG_FORMAT:
		problem = diag_format_option(o, arg, false);
		if (problem)
			return usage_error(sink, "%s", problem);
		break;
	case 'f':
		return set_gcc_option(o, arg, sink);
	case OPT_DIAG_OUTPUT:
		o->diag_output = arg;
		break;
	case OPT_COLOR:
		return set_color(o, arg, "--color", sink);
	}
	return -1;
}

/* An option without a value; -1 to go on, or the exit status. */
static int set_flag(struct options *o, const struct option_spec *s, const struct nvtxt_diag_sink *sink)
{
	switch (s->id) {
	case 'h':
		print_help(stdout, o->cmd_given ? o->cmd : NULL);
		return finish_stdout(sink, 0);
	case 'V':
		printf("nvtxtc %s\n", NVTXTC_VERSION);
		return finish_stdout(sink, 0);
	case OPT_LIST_CHECKS:
		o->list_checks = true;
		break;
	case 'i':
		o->in_place = true;
		break;
	case 'w':
		if (s->cls == OPTC_FMT) {
			o->in_place = true; /* gofmt's -w */
			break;
		}
		nvtxt_warnings_off(&o->diag, &o->warn);
		break;
	case OPT_CHECK:
		o->check = true;
		break;
	case 'l':
		o->list = true;
		break;
	case 'd':
		o->diff = true;
		break;
	case OPT_FIX:
		o->fix = true;
		break;
	case OPT_RECOVER:
		o->recover = true;
		break;
	case OPT_PROGRESS:
	case OPT_NO_PROGRESS:
		o->progress = s->id == OPT_PROGRESS;
		break;
	}
	return -1; /* OPT_STDIO: accepted, nothing to set */
}

int parse_options(struct options *o, int argc, char **argv, const struct nvtxt_diag_sink *sink)
{
	struct option longopts[N_OPTIONS + 1];
	char shortopts[2 * N_OPTIONS + 3];
	int c, status;

	getopt_tables(longopts, shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct option_spec *s = spec_for(c, o->cmd);

		if (c == ':')
			return usage_error(sink, "option '%s' needs an argument", argv[optind - 1]);
		if (!s && optopt)
			return usage_error(sink, "unknown option '-%c'", optopt);
		if (!s)
			return unknown_option(sink, argv[optind - 1]);
		if (!(s->cls & o->cmd->options))
			return not_an_option(sink, s, o->cmd, optarg);
		status = s->has_arg == no_argument ? set_flag(o, s, sink) : set_value(o, s, optarg, sink);
		if (status >= 0)
			return status;
	}
	if (o->list_checks) {
		/* after every option, so that --diagnostics-format may come later */
		if (list_checks(stdout, o->format) != 0) {
			io_error(sink, NULL, "--list-checks: cannot build the JSON document of the checks: %s",
				 strerror(ENOMEM));
			return 2;
		}
		return finish_stdout(sink, 0);
	}
	return -1;
}
