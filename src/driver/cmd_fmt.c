/*
 * cmd_fmt.c - nvtxtc fmt: lay each FILE out (src/backends/fmt.c) and print
 * it, list the files that would change (--check), or rewrite them in place
 * (-i, atomically).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "fmt.h"
#include "output.h"

static int fmt_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	bool is_stdin;
	const char *display;
	int fd = open_input(path, &is_stdin, &run->sink);
	struct nvtxt_fmt fmt = { 0 };
	FILE *tmp;
	int status;

	if (fd < 0)
		return 2;
	if (is_stdin) {
		if (opt->in_place) {
			driver_report(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL, "-i cannot rewrite standard input");
			return 2;
		}
		fd = spool_stdin();
		if (fd < 0) {
			io_error(&run->sink, NULL, "cannot read standard input: %s", strerror(errno));
			return 2;
		}
	}
	display = input_display(opt, path);
	tmp = tmpfile();
	if (!tmp) {
		io_error(&run->sink, NULL, "cannot create a temporary file: %s", strerror(errno));
		close(fd);
		return 2;
	}
	fmt.out = tmp;
	status = compile_one(opt, &run->sink, &run->totals, path, fd, display, NULL, &fmt);
	nvtxt_fmt_flush(&fmt);
	if (fflush(tmp) != 0 || ferror(tmp)) {
		io_error(&run->sink, NULL, "writing a temporary file: %s", strerror(errno));
		status = 2;
	}
	if (status != 0) {
		if (status == 1)
			driver_report(&run->sink, NVTXT_CHECK_SYNTAX, NVTXT_SEV_NOTE, display, "not formatted: it has syntax errors");
	} else if (opt->check) {
		if (!same_contents(fd, tmp)) {
			printf("%s\n", display);
			status = 1;
		}
	} else if (opt->in_place) {
		if (!same_contents(fd, tmp)) {
			struct nvtxt_output out;
			if (output_open(&out, path) != 0 || copy_stream(tmp, out.file) != 0) {
				io_error(&run->sink, NULL, "cannot write '%s': %s", path, strerror(errno));
				if (out.file)
					output_abort(&out);
				status = 2;
			} else if (output_commit(&out) != 0) {
				io_error(&run->sink, NULL, "cannot write '%s': %s", path, strerror(errno));
				status = 2;
			}
		}
	} else if (copy_stream(tmp, stdout) != 0) {
		io_error(&run->sink, NULL, "writing standard output: %s", strerror(errno));
		status = 2;
	}
	fclose(tmp);
	close(fd);
	return status;
}

int run_fmt(struct run *run, char **files, int nfiles)
{
	int worst = 0;

	run->opt->read_ahead = run->opt->jobs >= 2;
	for (int i = 0; i < nfiles; i++) {
		int status = fmt_one(run, files[i]);
		if (status > worst)
			worst = status;
	}
	return worst;
}
