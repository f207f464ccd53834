/*
 * main.c - the nvtxtc driver: the command line, parsed here only, and
 * dispatched through two tables: `subcommands[]` (lint, fmt, dump, ...)
 * and `emitters[]` (the back ends of --emit=NAME).  --help is printed from
 * the same tables and from `option_specs[]`.  Everything else is the
 * library (compile.h and the back ends) and the cmd_*.c files.
 *
 * Exit status (nvtxtc(1), EXIT STATUS): 0 no errors; 1 errors in an input
 * (or warnings under -Werror); 2 a usage error or an I/O error.
 */
#include <errno.h>
#include <jansson.h>
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "emit_chrome.h"
#include "emit_nvtxt.h"
#include "lsp.h"
#include "payload.h"
#include "processors.h"
#include "util.h"

#ifndef NVTXTC_VERSION
#define NVTXTC_VERSION "0.1"
#endif

/* --- back ends of --emit=NAME ------------------------------------------- */

/*
 * The state of --emit=nvtxt and --emit=payload: the back end itself and,
 * under --time-conversion, the filter in front of it that rewrites the
 * converted times (timeconv.h).
 */
struct emit_state {
	struct nvtxt_payload_writer *payload;
	struct nvtxt_emit_nvtxt *nvtxt;
	struct nvtxt_backend inner;
	struct nvtxt_tconv_filter filter;
};

/* Puts the time conversion filter in front of st->inner when --time-conversion was given. */
static void convert_times(const struct options *opt, struct emit_state *st, struct nvtxt_backend *be)
{
	if (opt->tconv.any_given)
		*be = nvtxt_tconv_filter_backend(&st->filter, &opt->tconv, &st->inner);
	else
		*be = st->inner;
}

static int start_nvtxt(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct emit_state *st = xcalloc(1, sizeof *st);

	st->nvtxt = nvtxt_emit_nvtxt_new(out);
	if (!st->nvtxt) {
		free(st);
		return -1;
	}
	st->inner = nvtxt_emit_nvtxt_backend(st->nvtxt);
	convert_times(opt, st, be);
	*state = st;
	return 0;
}

static int start_payload(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct emit_state *st = xcalloc(1, sizeof *st);

	st->payload = nvtxt_payload_writer_new(out);
	if (!st->payload) {
		free(st);
		return -1;
	}
	st->inner = nvtxt_payload_backend(st->payload);
	convert_times(opt, st, be);
	*state = st;
	return 0;
}

static void stop_emit(void *state)
{
	struct emit_state *st = state;

	nvtxt_payload_writer_free(st->payload);
	nvtxt_emit_nvtxt_free(st->nvtxt);
	free(st);
}

static const char *emit_error(void *state, struct nvtxt_loc *loc)
{
	struct emit_state *st = state;

	if (!st->filter.error[0])
		return NULL;
	*loc = st->filter.error_loc;
	return st->filter.error;
}

static int start_chrome(const struct options *opt, FILE *out, struct nvtxt_backend *be, void **state)
{
	struct nvtxt_chrome *c = nvtxt_chrome_new(out, &opt->tconv);

	*be = nvtxt_chrome_backend(c);
	*state = c;
	return 0;
}

static void stop_chrome(void *state)
{
	nvtxt_chrome_free(state);
}

static const char *chrome_error(void *state, struct nvtxt_loc *loc)
{
	return nvtxt_chrome_error(state, loc);
}

static const struct emitter emitters[] = {
	{ "nvtxt", "print the canonical normal form of FILE", false, start_nvtxt, stop_emit, emit_error },
	{ "payload", "write FILE as NVTX payload schemas and batches (needs -o)", true,
	  start_payload, stop_emit, emit_error },
	{ "chrome", "write FILE as Chrome Trace Event JSON (Perfetto, speedscope)", false,
	  start_chrome, stop_chrome, chrome_error },
	{ "none", NULL, false, NULL, NULL, NULL }, /* lint only; not listed */
};
enum { N_EMITTERS = sizeof emitters / sizeof emitters[0] };

/* --- subcommands ---------------------------------------------------------- */

static const char *validate_lint(const struct options *o, int n);
static const char *validate_fmt(const struct options *o, int n);
static const char *validate_one_file(const struct options *o, int n);
static const char *validate_no_operand(const struct options *o, int n);
static const char *validate_info(const struct options *o, int n);
static int run_help(struct run *run, char **operands, int n);

