/*
 * cmd_info.c - nvtxtc info [--format=text|json] FILE...: each file checked
 * like lint (diagnostics on standard error) with the info collector of
 * info.h as its back end; the facts go to standard output, as text one
 * file after the other, or as one JSON object {"files": [...]} at the end
 * (nvtxtc(1), INFO).
 */
#include <errno.h>
#include <string.h>

#include "driver.h"
#include "info.h"

int run_info(struct run *run, char **files, int nfiles)
{
	struct options *opt = run->opt;
	json_t *all = opt->info_json ? json_array() : NULL;
	int worst = 0;

	opt->read_ahead = opt->jobs >= 2;
	for (int i = 0; i < nfiles; i++) {
		struct nvtxt_info *info = nvtxt_info_new(&opt->tconv);
		struct nvtxt_backend be = nvtxt_info_backend(info);
		const char *display = input_display(opt, files[i]);
		int status = check_file(opt, &run->sink, &run->totals, files[i], &be, NULL);

		if (status < 2) {
			if (all) {
				json_t *one = nvtxt_info_json(info, display);
				if (!one || json_array_append_new(all, one) != 0)
					status = 2;
			} else {
				if (i > 0)
					putchar('\n');
				if (nvtxt_info_print(info, display, stdout) != 0)
					status = 2;
			}
		}
		nvtxt_info_free(info);
		if (status > worst)
			worst = status;
	}
	if (all) {
		json_t *doc = json_object();
		if (!doc || json_object_set_new(doc, "files", all) != 0 ||
		    json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0 || putchar('\n') == EOF) {
			write_error_stdout(&run->sink, errno);
			worst = 2;
		}
		json_decref(doc);
	}
	return worst;
}
