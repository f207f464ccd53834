/*
 * cmd_payload.c - nvtxtc dump FILE and nvtxtc replay FILE: a payload file
 * (nvtxt-payload(5)) printed for a person, or submitted to NVTX.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "payload.h"
#ifdef NVTXTC_HAVE_NVTX
#include "replay.h"
#endif

/* Opens and validates the payload operand; 0, or the exit status. */
static int load_operand(struct run *run, const char *path, struct payload_file *pf)
{
	bool is_stdin;
	int fd = open_input(path, &is_stdin, &run->sink);
	int status;

	if (fd < 0)
		return 2;
	status = payload_load(fd, NULL, 0, is_stdin ? "<stdin>" : path, pf, &run->sink);
	if (!is_stdin)
		close(fd);
	if (status != 0)
		payload_free(pf);
	return status;
}

int run_dump(struct run *run, char **files, int nfiles)
{
	struct payload_file pf;
	int status;

	(void)nfiles;
	status = load_operand(run, files[0], &pf);
	if (status != 0)
		return status;
	if (nvtxt_payload_dump(pf.r, stdout) != 0) {
		io_error(&run->sink, NULL, "writing standard output: %s", strerror(errno));
		status = 2;
	}
	payload_free(&pf);
	return status;
}

int run_replay(struct run *run, char **files, int nfiles)
{
	(void)nfiles;
#ifdef NVTXTC_HAVE_NVTX
	struct payload_file pf;
	char err[512];
	int status = load_operand(run, files[0], &pf);

	if (status != 0)
		return status;
	if (nvtxt_replay(pf.r, files[0], err, sizeof err) != 0) {
		io_error(&run->sink, NULL, "replay: %s", err);
		status = 2;
	}
	payload_free(&pf);
	return status;
#else
	(void)files;
	nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL, "replay: nvtxtc was built without the NVTX headers "
		     "(configure --with-nvtx=DIR)");
	return 2;
#endif
}
