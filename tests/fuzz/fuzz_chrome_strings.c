/*
 * fuzz_chrome_strings.c - libFuzzer target for the strings of the Trace
 * Event writer (src/backends/trace_writer.c; issue 22's rule, condition b).
 *
 * The input's bytes, whatever they are (every control character, invalid
 * UTF-8, surrogates encoded as UTF-8, quotes, backslashes, U+2028/2029,
 * characters beyond the BMP), are cut in three at the first two 0xFE
 * bytes (a byte that never appears in UTF-8), or taken whole, and become
 * the name of an X event, the category of an i event and args.name of an
 * M event and the file display name of one document, written by the writer
 * into memory.  Properties: the document parses with jansson (NULs
 * allowed as \u0000, duplicate keys rejected); each string reads back as
 * the input's bytes with every byte that does not begin a well-formed
 * UTF-8 sequence replaced by U+FFFD (this file decodes UTF-8 itself, by
 * RFC 3629, not with the library's utf8_seq); no raw control character
 * and no raw U+2028/2029 is in the document; the name's bytes in the
 * document are those of nvtxt_trace_json_string; and the writer's
 * scanners (trace_string.h: 8 and 16 bytes a step, with tails that
 * overlap) find the first byte that needs care where the byte-by-byte
 * one does, on the input from each of its first 64 bytes.  Aborts
 * otherwise.
 */
#include "fuzz_common.h"

#include <jansson.h>

#include "trace_string.h"
#include "trace_writer.h"

