/*
 * cmd_fmt.c - nvtxtc fmt: lay each FILE out (src/backends/fmt.c) and print
 * it; or list the files that would change (--check, -l), print how as a
 * unified diff (-d), or rewrite them in place (-i, atomically).
 * Directories are walked for *.nvtxt files; -j formats several at once.
 */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"
#include "nvtxt/payload.h"
#include "progress.h"
#include "fmt.h"
#include "journal.h"
#include "output.h"

extern char **environ;

/*
 * Prints `diff -u` of the file on fd (the input) and the text of tmp to
 * run->out, labelled FILE.orig and FILE as gofmt -d does.  Returns 0, or 2
 * when diff could not be run (reported).
 */
static int print_diff(struct run *run, int fd, FILE *tmp, const char *display)
{
	char a[64], b[64], *label_a;
	int pipefd[2], status = 0, wst;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	ssize_t n;
	char buf[65536];
	size_t la = strlen(display) + 6;

	snprintf(a, sizeof a, "/dev/fd/%d", fd);
	snprintf(b, sizeof b, "/dev/fd/%d", fileno(tmp));
	label_a = malloc(la);
	if (!label_a || pipe(pipefd) != 0) {
		free(label_a);
		io_error(&run->sink, NULL, "cannot run diff: %s", strerror(errno));
		return 2;
	}
	snprintf(label_a, la, "%s.orig", display);
	{
		char *argv[] = { "diff", "-u", "--label", label_a, "--label", (char *)display, a, b, NULL };
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
		posix_spawn_file_actions_addclose(&fa, pipefd[0]);
		errno = posix_spawnp(&pid, "diff", &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(pipefd[1]);
	if (errno) {
		io_error(&run->sink, NULL, "cannot run diff: %s", strerror(errno));
		close(pipefd[0]);
		free(label_a);
		return 2;
	}
	while ((n = read(pipefd[0], buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		fwrite(buf, 1, (size_t)n, run->out);
	}
	close(pipefd[0]);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(wst) || WEXITSTATUS(wst) > 1) {
		io_error(&run->sink, NULL, "diff failed on '%s'", display);
		status = 2;
	}
	free(label_a);
	return status;
}

/* The spool of fmt to standard output: made when the text outgrows the formatter's buffer. */
struct spool {
	FILE *f;
	const char *dir;
	int err;
};

static FILE *open_spool(void *user)
{
	struct spool *s = user;

	s->f = temp_stream(&s->dir);
	if (!s->f)
		s->err = errno;
	else
		setvbuf(s->f, NULL, _IONBF, 0); /* the formatter writes 64 KiB at a time */
	return s->f;
}

/*
 * Whether fmt may print a file's text to standard output as it goes and
 * take it back after an error instead of holding it: standard output is
 * /dev/null (nothing to take back: *start is -1), or a regular file that
 * fmt alone writes at its end (its offset is its size, it is neither the
 * input in_fd nor standard error's file): *start is that size, in bytes,
 * to truncate the file back to.  Flushes out first (its offset is the
 * file's then).  A pipe, a terminal or a job's buffer: false (held).
 */
static bool stdout_takes_back(FILE *out, int in_fd, off_t *start)
{
	struct stat so, si, se;
	int fd = fileno(out);
	off_t pos;

	if (fd < 0 || fflush(out) != 0 || fstat(fd, &so) != 0)
		return false;
	if (S_ISCHR(so.st_mode)) {
		struct stat null;
		*start = -1;
		return stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) && so.st_rdev == null.st_rdev;
	}
	if (!S_ISREG(so.st_mode) || fstat(in_fd, &si) != 0 || (si.st_dev == so.st_dev && si.st_ino == so.st_ino))
		return false;
	if (fstat(STDERR_FILENO, &se) == 0 && se.st_dev == so.st_dev && se.st_ino == so.st_ino)
		return false;
	pos = lseek(fd, 0, SEEK_CUR);
	if (pos < 0 || pos != so.st_size)
		return false;
	*start = pos;
	return true;
}

/*
 * fmt to standard output when it can take the text back
 * (stdout_takes_back): printed as it is made, and after an error
 * (status 1 or 2) the file is truncated back to start, so it holds
 * nothing of this input, as when the text is held.  Returns the status.
 */
static int fmt_taken_back(struct run *run, const char *path, int fd, const char *display, off_t start)
{
	struct nvtxt_fmt *fmt = calloc(1, sizeof(*fmt));
	int status, out = fileno(run->out);

	if (!fmt) {
		io_error(&run->sink, NULL, "%s: %s", path, strerror(ENOMEM));
		return 2;
	}
	fmt->out = run->out;
	status = compile_one(run->opt, &run->sink, &run->totals, path, fd, display, NULL, fmt, NULL);
	if (nvtxt_fmt_flush(fmt) != 0 || fflush(run->out) != 0) {
		if (status == 0)
			write_error_stdout(&run->sink, errno);
		status = 2;
	}
	if (status == 1)
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_SYNTAX, NVTXT_SEV_NOTE, display,
					    "not formatted: it has syntax errors");
	if (status != 0 && start >= 0 && (ftruncate(out, start) != 0 || lseek(out, start, SEEK_SET) < 0)) {
		io_error(&run->sink, NULL, "cannot take back the text of '%s' from standard output: %s",
			 display, strerror(errno));
		status = 2;
	}
	clearerr(run->out);
	free(fmt);
	return status;
}

/*
 * fmt to standard output, in one pass that prints nothing of a file with
 * a syntax error: printed as it is made when standard output can take it
 * back (fmt_taken_back); else the text is held in the formatter's buffer
 * (64 KiB) and, when it outgrows it, spooled to an unnamed temporary file
 * in $TMPDIR (else /tmp), which is copied to standard output once the
 * whole file is formatted without an error.  Closes fd.
 */
static int fmt_to_stdout(struct run *run, const char *path, int fd, const char *display)
{
	struct nvtxt_fmt *fmt = calloc(1, sizeof(*fmt));
	struct spool spool = { 0 };
	int status, werr = 0;
	off_t start;

	if (fmt && stdout_takes_back(run->out, fd, &start)) {
		free(fmt);
		status = fmt_taken_back(run, path, fd, display, start);
		close(fd);
		return status;
	}
	if (!fmt) {
		io_error(&run->sink, NULL, "%s: %s", path, strerror(ENOMEM));
		close(fd);
		return 2;
	}
	fmt->hold = true;
	fmt->spill = open_spool;
	fmt->spill_user = &spool;
	status = compile_one(run->opt, &run->sink, &run->totals, path, fd, display, NULL, fmt, NULL);
	if (spool.f && (nvtxt_fmt_flush(fmt) != 0 || fflush(spool.f) != 0))
		werr = errno ? errno : EIO;
	if (status == 1) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_SYNTAX, NVTXT_SEV_NOTE, display, "not formatted: it has syntax errors");
	} else if (status == 0 && fmt->overflow) {
		io_error(&run->sink, NULL, "cannot create a temporary file in '%s' for the formatted text of '%s': %s",
			 spool.dir, display, strerror(spool.err));
		status = 2;
	} else if (status == 0 && werr) {
		io_error(&run->sink, NULL, "cannot write the formatted text of '%s' to a temporary file (unnamed, in '%s'): %s",
			 display, spool.dir, strerror(werr));
		status = 2;
	} else if (status == 0 && (spool.f ? copy_stream(spool.f, run->out) != 0 || fflush(run->out) != 0
				    : fwrite(fmt->buf, 1, fmt->n, run->out) != fmt->n || fflush(run->out) != 0)) {
		write_error_stdout(&run->sink, errno);
		status = 2;
	}
	if (spool.f)
		fclose(spool.f);
	free(fmt);
	close(fd);
	return status;
}

