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

static bool pf_is_stdin(const struct payload_file *pf)
{
	return pf->fd == 0;
}

/* Opens the payload operand and checks its header; 0, or the exit status. */
static int load_operand(struct run *run, const char *path, struct payload_file *pf)
{
	bool is_stdin;
	int fd = open_input(path, &is_stdin, &run->sink);
	int status;

	if (fd < 0)
		return 2;
	status = payload_load(fd, NULL, 0, is_stdin ? "<stdin>" : path, pf, &run->sink);
	if (status != 0) {
		payload_free(pf);
		if (!is_stdin)
			close(fd);
	}
	return status;
}

int run_dump(struct run *run, char **files, int nfiles)
{
	struct payload_file pf;
	int status;

	(void)nfiles;
	char err[512];
	int rc;

	status = load_operand(run, files[0], &pf);
	if (status != 0)
		return status;
	rc = nvtxt_payload_dump(pf.r, stdout, err, sizeof err);
	if (rc == NVTXT_PAYLOAD_EIO && ferror(stdout)) {
		io_error(&run->sink, NULL, "writing standard output: %s", strerror(errno));
		status = 2;
	} else if (rc != 0) {
		status = payload_report(&pf, rc, err, &run->sink);
	}
	payload_free(&pf);
	if (!pf_is_stdin(&pf))
		close(pf.fd);
	return status;
}

int run_replay(struct run *run, char **files, int nfiles)
{
	(void)nfiles;
#ifdef NVTXTC_HAVE_NVTX
	struct payload_file pf;
	char err[512];
	int status = load_operand(run, files[0], &pf), rc;

	if (status != 0)
		return status;
	rc = nvtxt_replay(pf.r, files[0], err, sizeof err);
	if (rc == NVTXT_PAYLOAD_EFORMAT || (rc != 0 && strncmp(err, "read error", 10) == 0)) {
		status = payload_report(&pf, rc, err, &run->sink);
	} else if (rc != 0) {
		io_error(&run->sink, NULL, "replay: %s", err);
		status = 2;
	}
	payload_free(&pf);
	if (!pf_is_stdin(&pf))
		close(pf.fd);
	return status;
#else
	(void)files;
	nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL, "replay: nvtxtc was built without the NVTX headers "
		     "(configure --with-nvtx=DIR)");
	return 2;
#endif
}