static const struct subcommand subcommands[] = {
	{ "lint", "[lint] [--fix] [OPTION]... FILE...", "check the files and print diagnostics (the default)",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_EMIT | OPTC_TIME | OPTC_FIX, validate_lint, run_lint },
	{ "fmt", "fmt [--check|-l] [-d] [-i] [OPTION]... FILE...", "print the files with normalised layout",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_FMT, validate_fmt, run_fmt },
	{ "info", "info [--format=FORMAT] [OPTION]... FILE...",
	  "print facts about the files: events per command, threads,\n"
	  "time spans, categories, the longest ranges",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_TIME | OPTC_INFO, validate_info, run_info },
	{ "dump", "dump FILE", "print a payload file for a person", OPTC_GENERAL, validate_one_file,
	  run_dump },
	{ "replay", "replay FILE",
	  "submit a payload file to NVTX (to the tool in\n"
	  "NVTX_INJECTION64_PATH)",
	  OPTC_GENERAL, validate_one_file, run_replay },
	{ "lsp", "lsp [--stdio] [OPTION]...",
	  "run a Language Server Protocol server on standard\n"
	  "input and output, for editors (nvtxtc(1), EDITORS)",
	  OPTC_GENERAL | OPTC_DIAG | OPTC_LSP, validate_no_operand, run_lsp },
	{ "help", "help", "print this help", OPTC_GENERAL, validate_no_operand, run_help },
};
enum { N_SUBCOMMANDS = sizeof subcommands / sizeof subcommands[0] };

/* --- options -------------------------------------------------------------- */

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
};

struct option_spec {
	int id;            /* the short option's letter, or OPT_* for a long-only one */
	const char *name;  /* the long name, or NULL */
	int has_arg;       /* no_argument, required_argument, optional_argument */
	unsigned cls;      /* OPTC_*: the subcommands that accept it */
	const char *shown; /* --help's left column; NULL: printed by print_options itself */
	const char *help;  /* --help's right column; lines after the first are indented */
};