/* The length of the well-formed sequence at s (n bytes left), or 0 (RFC 3629, section 4). */
static size_t seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/* What the string s should read back as: invalid bytes as U+FFFD; malloc'd, length in *out_len. */
static char *expected(const unsigned char *s, size_t n, size_t *out_len)
{
	char *e = malloc(3 * n + 1);
	size_t k = 0;

	if (!e)
		fuzz_die("malloc");
	for (size_t i = 0; i < n;) {
		size_t len = seq(s + i, n - i);
		if (len == 0) {
			memcpy(e + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i++;
		} else {
			memcpy(e + k, s + i, len);
			k += len;
			i += len;
		}
	}
	*out_len = k;
	return e;
}

static void same(const char *what, json_t *j, const unsigned char *s, size_t n, const char *doc, size_t doc_len)
{
	size_t want_len;
	char *want = expected(s, n, &want_len);

	if (!json_is_string(j) || json_string_length(j) != want_len ||
	    memcmp(json_string_value(j), want, want_len) != 0) {
		fprintf(stderr, "%s does not round-trip (%zu bytes in, %zu expected, %zu read back):\n%.*s\n", what, n,
			want_len, json_is_string(j) ? json_string_length(j) : 0, (int)(doc_len > 4000 ? 4000 : doc_len),
			doc);
		abort();
	}
	free(want);
}

/* The scanners agree with trace_plain_bytes on data from each of its first 64 bytes. */
static void scanners_agree(const uint8_t *data, size_t size)
{
	for (size_t at = 0; at < size && at < 64; at++) {
		size_t want = trace_plain_bytes(data + at, size - at), got = trace_plain_run(data + at, size - at);
#ifdef TRACE_HAVE_SWAR
		if (trace_plain_swar(data + at, size - at) != want)
			got = SIZE_MAX;
#endif
		if (got != want) {
			fprintf(stderr, "a scanner disagrees at offset %zu: %zu bytes plain, found %zu\n", at, want, got);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *part[3] = { data, data, data };
	size_t len[3] = { size, size, size }, n = 0, doc_len = 0;
	char *doc = NULL, *quoted;
	struct nvtxt_trace_writer *w;
	struct nvtxt_trace_event x = { .ph = 'X', .ts_ns = 1000, .dur_ns = 500, .pid = 1, .tid = 2,
				       .args = NVTXT_TRACE_ARG_LINE, .line = 7 };
	struct nvtxt_trace_event i = { .ph = 'i', .name = { "m", 1 }, .ts_ns = 1200, .pid = 1, .tid = 2 };
	struct nvtxt_trace_event m = { .ph = 'M', .name = { "thread_name", 11 }, .pid = 1, .tid = 2,
				       .args = NVTXT_TRACE_ARG_NAME };
	struct nvtxt_trace_other other = { .nfiles = 0 }; /* every field the harness does not set is zero */
	json_error_t jerr;
	json_t *root, *events;
	FILE *mem;

	/* three strings, cut at 0xFE */
	for (size_t k = 0, start = 0; k <= size && n < 3; k++) {
		if (k == size || data[k] == 0xFE) {
			if (k == size && n == 0)
				break; /* no 0xFE: the whole input three times */
			part[n] = data + start;
			len[n++] = k - start;
			start = k + 1;
		}
	}
	x.name = (struct nvtxt_str){ (const char *)part[0], len[0] };
	i.cat = (struct nvtxt_str){ len[1] ? (const char *)part[1] : "", len[1] };
	m.arg_name = (struct nvtxt_str){ (const char *)part[2], len[2] };
	other.file_display_name = (struct nvtxt_str){ (const char *)data, size };

	fuzz_init();
	scanners_agree(data, size);
	mem = open_memstream(&doc, &doc_len);
	if (!mem)
		fuzz_die("open_memstream");
	w = nvtxt_trace_writer_new(mem);
	if (nvtxt_trace_writer_begin(w) || nvtxt_trace_writer_event(w, &m) || nvtxt_trace_writer_event(w, &x) ||
	    nvtxt_trace_writer_event(w, &i) || nvtxt_trace_writer_end(w, &other))
		fuzz_die("the writer failed");
	nvtxt_trace_writer_free(w);
	fclose(mem);

	root = json_loadb(doc, doc_len, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &jerr);
	events = json_object_get(root, "traceEvents");
	if (!root || json_array_size(events) != 3) {
		fprintf(stderr, "not a document of 3 events: %d:%d: %s\n%.*s\n", jerr.line, jerr.column, jerr.text,
			(int)(doc_len > 4000 ? 4000 : doc_len), doc);
		abort();
	}
	same("args.name", json_object_get(json_object_get(json_array_get(events, 0), "args"), "name"), part[2], len[2],
	     doc, doc_len);
	same("name", json_object_get(json_array_get(events, 1), "name"), part[0], len[0], doc, doc_len);
	same("cat", json_object_get(json_array_get(events, 2), "cat"), part[1], len[1], doc, doc_len);
	same("file_display_name", json_object_get(json_object_get(root, "otherData"), "file_display_name"), data, size,
	     doc, doc_len);
	for (size_t k = 0; k < doc_len; k++) {
		unsigned char c = (unsigned char)doc[k];
		if ((c < 0x20 && c != '\n') || (c == 0xE2 && k + 2 < doc_len && (unsigned char)doc[k + 1] == 0x80 &&
						((unsigned char)doc[k + 2] == 0xA8 || (unsigned char)doc[k + 2] == 0xA9))) {
			fprintf(stderr, "a raw control character or U+2028/2029 at byte %zu\n", k);
			abort();
		}
	}
	/* the writer's string is nvtxt_trace_json_string's */
	quoted = malloc(6 * len[0] + 2);
	if (!quoted)
		fuzz_die("malloc");
	n = nvtxt_trace_json_string(quoted, (const char *)part[0], len[0]);
	{
		const char *at = strstr(doc, "\"ph\":\"M\"");
		const char *name = at ? strstr(at, "\n{\"name\":") : NULL;
		if (!name || memcmp(name + 9, quoted, n) != 0) {
			fprintf(stderr, "the X event's name is not nvtxt_trace_json_string's\n");
			abort();
		}
	}
	free(quoted);
	json_decref(root);
	free(doc);
	return 0;
}