/*
 * fmt -i of path (not standard input): false when it cannot be rewritten
 * (reported).  A FIFO or a device cannot be (and would be read and
 * written at once); the journal of an interrupted write of it is dealt
 * with first (journal_recover: its previous text back).
 */
static bool may_rewrite(struct run *run, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_ERROR, NULL,
			      "-i cannot rewrite '%s': it is not a regular file (%s)", path,
			      S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
		return false;
	}
	if (journal_recover(&run->sink, path) != 0) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, path, "not formatted");
		return false;
	}
	return true;
}

/*
 * A file fmt does not read: a payload file (nvtxt-payload(5)), or one that
 * is not text (not_text).  Its one error says why, without the note "not
 * formatted: it has syntax errors" that follows the errors of a text, as
 * gcc and gofmt say a binary file's error once.  fd: a regular file, read
 * from its current offset.
 */
static bool not_nvtxt_text(struct run *run, int fd, const char *display)
{
	unsigned char probe[TEXT_PROBE];
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t n = pos >= 0 ? pread(fd, probe, sizeof probe, pos) : -1;

	if (n >= 8 && nvtxt_payload_sniff(probe, 8)) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_ENCODING, NVTXT_SEV_ERROR, display,
					    "a payload file (nvtxt-payload(5)), not NVTXT text: fmt lays out text; "
					    "nvtxtc --emit=nvtxt FILE prints a payload's events as text");
		count_input_error(&run->sink, &run->totals, display);
		return true;
	}
	return n > 0 && not_text(&run->sink, &run->totals, display, probe, (size_t)n);
}

/*
 * fmt --check, -l, -d or -i of fd (a regular file): its formatted text in
 * an unnamed temporary file, compared with fd, and the file listed, its
 * diff printed or rewritten when they differ.  Leaves fd open.
 */
