/*
 * cmd_fmt.c - nvtxtc fmt: lay each FILE out (src/backends/fmt.c) and print
 * it, list the files that would change (--check), or rewrite them in place
 * (-i, atomically).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "fmt.h"
#include "output.h"

static void ignore_diag(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user;
	(void)d;
	(void)src;
}

/*
 * fmt of a seekable input (a regular file, or standard input spooled) to
 * standard output, without writing the output anywhere but there: the
 * first pass formats into the formatter's 64 KiB buffer, holding it, and
 * prints it if the file has no syntax error.  When the output does not
 * fit, the first pass only checks the syntax (its diagnostics are the
 * ones printed), and a file without errors is read a second time and
 * formatted straight to standard output.  Closes fd.
 */
static int fmt_to_stdout(struct run *run, const char *path, int fd, const char *display)
{
	const struct options *opt = run->opt;
	const struct nvtxt_diag_sink quiet = { NULL, ignore_diag };
	struct totals again = { 0 };
	struct nvtxt_fmt *fmt = calloc(1, sizeof(*fmt));
	off_t start = lseek(fd, 0, SEEK_CUR);
	int status;

	if (!fmt) {
		io_error(&run->sink, NULL, "%s: %s", path, strerror(ENOMEM));
		close(fd);
		return 2;
	}
	fmt->hold = true;
	status = compile_one(opt, &run->sink, &run->totals, path, fd, display, NULL, fmt);
	if (status == 1) {
		driver_report(&run->sink, NVTXT_CHECK_SYNTAX, NVTXT_SEV_NOTE, display, "not formatted: it has syntax errors");
	} else if (status == 0 && !fmt->overflow) {
		if (fwrite(fmt->buf, 1, fmt->n, stdout) != fmt->n || fflush(stdout) != 0) {
			io_error(&run->sink, NULL, "writing standard output: %s", strerror(errno));
			status = 2;
		}
	} else if (status == 0 && lseek(fd, start, SEEK_SET) != start) {
		io_error(&run->sink, NULL, "%s: %s", path, strerror(errno));
		status = 2;
	} else if (status == 0) {
		*fmt = (struct nvtxt_fmt){ .out = stdout };
		status = compile_one(opt, &quiet, &again, path, fd, display, NULL, fmt);
		if (nvtxt_fmt_flush(fmt) != 0 || fflush(stdout) != 0) {
			io_error(&run->sink, NULL, "writing standard output: %s", strerror(errno));
			status = 2;
		} else if (status != 0) {
			io_error(&run->sink, NULL, "%s: the file changed or could not be read while it was formatted; the output is incomplete", path);
			status = 2;
		}
	}
	free(fmt);
	close(fd);
	return status;
}

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
	if (!opt->check && !opt->in_place && lseek(fd, 0, SEEK_CUR) >= 0)
		return fmt_to_stdout(run, path, fd, display);
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