static const struct option_spec option_specs[] = {
	{ OPT_EMIT, "emit", required_argument, OPTC_EMIT, NULL, NULL },
	{ 'o', NULL, required_argument, OPTC_EMIT, "-o FILE",
	  "write the output to FILE (atomically) instead of stdout" },
	{ OPT_TIME_CONVERSION, "time-conversion", required_argument, OPTC_TIME, "--time-conversion=RULE",
	  "convert the times of a time base to nanoseconds:\n"
	  "TIMEBASE:lin:NS_A,T_A,FREQ or\n"
	  "TIMEBASE:lerp:NS_A,T_A,NS_B,T_B (repeatable)" },
	{ OPT_FORMAT, "format", required_argument, OPTC_INFO, "--format=FORMAT",
	  "info: print text (default) or json" },
	{ OPT_CHECK, "check", no_argument, OPTC_FMT, "--check",
	  "fmt: list the files that would change; exit 1 if any" },
	{ 'l', NULL, no_argument, OPTC_FMT, "-l", "fmt: list the files that would change; exit 1 if any\n"
	  "(with -i: list the files rewritten)" },
	{ 'd', NULL, no_argument, OPTC_FMT, "-d", "fmt: print a unified diff of each file that would\n"
	  "change; exit 1 if any" },
	{ 'i', NULL, no_argument, OPTC_FMT, "-i", "fmt: rewrite the files in place (atomically)" },
	{ 'j', NULL, required_argument, OPTC_DIAG, "-j N",
	  "use up to N threads (default: the processors usable):\n"
	  "lint and fmt (but for printing) take N files at a time,\n"
	  "output staying in command-line order, fewer when file\n"
	  "descriptors are short; a thread to spare reads and\n"
	  "parses ahead, sharing the work (the checking thread\n"
	  "parses itself instead of waiting for it)" },
	{ OPT_STDIN_NAME, "stdin-name", required_argument, OPTC_DIAG, "--stdin-name=NAME",
	  "the name of standard input in diagnostics" },
	{ 'W', NULL, required_argument, OPTC_DIAG, NULL, NULL },
	{ 'w', NULL, no_argument, OPTC_DIAG, "-w", "disable every warning" },
	{ OPT_MAX_ERRORS, "max-errors", required_argument, OPTC_DIAG, "--max-errors=N",
	  "show at most N errors and N warnings per file (default 50;\n"
	  "0: no limit)" },
	{ OPT_COLOR, "color", optional_argument, OPTC_GENERAL, "--color[=WHEN]",
	  "color diagnostics: auto (default), always or never;\n"
	  "--color alone means always" },
	{ OPT_STDIO, "stdio", no_argument, OPTC_LSP, "--stdio",
	  "lsp: speak on standard input and output (the only\n"
	  "transport; accepted as LSP clients pass it)" },
	{ OPT_FIX, "fix", no_argument, OPTC_FIX, "--fix",
	  "lint: apply the fix-its of fixable checks to the files\n"
	  "(atomically; '-': print the fixed text), then report\n"
	  "what is left" },
	{ OPT_DIAG_FORMAT, "diagnostics-format", required_argument, OPTC_GENERAL,
	  "--diagnostics-format=NAME",
	  "diagnostics as text (default), or as one json or\n"
	  "sarif (SARIF 2.1.0) document for the whole run, on\n"
	  "stdout when nothing else is written there, else stderr" },
	{ 'f', NULL, required_argument, OPTC_GENERAL, "-fdiagnostics-format=NAME",
	  "GCC's spelling: text, json or sarif-stderr (the\n"
	  "document goes to standard error)" },
	{ OPT_DIAG_OUTPUT, "diagnostics-output", required_argument, OPTC_GENERAL,
	  "--diagnostics-output=FILE",
	  "write the json or sarif document to FILE (atomically)" },
	{ OPT_LIST_CHECKS, "list-checks", no_argument, OPTC_GENERAL, "--list-checks",
	  "print every check (name, severity, description) and exit;\n"
	  "as one JSON document with --diagnostics-format=json" },
	{ 'h', "help", no_argument, OPTC_GENERAL, "-h, --help", "print this help and exit" },
	{ 'V', "version", no_argument, OPTC_GENERAL, "-V, --version", "print the version and exit" },
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

static void help(FILE *out)
{
	char left[64];

	fputs("Usage: nvtxtc ", out);
	fprintf(out, "%s\n", subcommands[0].synopsis);
	for (int i = 0; i < N_EMITTERS; i++)
		if (emitters[i].start)
			fprintf(out, "       nvtxtc --emit=%s %s [OPTION]... FILE\n", emitters[i].name,
				emitters[i].needs_output ? "-o FILE" : "[-o FILE]");
	for (int i = 1; i < N_SUBCOMMANDS; i++)
		fprintf(out, "       nvtxtc %s\n", subcommands[i].synopsis);
	fputs("Check NVTXT files (the text form of NVIDIA's NVTX annotations), print them\n"
	      "in canonical form, or format them.  FILE '-' is standard input.\n"
	      "\nCommands:\n",
	      out);
	for (int i = 0; i < N_SUBCOMMANDS; i++)
		print_row(out, subcommands[i].name, subcommands[i].summary);
	fputs("\nOptions:\n", out);
	for (int i = 0; i < N_OPTIONS; i++) {
		const struct option_spec *s = &option_specs[i];
		if (s->id == OPT_EMIT) {
			for (int e = 0; e < N_EMITTERS; e++) {
				if (!emitters[e].start)
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
	fputs("\nWarnings (all enabled by default):\n", out);
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		if (nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING)
			print_row(out, nvtxt_check_get((enum nvtxt_check_id)i)->name,
				  nvtxt_check_get((enum nvtxt_check_id)i)->description);
	fputs("\nExit status: 0 no errors, 1 errors (or warnings under -Werror),\n"
	      "2 usage or I/O error.  See nvtxtc(1) and nvtxt(5).\n",
	      out);
}

/* Flushes standard output; a failed write is an I/O error (exit 2). */
static int finish_stdout(const struct nvtxt_diag_sink *sink, int status)
{
	if ((fflush(stdout) != 0 || ferror(stdout)) && status < 2) {
		io_error(sink, NULL, "writing standard output: %s", strerror(errno ? errno : EIO));
		return 2;
	}
	return status;
}

static int run_help(struct run *run, char **operands, int n)
{
	(void)operands;
	(void)n;
	help(stdout);
	return finish_stdout(&run->sink, 0);
}

/* --- parsing -------------------------------------------------------------- */

static int usage_error(const struct nvtxt_diag_sink *sink, const char *fmt, ...) NVTXT_PRINTF(2, 3);

static int usage_error(const struct nvtxt_diag_sink *sink, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL, fmt, ap);
	va_end(ap);
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, NULL,
		      "try 'nvtxtc --help' for more information");
	return 2;
}

static const char *validate_lint(const struct options *o, int n)
{
	if (n == 0)
		return "no input files";
	if (o->emit && o->emit->start && n != 1)
		return "--emit takes exactly one input file";
	if (o->output && !(o->emit && o->emit->start))
		return "-o needs --emit=FORMAT";
	if (o->tconv.any_given && !(o->emit && o->emit->start))
		return "--time-conversion needs --emit=FORMAT (or nvtxtc info)";
	if (o->fix && o->emit && o->emit->start)
		return "--fix rewrites the files; it does not take --emit";
	if (o->emit && o->emit->needs_output && !o->output) {
		static char msg[128];
		snprintf(msg, sizeof msg, "--emit=%s writes a binary file: give it with -o FILE",
			 o->emit->name);
		return msg;
	}
	return NULL;
}

static const char *validate_fmt(const struct options *o, int n)
{
	if (n == 0)
		return "no input files";
	if (o->check && o->in_place)
		return "fmt takes --check or -i, not both";
	if (o->diff && o->in_place)
		return "fmt takes -d or -i, not both";
	return NULL;
}

static const char *validate_info(const struct options *o, int n)
{
	(void)o;
	return n == 0 ? "no input files" : NULL;
}

static const char *validate_one_file(const struct options *o, int n)
{
	(void)o;
	return n == 1 ? NULL : "this command takes exactly one payload file";
}

static const char *validate_no_operand(const struct options *o, int n)
{
	(void)o;
	return n == 0 ? NULL : "this command takes no operand";
}

/* True when check i is a warning, which -W options select. */
static bool is_warning(int i)
{
	return nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_WARNING;
}

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
		if (json_array_append_new(checks, json_pack("{s:s, s:s, s:b, s:s, s:s}", "name", c->name,
							    "severity", c->severity == NVTXT_SEV_ERROR ? "error" : "warning",
							    "fixable", c->fixable, "section", c->section,
							    "description", c->description)) != 0) {
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

/*
 * -W arguments: NAME, no-NAME, error, error=NAME, no-error=NAME, all,
 * extra.  -Wall and -Wextra (GCC's groups) enable every warning that no
 * -W option of its own has set, whatever their order, as in GCC; after -w
 * they do nothing (-w wins, as in GCC).
 */
static bool warnings_silenced; /* -w was given */
static int warning_option(struct options *o, const char *arg, const struct nvtxt_diag_sink *sink)
{
	static bool all_errors;
	static bool explicit[NVTXT_CHECK_COUNT];
	int w;
	const char *name = arg;
	int level = NVTXT_LEVEL_WARN;

	if (strcmp(arg, "all") == 0 || strcmp(arg, "extra") == 0) {
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (is_warning(i) && !explicit[i] && !warnings_silenced)
				o->diag.level[i] = all_errors ? NVTXT_LEVEL_ERROR : NVTXT_LEVEL_WARN;
		return 0;
	}
	if (strcmp(arg, "error") == 0) {
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (is_warning(i) && o->diag.level[i] != NVTXT_LEVEL_OFF)
				o->diag.level[i] = NVTXT_LEVEL_ERROR;
		all_errors = true;
		return 0;
	}
	if (strncmp(arg, "error=", 6) == 0) {
		name = arg + 6;
		level = NVTXT_LEVEL_ERROR;
	} else if (strncmp(arg, "no-error=", 9) == 0) {
		name = arg + 9;
		level = NVTXT_LEVEL_WARN;
	} else if (strncmp(arg, "no-", 3) == 0) {
		name = arg + 3;
		level = NVTXT_LEVEL_OFF;
	} else if (all_errors) {
		level = NVTXT_LEVEL_ERROR;
	}
	w = nvtxt_check_lookup(name);
	if (w >= 0 && !is_warning(w))
		return usage_error(sink, "'-W%s' names an error check, and errors cannot be disabled or changed "
				   "(-W options select warnings; see --list-checks)", arg);
	if (w < 0) {
		const char *names[NVTXT_CHECK_COUNT];
		const char *near;
		size_t n = 0;
		for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
			if (is_warning(i))
				names[n++] = nvtxt_check_get((enum nvtxt_check_id)i)->name;
		near = suggest(name, strlen(name), names, n);
		if (near) {
			nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL,
				      "unknown warning '-W%s'; did you mean '%s'?", arg, near);
			return 2;
		}
		return usage_error(sink, "unknown warning '-W%s' (see --help for the list)", arg);
	}
	o->diag.level[w] = (unsigned char)level;
	explicit[w] = true;
	return 0;
}

static const struct option_spec *spec_of(int id)
{
	for (int i = 0; i < N_OPTIONS; i++)
		if (option_specs[i].id == id)
			return &option_specs[i];
	return NULL;
}

/* How the user spells an option: "--name" or "-c". */
static const char *spelling(const struct option_spec *s, char *buf, size_t size)
{
	if (s->name)
		snprintf(buf, size, "--%s", s->name);
	else
		snprintf(buf, size, "-%c", s->id);
	return buf;
}

/*
 * Parses argv[first..] for the subcommand o->cmd: returns -1 when the run
 * goes on with the operands at argv[*optind_out..], or the exit status
 * (--help, --version, a usage error).
 */
static int parse_options(struct options *o, int argc, char **argv, const struct nvtxt_diag_sink *sink)
{
	struct option longopts[N_OPTIONS + 1];
	char shortopts[2 * N_OPTIONS + 3];
	size_t ns = 0, nl = 0;
	char *end;
	int c;

	shortopts[ns++] = ':';
	for (int i = 0; i < N_OPTIONS; i++) {
		const struct option_spec *s = &option_specs[i];
		if (s->name)
			longopts[nl++] = (struct option){ s->name, s->has_arg, NULL, s->id };
		if (s->id < 256) {
			shortopts[ns++] = (char)s->id;
			if (s->has_arg == required_argument)
				shortopts[ns++] = ':';
		}
	}
	shortopts[ns] = '\0';
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct option_spec *s = spec_of(c);
		char sp[64];

		if (c == ':')
			return usage_error(sink, "option '%s' needs an argument", argv[optind - 1]);
		if (!s) {
			if (optopt)
				return usage_error(sink, "unknown option '-%c'", optopt);
			return usage_error(sink, "unknown option '%s'", argv[optind - 1]);
		}
		if (!(s->cls & o->cmd->options))
			return usage_error(sink, "'%s' is not an option of 'nvtxtc %s'",
					   spelling(s, sp, sizeof sp), o->cmd->name);
		switch (c) {
		case 'h':
			help(stdout);
			return finish_stdout(sink, 0);
		case 'V':
			printf("nvtxtc %s\n", NVTXTC_VERSION);
			return finish_stdout(sink, 0);
		case OPT_STDIO:
			break;
		case OPT_LIST_CHECKS:
			o->list_checks = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'i':
			o->in_place = true;
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
		case 'j':
			errno = 0;
			o->jobs = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->jobs < 1 || o->jobs > 1024)
				return usage_error(sink, "-j expects a number of jobs from 1 to 1024, found '%s'",
						   optarg);
			break;
		case 'W':
			if (warning_option(o, optarg, sink) != 0)
				return 2;
			break;
		case 'w':
			warnings_silenced = true;
			for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
				if (is_warning(i))
					o->diag.level[i] = NVTXT_LEVEL_OFF;
			break;
		case OPT_EMIT:
			o->emit = NULL;
			for (int i = 0; i < N_EMITTERS; i++)
				if (strcmp(optarg, emitters[i].name) == 0)
					o->emit = &emitters[i];
			if (!o->emit) {
				struct buf names = { 0 };
				int r;
				for (int i = 0; i < N_EMITTERS; i++)
					buf_printf(&names, "%s%s", i == 0 ? "" : i == N_EMITTERS - 1 ? " or " : ", ",
						   emitters[i].name);
				r = usage_error(sink, "unknown --emit format '%s': expected %s", optarg, names.ptr);
				buf_free(&names);
				return r;
			}
			break;
		case OPT_TIME_CONVERSION: {
			char err[320];
			if (nvtxt_tconv_parse(&o->tconv, optarg, err, sizeof err) != 0)
				return usage_error(sink, "--time-conversion=%s: %s", optarg, err);
			break;
		}
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->info_json = false;
			else if (strcmp(optarg, "json") == 0)
				o->info_json = true;
			else
				return usage_error(sink, "--format expects text or json, found '%s'", optarg);
			break;
		case OPT_STDIN_NAME:
			o->stdin_name = optarg;
			break;
		case OPT_MAX_ERRORS:
			errno = 0;
			o->diag.max_errors = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return usage_error(sink, "--max-errors expects a number >= 0, found '%s'", optarg);
			break;
		case OPT_DIAG_FORMAT:
		case 'f': {
			const char *problem = diag_format_option(o, optarg, c == 'f');
			if (problem)
				return usage_error(sink, "%s", problem);
			break;
		}
		case OPT_DIAG_OUTPUT:
			o->diag_output = optarg;
			break;
		case OPT_FIX:
			o->fix = true;
			break;
		case OPT_COLOR:
			if (!optarg)
				o->color = 1;
			else if (strcmp(optarg, "auto") == 0)
				o->color = -1;
			else if (strcmp(optarg, "always") == 0)
				o->color = 1;
			else if (strcmp(optarg, "never") == 0)
				o->color = 0;
			else
				return usage_error(sink, "--color expects auto, always or never, found '%s'", optarg);
			break;
		}
	}
	if (o->list_checks) {
		/* after every option, so that --diagnostics-format may come later */
		if (list_checks(stdout, o->format) != 0) {
			io_error(sink, NULL, "--list-checks: cannot build the JSON document of the checks: %s", strerror(ENOMEM));
			return 2;
		}
		return finish_stdout(sink, 0);
	}
	return -1;
}

