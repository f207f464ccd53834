/*
 * cmd_info.c - nvtxtc info [--format=text|json] FILE...: each file checked
 * like lint (diagnostics on standard error) with the info collector of
 * info.h as its back end; the facts of all the files make one report on
 * standard output, as text or as one JSON object (nvtxtc(1), INFO).
 */
#include <errno.h>
#include <string.h>

#include "driver.h"
#include "info.h"

int run_info(struct run *run, char **files, int nfiles)
{
	struct options *opt = run->opt;
	struct nvtxt_info *info = nvtxt_info_new(&opt->tconv);
	struct nvtxt_backend be = nvtxt_info_backend(info);
	const char *display = NULL;
	int worst = 0;

	opt->read_ahead = opt->jobs >= 2;
	for (int i = 0; i < nfiles; i++) {
		int status;

		display = input_display(opt, files[i]);
		nvtxt_info_file(info, display);
		status = check_file(opt, &run->sink, &run->totals, files[i], &be, NULL);
		if (status > worst)
			worst = status;
	}
	/* the events that passed the checks, as lint's exit status says */
	if (worst < 2) {
		if (opt->info_json) {
			json_t *doc = nvtxt_info_json(info, display);
			if (!doc || json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 ||
			    putchar('\n') == EOF) {
				write_error_stdout(&run->sink, errno);
				worst = 2;
			}
			json_decref(doc);
		} else if (nvtxt_info_print(info, display, stdout) != 0) {
			worst = 2;
		}
	}
	nvtxt_info_free(info);
	return worst;
}
