/*
 * diag_output.c - --diagnostics-format=text|json|sarif (and GCC's
 * -fdiagnostics-format=...) and --diagnostics-output=FILE: with JSON or
 * SARIF, every diagnostic of the run, the driver's usage and I/O errors
 * included, is kept in one struct nvtxt_report and written as one
 * document at the end of the run (src/diag/diag_json.c, diag_sarif.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "output.h"

#ifndef NVTXTC_VERSION
#define NVTXTC_VERSION "0.1"
#endif

#define GCC_PREFIX "diagnostics-format="

const char *diag_format_option(struct options *o, const char *arg, bool gcc)
{
	if (gcc) {
		if (strncmp(arg, GCC_PREFIX, strlen(GCC_PREFIX)) != 0)
			return "unknown option '-f': nvtxtc takes GCC's -fdiagnostics-format=text, json or sarif "
			       "and -fdiagnostics-color=WHEN";
		arg += strlen(GCC_PREFIX);
		o->format_to_stderr = true;
		if (strcmp(arg, "text") == 0)
			o->format = DIAG_TEXT;
		else if (strcmp(arg, "json") == 0 || strcmp(arg, "json-stderr") == 0)
			o->format = DIAG_JSON;
		else if (strcmp(arg, "sarif") == 0 || strcmp(arg, "sarif-stderr") == 0)
			o->format = DIAG_SARIF;
		else
			return "-fdiagnostics-format expects text, json or sarif (or json-stderr, sarif-stderr) "
			       "(nvtxtc writes no json-file or sarif-file: use --diagnostics-output=FILE)";
		return NULL;
	}
	o->format_to_stderr = false;
	if (strcmp(arg, "text") == 0)
		o->format = DIAG_TEXT;
	else if (strcmp(arg, "json") == 0)
		o->format = DIAG_JSON;
	else if (strcmp(arg, "sarif") == 0)
		o->format = DIAG_SARIF;
	else
		return "--diagnostics-format expects text, json or sarif";
	return NULL;
}

bool is_report_sink(const struct nvtxt_diag_sink *sink)
{
	return sink->report == nvtxt_report_sink;
}

void diag_output_prescan(struct run *run, int argc, char **argv)
{
	struct options probe = { 0 };
	static struct nvtxt_report report;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (strncmp(a, "--diagnostics-format=", 21) == 0)
			diag_format_option(&probe, a + 21, false);
		else if (strcmp(a, "--diagnostics-format") == 0 && i + 1 < argc)
			diag_format_option(&probe, argv[++i], false);
		else if (strncmp(a, "-f" GCC_PREFIX, 2 + strlen(GCC_PREFIX)) == 0)
			diag_format_option(&probe, a + 2, true);
	}
	run->opt->format = probe.format;
	run->opt->format_to_stderr = probe.format_to_stderr;
	if (probe.format == DIAG_TEXT)
		return;
	nvtxt_report_init(&report);
	run->report = &report;
	run->sink = (struct nvtxt_diag_sink){ &report, nvtxt_report_sink };
}

/* True when this run writes nothing on standard output but the document. */
static bool stdout_is_free(const struct options *o)
{
	if (o->format_to_stderr)
		return false;
	if (strcmp(o->cmd->name, "lint") == 0)
		return o->fix ? true
			      : !(o->emit && o->emit->start && (!o->output || strcmp(o->output, "-") == 0));
	if (strcmp(o->cmd->name, "fmt") == 0)
		return o->in_place && !o->check && !o->list && !o->diff;
	return strcmp(o->cmd->name, "replay") == 0;
}

static int write_doc(const struct run *run, const struct nvtxt_report_run *info, FILE *out)
{
	return run->opt->format == DIAG_SARIF ? nvtxt_report_write_sarif(run->report, info, out)
					      : nvtxt_report_write_json(run->report, info, out);
}

/* The --diagnostics-output file could not be written: said on stderr, as no report can. */
static void cannot_write(const char *path, int err, const char *detail)
{
	fprintf(stderr, "nvtxtc: error: cannot write '%s': %s%s [io-error]\n", path, strerror(err), detail);
}

int diag_output_finish(struct run *run, int argc, char **argv, int status)
{
	struct nvtxt_report_run info = { NVTXTC_VERSION, status, argc, argv };
	const struct options *o = run->opt;
	FILE *to;

	if (!run->report)
		return status;
	if (o->diag_output) {
		struct nvtxt_output out;
		if (output_open(&out, o->diag_output) != 0) {
			cannot_write(o->diag_output, errno, "");
			nvtxt_report_free(run->report);
			return 2;
		}
		if (write_doc(run, &info, out.file) != 0) {
			cannot_write(o->diag_output, errno ? errno : EIO, "");
			output_abort(&out);
			status = 2;
		} else if (output_commit(&out) != 0) {
			cannot_write(o->diag_output, errno, out.detail);
			status = 2;
		}
		nvtxt_report_free(run->report);
		return status;
	}
	to = stdout_is_free(o) ? stdout : stderr;
	if (write_doc(run, &info, to) != 0) {
		if (to == stdout)
			fprintf(stderr, "nvtxtc: error: cannot write standard output: %s [io-error]\n",
				strerror(errno ? errno : EIO));
		status = 2;
	}
	nvtxt_report_free(run->report);
	return status;
}
