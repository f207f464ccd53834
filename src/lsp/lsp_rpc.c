/*
 * lsp_rpc.c - the transport of the language server: messages framed with a
 * Content-Length header on standard input and output (LSP 3.17, "Base
 * Protocol"), JSON-RPC 2.0 responses and notifications, and the stdio loop
 * with the reason it stops.  Dispatch is in lsp_server.c.
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lsp_int.h"

/* --- output -------------------------------------------------------------- */

static void send(struct lsp_server *s, json_t *msg)
{
	char *body;

	json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	body = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!body)
		return;
	fprintf(s->out, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	fflush(s->out);
	free(body);
}

void lsp_respond(struct lsp_server *s, json_t *id, json_t *result)
{
	send(s, json_pack("{s:O,s:o}", "id", id ? id : json_null(), "result", result ? result : json_null()));
}

void lsp_respond_error(struct lsp_server *s, json_t *id, int code, const char *message)
{
	send(s, json_pack("{s:O,s:{s:i,s:o}}", "id", id ? id : json_null(), "error", "code", code,
			  "message", lsp_jstr(message, strlen(message))));
}

void lsp_notify(struct lsp_server *s, const char *method, json_t *params)
{
	send(s, json_pack("{s:s,s:o}", "method", method, "params", params));
}

void lsp_log_message(struct lsp_server *s, int type, const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	lsp_notify(s, "window/logMessage",
		   json_pack("{s:i,s:o}", "type", type, "message", lsp_jstr(b.ptr, b.len)));
	buf_free(&b);
}

/* --- framing ------------------------------------------------------------- */

/* The Content-Length of a header block, and its digits as they were sent. */
struct header {
	long long length;       /* capped just above LSP_MAX_MESSAGE */
	const char *digits;
	size_t ndigits;
};

/* The value of a Content-Length line, [v, eol); false with a message in err. */
static bool parse_length(const char *v, const char *eol, struct header *h, char *err, size_t errlen)
{
	long long x = 0;

	while (v < eol && (*v == ' ' || *v == '\t'))
		v++;
	if (v == eol) {
		snprintf(err, errlen, "Content-Length has no value");
		return false;
	}
	h->digits = v;
	for (; v < eol && *v >= '0' && *v <= '9'; v++)
		if (x <= (long long)LSP_MAX_MESSAGE)
			x = x * 10 + (*v - '0');
	h->ndigits = (size_t)(v - h->digits);
	while (v < eol && (*v == ' ' || *v == '\t'))
		v++;
	if (v != eol || h->ndigits == 0) {
		snprintf(err, errlen, "Content-Length is not a number");
		return false;
	}
	h->length = x;
	return true;
}

/*
 * Parses the header block at p (n bytes, ending in \r\n\r\n) into h.
 * Returns false with a message in err.
 */
static bool parse_headers(const char *p, size_t n, struct header *h, char *err, size_t errlen)
{
	const char *end = p + n;

	h->length = -1;
	while (p < end) {
		const char *eol = memchr(p, '\r', (size_t)(end - p));
		const char *colon;
		if (!eol || eol == p)
			break;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (!colon) {
			snprintf(err, errlen, "malformed header line (no ':'): expected 'Content-Length: N'");
			return false;
		}
		if ((size_t)(colon - p) == 14 && strncasecmp(p, "Content-Length", 14) == 0 &&
		    !parse_length(colon + 1, eol, h, err, errlen))
			return false;
		p = eol + 2;
	}
	if (h->length < 0)
		snprintf(err, errlen, "a message without a Content-Length header");
	return h->length >= 0;
}

static void compact_input(struct lsp_server *s)
{
	if (s->in_start == 0)
		return;
	memmove(s->in.ptr, s->in.ptr + s->in_start, s->in.len - s->in_start);
	s->in.len -= s->in_start;
	s->in_start = 0;
	if (s->in.ptr)
		s->in.ptr[s->in.len] = '\0';
	/* memory goes back after a large message */
	if (s->in.cap > (1u << 20) && s->in.len < s->in.cap / 4) {
		size_t cap = s->in.len + 65536;
		s->in.ptr = tmp_realloc(s->in.ptr, cap);
		s->in.cap = cap;
	}
}

