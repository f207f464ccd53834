/*
 * cmd_payload.c - nvtxtc dump FILE and nvtxtc replay FILE: a payload file
 * (nvtxt-payload(5)) printed for a person, or submitted to NVTX.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "progress.h"
#include "nvtxt/payload.h"
#ifdef NVTXTC_HAVE_NVTX
#include <dlfcn.h>
#include <stdlib.h>

#include "replay.h"
#endif

static bool pf_is_stdin(const struct payload_file *pf)
{
	return pf->fd == 0;
}

/*
 * After a format error in the header of a regular file: when its first
 * bytes are text (no control byte but tab, CR and LF), a note that it
 * looks like NVTXT, and how to make a payload file of it.
 */
static void hint_text(struct run *run, int fd, const char *path)
{
	unsigned char b[512];
	ssize_t n = pread(fd, b, sizeof b, 0);

	if (n <= 0)
		return;
	for (ssize_t i = 0; i < n; i++)
		if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r') || b[i] == 0x7f)
			return;
	nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_PAYLOAD_FORMAT, NVTXT_SEV_NOTE, path,
				    "it looks like NVTXT text, not a payload file: make one with "
				    "'nvtxtc --emit=payload -o FILE.payload %s'", path);
}

/* Opens the payload operand and checks its header; 0, or the exit status. */
static int load_operand(struct run *run, const char *path, struct payload_file *pf)
{
	bool is_stdin;
	int fd = open_input(path, &is_stdin, &run->sink);
	int status;

	if (fd < 0)
		return 2;
	progress_begin(fd, is_stdin ? "<stdin>" : path);
	status = payload_load(fd, NULL, 0, is_stdin ? "<stdin>" : path, pf, &run->sink);
	if (status == 1 && !is_stdin)
		hint_text(run, fd, path);
	if (status != 0) {
		progress_end(fd);
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
		write_error_stdout(&run->sink, errno);
		status = 2;
	} else if (rc != 0) {
		status = payload_report(&pf, rc, err, &run->sink);
	}
	progress_end(pf.fd);
	payload_free(&pf);
	if (!pf_is_stdin(&pf))
		close(pf.fd);
	return status;
}

#ifdef NVTXTC_HAVE_NVTX
/*
 * The NVTX tool that NVTX_INJECTION64_PATH names (NVTX's own loader,
 * nvtxInitDefault in nvtx3/nvtxDetail/nvtxInit.h, says nothing when it
 * cannot load it): a warning when none is named, an error (exit 2) when it
 * cannot be loaded or is no NVTX tool.  It stays loaded, for NVTX's dlopen
 * of the same path.  Returns 0, or 2.
 */
static int check_tool(struct run *run)
{
	const char *path = getenv("NVTX_INJECTION64_PATH");
	void *h;

	if (!path || !*path) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_WARNING, NULL,
					    "replay: no NVTX tool is attached (NVTX_INJECTION64_PATH is "
					    "not set): the events are submitted to NVTX and go nowhere");
		return 0;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		io_error(&run->sink, NULL, "replay: cannot load the NVTX tool of NVTX_INJECTION64_PATH: %s",
			 dlerror());
		return 2;
	}
	if (!dlsym(h, "InitializeInjectionNvtx2")) {
		io_error(&run->sink, NULL, "replay: '%s' (NVTX_INJECTION64_PATH) is not an NVTX tool: it "
			 "has no function InitializeInjectionNvtx2", path);
		dlclose(h);
		return 2;
	}
	return 0;
}
#endif

int run_replay(struct run *run, char **files, int nfiles)
{
	(void)nfiles;
#ifdef NVTXTC_HAVE_NVTX
	struct payload_file pf;
	char err[512];
	int status = check_tool(run), rc;

	if (status != 0)
		return status;
	status = load_operand(run, files[0], &pf);
	if (status != 0)
		return status;
	rc = nvtxt_replay(pf.r, files[0], err, sizeof err);
	if (rc == NVTXT_PAYLOAD_EFORMAT || (rc != 0 && strncmp(err, "read error", 10) == 0)) {
		status = payload_report(&pf, rc, err, &run->sink);
	} else if (rc != 0) {
		io_error(&run->sink, NULL, "replay: %s", err);
		status = 2;
	}
	progress_end(pf.fd);
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
