/*
 * progress.c - the progress line of a long command (progress.h).
 *
 * A thread per input shown wakes after PROGRESS_DELAY_MS, then every
 * PROGRESS_EVERY_MS, reads the input's file offset (lseek SEEK_CUR: the
 * bytes read so far, the read-ahead's included) and redraws the line with
 * a carriage return, padding with blanks what the previous line had more
 * (no terminal escape sequences, so a dumb terminal shows it too).  The
 * line and the diagnostics share one lock: a diagnostic erases the line
 * first, and the next tick draws it again under the diagnostic.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

enum { PROGRESS_DELAY_MS = 1000, PROGRESS_EVERY_MS = 250, PROGRESS_MAX = 200 };

static struct {
	bool enabled;
	struct nvtxt_diag_sink inner;  /* the sink diagnostics go on to */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* under lock */
	bool active;                   /* an input is shown (or waits for its first second) */
	bool stop;
	int fd;
	const char *name;
	uint64_t size;
	struct timespec start;
	size_t drawn;                  /* the width of the line on the terminal, 0: none */
	pthread_t thread;
} P = { .lock = PTHREAD_MUTEX_INITIALIZER };

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* Erases the line (under lock). */
static void erase(void)
{
	char blanks[PROGRESS_MAX + 2];

	if (!P.drawn)
		return;
	blanks[0] = '\r';
	memset(blanks + 1, ' ', P.drawn);
	blanks[P.drawn + 1] = '\r';
	fwrite(blanks, 1, P.drawn + 2, stderr);
	fflush(stderr);
	P.drawn = 0;
}

/* The terminal's width, at most PROGRESS_MAX + 1 (80 when stderr is no terminal). */
static size_t width(void)
{
	struct winsize ws;

	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col > PROGRESS_MAX + 1 ? PROGRESS_MAX + 1 : ws.ws_col;
	return 80;
}

/* "1:02:03" */
static void clock_text(char *s, size_t n, double secs)
{
	unsigned long t = secs > 359999 ? 359999 : (unsigned long)(secs + 0.5);
	snprintf(s, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

/* Draws the line (under lock). */
static void draw(void)
{
	char line[PROGRESS_MAX + 64], left[32], tail[128];
	off_t pos = lseek(P.fd, 0, SEEK_CUR);
	double secs = seconds_since(&P.start), rate;
	size_t n, max = width() - 1, name_len = strlen(P.name), prev = P.drawn;

	if (pos < 0)
		return;
	if ((uint64_t)pos > P.size)
		pos = (off_t)P.size;
	rate = secs > 0 ? (double)pos / secs : 0;
	if (rate > 0)
		clock_text(left, sizeof left, (double)(P.size - (uint64_t)pos) / rate);
	else
		snprintf(left, sizeof left, "?");
	snprintf(tail, sizeof tail, ": %.1f MB of %.1f MB (%d%%), %.1f MB/s, %s left", (double)pos / 1e6,
		 (double)P.size / 1e6, (int)((double)pos * 100 / (double)P.size), rate / 1e6, left);
	n = strlen(tail);
	if (n >= max)
		return;
	/* a long name loses its start: "...end/of/the/name.nvtxt" */
	if (name_len + n > max)
		snprintf(line, sizeof line, "...%s%s", P.name + name_len - (max - n - 3), tail);
	else
		snprintf(line, sizeof line, "%s%s", P.name, tail);
	n = strlen(line);
	fputc('\r', stderr);
	fwrite(line, 1, n, stderr);
	while (prev-- > n)
		fputc(' ', stderr);
	fflush(stderr);
	P.drawn = n > P.drawn ? n : P.drawn;
}

static void add_ms(struct timespec *t, long ms)
{
	t->tv_nsec += ms % 1000 * 1000000L;
	t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

static void *progress_main(void *arg)
{
	struct timespec next = P.start;

	(void)arg;
	pthread_mutex_lock(&P.lock);
	add_ms(&next, PROGRESS_DELAY_MS);
	while (!P.stop) {
		if (pthread_cond_timedwait(&P.wake, &P.lock, &next) != ETIMEDOUT)
			continue;
		draw();
		add_ms(&next, PROGRESS_EVERY_MS);
	}
	pthread_mutex_unlock(&P.lock);
	return NULL;
}

/* The sink in front of the run's while progress may be shown. */
static void progress_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user;
	pthread_mutex_lock(&P.lock);
	erase();
	P.inner.report(P.inner.user, d, src);
	pthread_mutex_unlock(&P.lock);
}

void progress_setup(struct run *run)
{
	const struct options *o = run->opt;
	pthread_condattr_t attr;

	if (o->progress == 0 || o->format != DIAG_TEXT || run->report || strcmp(o->cmd->name, "lsp") == 0)
		return;
	if (o->progress < 0 && !isatty(2))
		return;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&P.wake, &attr);
	pthread_condattr_destroy(&attr);
	P.enabled = true;
	P.inner = run->sink;
	run->sink = (struct nvtxt_diag_sink){ NULL, progress_report };
}

void progress_begin(int fd, const char *name)
{
	struct stat st;

	if (!P.enabled || fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return;
	pthread_mutex_lock(&P.lock);
	if (!P.active) {
		P.fd = fd;
		P.name = name;
		P.size = (uint64_t)st.st_size;
		P.stop = false;
		clock_gettime(CLOCK_MONOTONIC, &P.start);
		P.active = pthread_create(&P.thread, NULL, progress_main, NULL) == 0;
	}
	pthread_mutex_unlock(&P.lock);
}

void progress_end(int fd)
{
	if (!P.enabled)
		return;
	pthread_mutex_lock(&P.lock);
	if (!P.active || P.fd != fd) {
		pthread_mutex_unlock(&P.lock);
		return;
	}
	P.stop = true;
	pthread_cond_signal(&P.wake);
	pthread_mutex_unlock(&P.lock);
	pthread_join(P.thread, NULL);
	pthread_mutex_lock(&P.lock);
	erase();
	P.active = false;
	pthread_mutex_unlock(&P.lock);
}

void progress_hold(void)
{
	if (!P.enabled)
		return;
	pthread_mutex_lock(&P.lock);
	erase();
}

void progress_release(void)
{
	if (P.enabled)
		pthread_mutex_unlock(&P.lock);
}