/* Finds "\r\n\r\n" in [p, p+n). */
static const char *find_header_end(const char *p, size_t n)
{
	for (size_t i = 0; i + 3 < n; i++)
		if (p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n')
			return p + i;
	return NULL;
}

/* Parses a message body (n bytes) into batch, or answers that it is not JSON. */
static void take_body(struct lsp_server *s, const char *body, size_t n, json_t *batch)
{
	json_error_t jerr;
	json_t *msg = json_loadb(body, n, JSON_ALLOW_NUL | JSON_DECODE_ANY, &jerr);
	struct buf b = { 0 };

	if (msg) {
		json_array_append_new(batch, msg);
		return;
	}
	buf_printf(&b, "malformed JSON at byte %d of the body: %s", jerr.position, jerr.text);
	lsp_respond_error(s, NULL, LSP_PARSE_ERROR, b.ptr);
	buf_free(&b);
}

/* Answers a Content-Length over the limit, with its digits as they were sent. */
static void too_long(struct lsp_server *s, const struct header *h)
{
	struct buf b = { 0 };

	buf_adds(&b, "Content-Length ");
	buf_add(&b, h->digits, h->ndigits);
	buf_printf(&b, " is over the limit of %u bytes; the message is skipped", LSP_MAX_MESSAGE);
	lsp_respond_error(s, NULL, LSP_INVALID_REQUEST, b.ptr);
	buf_free(&b);
}

void lsp_rpc_extract(struct lsp_server *s, json_t *batch)
{
	for (;;) {
		const char *p = s->in.ptr + s->in_start;
		size_t avail = s->in.len - s->in_start, head;
		const char *hend;
		char err[160];
		struct header h;

		if (s->skip) {
			size_t k = avail < s->skip ? avail : (size_t)s->skip;
			s->in_start += k;
			s->skip -= k;
			if (s->skip)
				break;
			continue;
		}
		/* blank lines between messages are tolerated */
		while (avail >= 2 && p[0] == '\r' && p[1] == '\n')
			p += 2, avail -= 2, s->in_start += 2;
		if (avail == 0)
			break;
		hend = find_header_end(p, avail < LSP_MAX_HEADER + 4 ? avail : LSP_MAX_HEADER + 4);
		if (!hend) {
			if (avail > LSP_MAX_HEADER) {
				lsp_respond_error(s, NULL, LSP_PARSE_ERROR,
						  "no end of headers (an empty line) in the first 8192 bytes; the input is dropped up to here");
				s->in_start += avail;
			}
			break;
		}
		head = (size_t)(hend - p) + 4;
		if (!parse_headers(p, head - 2, &h, err, sizeof err)) {
			lsp_respond_error(s, NULL, LSP_PARSE_ERROR, err);
			s->in_start += head;
			continue;
		}
		if (h.length > LSP_MAX_MESSAGE) {
			too_long(s, &h);
			s->in_start += head;
			s->skip = (uint64_t)h.length;
			continue;
		}
		if (avail - head < (size_t)h.length)
			break;
		s->in_start += head + (size_t)h.length;
		take_body(s, hend + 4, (size_t)h.length, batch);
	}
	compact_input(s);
}

/* --- the stdio loop ------------------------------------------------------ */

/*
 * The one line on standard error when the server stops for a reason other
 * than `exit`: the end of input (in the middle of a message, before
 * shutdown, or after it), or an input or output error.
 */
static void say_stop(const struct lsp_server *s, const char *error, int err, int status)
{
	size_t pending = s->in.len - s->in_start;

	if (s->exited)
		return;
	fputs("nvtxtc: error: lsp: ", stderr);
	if (error)
		fprintf(stderr, "%s%s%s", error, err ? ": " : "", err ? strerror(err) : "");
	else if (s->skip)
		fputs("standard input ended in the body of a message over the limit, which was being skipped", stderr);
	else if (pending)
		fprintf(stderr, "standard input ended in the middle of a message (%zu bytes of it came)", pending);
	else if (s->shutdown)
		fputs("standard input ended after shutdown, without the exit notification", stderr);
	else
		fputs("standard input ended without shutdown and exit", stderr);
	fprintf(stderr, "; exiting with status %d\n", status);
}

/*
 * Serves until exit, the end of input or an error; returns that error's
 * text (and its errno in *err, or 0), or NULL.
 */
static const char *serve(struct lsp_server *s, FILE *out, int *err)
{
	static char buf[65536];
	uint64_t next = UINT64_MAX;

	for (;;) {
		struct pollfd pfd = { .fd = 0, .events = POLLIN };
		uint64_t now = lsp_now_ms();
		int timeout = next == UINT64_MAX ? -1 : next <= now ? 0 : (int)(next - now);
		int r = poll(&pfd, 1, timeout);
		ssize_t n;

		if (r < 0 && errno != EINTR)
			return *err = errno, "cannot wait for standard input";
		if (r <= 0) {
			next = lsp_server_tick(s, lsp_now_ms(), false);
			continue;
		}
		n = read(0, buf, sizeof buf);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return *err = errno, "cannot read standard input";
		if (n == 0 || !lsp_server_feed(s, buf, (size_t)n))
			return NULL;
		next = lsp_server_tick(s, lsp_now_ms(), false);
		if (ferror(out))
			return "cannot write to standard output";
	}
}

int nvtxt_lsp_serve(const struct nvtxt_diag_config *initial, const struct nvtxt_warning_options *initial_warn)
{
	struct lsp_server *s;
	FILE *out;
	const char *error;
	int status, err = 0;

	signal(SIGPIPE, SIG_IGN);
#ifdef __GLIBC__
	/*
	 * Memory stays bounded by the documents: blocks of the size of a
	 * document (a message, its JSON string, the text) come from mmap and
	 * go back to the system when freed, instead of glibc raising its mmap
	 * threshold to their size and keeping them in the heap.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	mallopt(M_TRIM_THRESHOLD, 256 * 1024);
#endif
	out = fdopen(dup(1), "w");
	if (!out) {
		fprintf(stderr, "nvtxtc: error: lsp: cannot open standard output: %s\n", strerror(errno));
		return 2;
	}
	s = lsp_server_new(out);
	if (initial)
		lsp_server_set_base_config(s, initial, initial_warn);
	error = serve(s, out, &err);
	status = s->exited ? lsp_server_exit_status(s) : 1;
	say_stop(s, error, err, status);
	lsp_server_free(s);
	fclose(out);
	return status;
}