static int fmt_compared(struct run *run, const char *path, int fd, const char *display)
{
	const struct options *opt = run->opt;
	struct nvtxt_fmt fmt = { 0 };
	const char *tmpdir;
	FILE *tmp = temp_stream(&tmpdir);
	int status;

	if (!tmp) {
		io_error(&run->sink, NULL, "cannot create a temporary file in '%s' for the formatted text of '%s': %s",
			 tmpdir, display, strerror(errno));
		return 2;
	}
	fmt.out = tmp;
	status = compile_one(opt, &run->sink, &run->totals, path, fd, display, NULL, &fmt, NULL);
	nvtxt_fmt_flush(&fmt);
	if (fflush(tmp) != 0 || ferror(tmp)) {
		io_error(&run->sink, NULL, "cannot write the formatted text of '%s' to a temporary file (unnamed, in '%s'): %s",
			 display, tmpdir, strerror(errno));
		status = 2;
	}
	if (status == 1)
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_SYNTAX, NVTXT_SEV_NOTE, display,
					    "not formatted: it has syntax errors");
	if (status != 0 || same_contents(fd, tmp)) {
		fclose(tmp);
		return status;
	}
	if (opt->check || opt->list)
		fprintf(run->out, "%s\n", display);
	if (opt->diff)
		status = print_diff(run, fd, tmp, display);
	if (opt->in_place)
		status = rewrite_file(&run->sink, path, tmp);
	else if (status == 0)
		status = 1;
	fclose(tmp);
	return status;
}

static int fmt_input(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	bool is_stdin;
	const char *display;
	struct stat st;
	int fd, status;

	if (opt->in_place && strcmp(path, "-") != 0 && !may_rewrite(run, path))
		return 2;
	fd = open_input(path, &is_stdin, &run->sink);
	if (fd < 0)
		return 2;
	if (is_stdin && opt->in_place) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL,
			      "-i cannot rewrite standard input");
		return 2;
	}
	if (is_stdin || (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode))) {
		/* standard input, a pipe or a FIFO: read once into a file that can be read again */
		int spooled = spool_fd(fd);
		if (!is_stdin)
			close(fd);
		fd = spooled;
		if (fd < 0) {
			io_error(&run->sink, NULL, "cannot read '%s': %s", input_display(opt, path),
				 strerror(errno));
			return 2;
		}
	}
	display = input_display(opt, path);
	report_size(&run->sink, display, fd);
	if (not_nvtxt_text(run, fd, display)) {
		close(fd);
		return 1;
	}
	progress_begin(fd, display);
	if (!opt->check && !opt->list && !opt->diff && !opt->in_place) {
		status = fmt_to_stdout(run, path, fd, display);
		progress_end(fd);
		return status;
	}
	status = fmt_compared(run, path, fd, display);
	progress_end(fd);
	close(fd);
	return status;
}

/* fmt --recover: each file's journal put back or discarded (journal_recover). */
static int recover_files(struct run *run, char **files, int nfiles)
{
	int worst = 0;

	for (int i = 0; i < nfiles; i++) {
		int status = 2;
		if (strcmp(files[i], "-") == 0)
			nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_ERROR, NULL,
						    "--recover puts a file back from its journal: it takes no standard input");
		else
			status = journal_recover(&run->sink, files[i]);
		if (status > worst)
			worst = status;
	}
	return worst;
}

/* One input: its entry of a JSON or SARIF document, in command-line order, even if it cannot be read. */
static int fmt_one(struct run *run, const char *path)
{
	if (run->report)
		nvtxt_report_input(run->report, input_display(run->opt, path), input_unnamed(run->opt, path));
	return fmt_input(run, path);
}

int run_fmt(struct run *run, char **operands, int n)
{
	struct options *opt = run->opt;
	char **files;
	int nfiles, worst, status;
	/* printing whole files: one at a time, so that no file waits in memory for its turn */
	long threads = !opt->check && !opt->list && !opt->diff && !opt->in_place ? 1 : opt->jobs;

	worst = expand_operands(&run->sink, operands, n, &files, &nfiles);
	if (opt->recover) {
		status = recover_files(run, files, nfiles);
		free_files(files, nfiles);
		return status > worst ? status : worst;
	}
	/* what killed runs left: reported, or removed by -i (journals: by fmt_one) */
	leftovers_report(&run->sink, files, nfiles, opt->in_place);
	opt->read_ahead = opt->jobs >= 2 * (threads < nfiles ? threads : nfiles);
	/* input, its formatted text, and for -i the directory, the temporary and the target */
	status = run_jobs(run, files, nfiles, threads, 6, fmt_one);
	free_files(files, nfiles);
	return status > worst ? status : worst;
}