static int nvtxtc_main(int argc, char **argv)
{
	struct options opt = { .color = -1, .cmd = &subcommands[0] };
	struct run run = { .opt = &opt };
	const char *problem;
	int first = 1, status, nargs;
	char **args;

	/* past a file-size limit (ulimit -f) a write fails with EFBIG and is reported */
	signal(SIGXFSZ, SIG_IGN);
	nvtxt_diag_config_init(&opt.diag);
	nvtxt_tconv_init(&opt.tconv);
	run.out = stdout;
	run.printer.out = stderr;
	run.printer.color = false;
	run.sink = (struct nvtxt_diag_sink){ &run.printer, nvtxt_text_printer_report };
	diag_output_prescan(&run, argc, argv);

	for (int i = 0; argc > 1 && i < N_SUBCOMMANDS; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0) {
			opt.cmd = &subcommands[i];
			first = 2;
		}
	args = argv + first - 1;
	nargs = argc - (first - 1);
	status = parse_options(&opt, nargs, args, &run.sink);
	if (status == 0)
		return 0; /* --help, --version, --list-checks: no diagnostics, no document */
	if (status > 0)
		return diag_output_finish(&run, argc, argv, status);
	problem = opt.cmd->validate ? opt.cmd->validate(&opt, nargs - optind) : NULL;
	if (!problem && opt.diag_output && !run.report)
		problem = "--diagnostics-output needs --diagnostics-format=json or sarif";
	if (problem)
		return diag_output_finish(&run, argc, argv, usage_error(&run.sink, "%s", problem));

	if (opt.color < 0) {
		const char *term = getenv("TERM");
		opt.color = isatty(2) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
	}
	run.printer.color = opt.color != 0;
	if (opt.jobs == 0)
		opt.jobs = usable_processors();
	status = opt.cmd->run(&run, args + optind, nargs - optind);
	if (!run.report && (run.totals.errors || run.totals.warnings)) {
		if (run.totals.errors)
			fprintf(stderr, "%lu error%s", run.totals.errors, run.totals.errors == 1 ? "" : "s");
		if (run.totals.warnings && run.totals.errors)
			fputs(" and ", stderr);
		if (run.totals.warnings)
			fprintf(stderr, "%lu warning%s", run.totals.warnings,
				run.totals.warnings == 1 ? "" : "s");
		fputs(" generated.\n", stderr);
	}
	status = finish_stdout(&run.sink, status);
	/* diagnostics that could not be written still end the run with status 2 */
	status = diag_output_finish(&run, argc, argv, status);
	if (fflush(stderr) != 0 || ferror(stderr))
		status = 2;
	return status;
}

int main(int argc, char **argv)
{
	static struct guard out_of_memory;

	/* the library returns ENOMEM; the driver's own allocations end here (util.h) */
	if (setjmp(out_of_memory.env)) {
		fputs("nvtxtc: out of memory\n", stderr);
		return 2;
	}
	guard_push(&out_of_memory);
	return nvtxtc_main(argc, argv);
}
