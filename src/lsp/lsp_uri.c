/*
 * lsp_uri.c - the key under which the server finds an open document: two
 * URIs that name the same document have the same key, whatever form each
 * client writes them in.
 *
 * LSP 3.17 ("Uri") warns that clients encode URIs differently (VS Code
 * writes file:///c%3A/x, others file:///C:/x) and that the other side must
 * not assume its own form.  The key applies RFC 3986 section 6.2.2's
 * syntax-based normalisation: the scheme and host in lower case,
 * percent-encoded octets decoded (except '/', '?', '#' and '%', whose
 * encoding changes the meaning; the escapes kept get upper-case hex),
 * dot-segments removed from the path (section 5.2.4); and RFC 8089's file
 * URIs: "file://localhost/" is "file:///", and a DOS drive letter
 * ("/C:") is in lower case (drives are case-insensitive).  Answers keep
 * the URI as the client opened the document.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsp_doc.h"
#include "util.h"

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The path [p, end) with its percent-encoding normalised, appended to b. */
static void add_decoded(struct buf *b, const char *p, const char *end)
{
	while (p < end) {
		int hi, lo, c;
		if (*p != '%' || end - p < 3 || (hi = hexval(p[1])) < 0 || (lo = hexval(p[2])) < 0) {
			buf_addc(b, *p++);
			continue;
		}
		c = hi * 16 + lo;
		if (c == '/' || c == '?' || c == '#' || c == '%' || c == 0)
			buf_printf(b, "%%%02X", (unsigned)c);
		else
			buf_addc(b, (char)c);
		p += 3;
	}
}

/* Drops the last segment of the output path out[0, *n) and its '/'. */
static void drop_segment(const char *out, size_t *n)
{
	while (*n > 0 && out[*n - 1] != '/')
		(*n)--;
	if (*n > 0)
		(*n)--;
}

/* RFC 3986 section 5.2.4, remove_dot_segments, in place on p (n bytes); returns the new length. */
static size_t remove_dot_segments(char *p, size_t n)
{
	size_t i = 0, o = 0;

#define AT(s) (n - i >= sizeof s - 1 && memcmp(p + i, s, sizeof s - 1) == 0)
	while (i < n) {
		if (AT("../"))
			i += 3;
		else if (AT("./"))
			i += 2;
		else if (AT("/./"))
			i += 2;
		else if (n - i == 2 && AT("/."))
			p[++i] = '/';
		else if (AT("/../"))
			i += 3, drop_segment(p, &o);
		else if (n - i == 3 && AT("/.."))
			i += 2, p[i] = '/', drop_segment(p, &o);
		else if ((n - i == 1 && AT(".")) || (n - i == 2 && AT("..")))
			i = n;
		else
			do
				p[o++] = p[i++];
			while (i < n && p[i] != '/');
	}
#undef AT
	return o;
}

char *lsp_uri_key(const char *uri)
{
	const char *p = uri, *path, *end;
	struct buf b = { 0 };
	bool file;
	size_t start;
	char *key;

	if (!isalpha((unsigned char)*p))
		return xstrndup(uri, strlen(uri));
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':')
		return xstrndup(uri, strlen(uri));
	for (const char *q = uri; q <= p; q++)
		buf_addc(&b, (char)tolower((unsigned char)*q));
	file = strcmp(b.ptr, "file:") == 0;
	path = p + 1;
	if (path[0] == '/' && path[1] == '/') {
		const char *host = path + 2;
		path = host + strcspn(host, "/?#");
		buf_adds(&b, "//");
		if (!(file && (size_t)(path - host) == 9 && strncasecmp(host, "localhost", 9) == 0))
			for (const char *q = host; q < path; q++)
				buf_addc(&b, (char)tolower((unsigned char)*q));
	}
	end = path + strcspn(path, "?#");
	start = b.len;
	add_decoded(&b, path, end);
	b.len = start + remove_dot_segments(b.ptr + start, b.len - start);
	if (file && b.len - start >= 3 && b.ptr[start] == '/' && isalpha((unsigned char)b.ptr[start + 1]) &&
	    b.ptr[start + 2] == ':')
		b.ptr[start + 1] = (char)tolower((unsigned char)b.ptr[start + 1]);
	buf_adds(&b, end);
	key = xstrndup(b.ptr, b.len);
	buf_free(&b);
	return key;
}
