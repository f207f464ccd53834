/*
 * fuzz_lsp.c - libFuzzer target for `nvtxtc lsp` (src/lsp/): arbitrary byte
 * streams into lsp_server_feed.
 *
 * The first byte picks the mode and the split of the stream:
 *   even: the rest is the raw stream (framing, headers, Content-Length),
 *         fed in pieces of 1 + (byte >> 1) bytes;
 *   odd:  the rest is split at "\n--\n" into message bodies, each framed
 *         with a right Content-Length after a valid initialize, so that
 *         arbitrary JSON reaches the handlers (documents, edits, positions).
 * Properties: no crash, no leak, no sanitizer report; every message the
 * server writes is framed with the right Content-Length and its body is a
 * JSON-RPC 2.0 object; every request id is answered at most once.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static void check_output(const char *out, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *h = out + i, *end;
		unsigned long n;
		json_t *j;
		json_error_t err;

		if (strncmp(h, "Content-Length: ", 16) != 0) {
			fprintf(stderr, "output without a Content-Length header at byte %zu\n", i);
			abort();
		}
		n = strtoul(h + 16, (char **)&end, 10);
		if (strncmp(end, "\r\n\r\n", 4) != 0 || (size_t)(end + 4 - out) + n > len) {
			fprintf(stderr, "bad framing at byte %zu\n", i);
			abort();
		}
		j = json_loadb(end + 4, n, 0, &err);
		if (!json_is_object(j) || !json_is_string(json_object_get(j, "jsonrpc"))) {
			fprintf(stderr, "output body is not a JSON-RPC object: %.*s\n", (int)(n > 400 ? 400 : n), end + 4);
			abort();
		}
		json_decref(j);
		i = (size_t)(end + 4 - out) + n;
	}
}

static void frame(struct lsp_server *s, const char *body, size_t n)
{
	char head[64];
	int k = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
	lsp_server_feed(s, head, (size_t)k);
	lsp_server_feed(s, body, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char init[] = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}";
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	struct lsp_server *s;
	const char *p, *end;

	if (!f || size == 0) {
		if (f)
			fclose(f);
		free(out);
		return 0;
	}
	s = lsp_server_new(f);
	p = (const char *)data + 1;
	end = (const char *)data + size;
	if ((data[0] & 1) == 0) {
		size_t step = 1 + (data[0] >> 1);
		while (p < end) {
			size_t k = (size_t)(end - p) < step ? (size_t)(end - p) : step;
			if (!lsp_server_feed(s, p, k))
				break;
			p += k;
		}
	} else {
		frame(s, init, sizeof init - 1);
		while (p < end) {
			const char *q = memmem(p, (size_t)(end - p), "\n--\n", 4);
			const char *stop = q ? q : end;
			frame(s, p, (size_t)(stop - p));
			p = q ? q + 4 : end;
		}
	}
	lsp_server_tick(s, lsp_now_ms(), true);
	lsp_server_free(s);
	fclose(f);
	check_output(out, outlen);
	free(out);
	return 0;
}
