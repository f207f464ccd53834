/*
 * reader.h - private to the front end: the input, read in chunks of whole
 * lines, each line scanned and parsed ahead by the fast path
 * (fast_line.c) when it can be; optionally in a second thread, so that
 * reading and parsing overlap with the passes.
 *
 * A chunk holds READER_CHUNK bytes of input at most, cut after a line
 * break (the rest of a line goes to the next chunk), and one record per
 * line: the AST node when the fast path took the line, else the line's
 * bytes for flex and bison ("slow").  A line longer than a chunk is
 * handed over in slow pieces, one per chunk.
 */
#ifndef NVTXT_READER_H
#define NVTXT_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

/* Bytes of input in a chunk. */
enum { READER_CHUNK = 128 * 1024 };

/*
 * Bytes after a chunk's data: the sentinel '\n' (the fast path's loops
 * stop on it without bounds checks) and room for its word-at-a-time loads.
 */
enum { READER_PAD = 16 };

/* One line of a chunk (or a piece of a long line). */
struct line_rec {
	uint32_t start, len;      /* bytes[start..start+len) of the chunk, the line break included */
	uint32_t text_len;        /* the line without its line break (fast lines) */
	bool fast;                /* instr is the line's AST node; its values start at first_value */
	bool continues;           /* a slow piece of a longer line: the next chunk's first record goes on */
	uint32_t first_value;     /* index into the chunk's values */
	struct nvtxt_instr instr; /* fast lines: as the parser builds it, values == NULL */
};

struct chunk {
	char *bytes;              /* READER_CHUNK + READER_PAD bytes */
	size_t len;               /* bytes of input in it */
	struct line_rec *lines;
	size_t nlines, lines_cap;
	struct nvtxt_value *values;
	size_t nvalues, values_cap;
	bool last;                /* the input ends with this chunk */
	int io_errno;             /* reading failed after this chunk's bytes (then last is set) */
	struct chunk *next;
};

struct reader;

/*
 * A reader of fd from its current position.  With fast_path false every
 * line is slow; with thread true, chunks are read and parsed in a second
 * thread once reader_start is called (when that thread cannot be
 * created, in this one).  Returns NULL when out of memory.
 */
struct reader *reader_new(int fd, bool fast_path, bool thread);

/*
 * The first bytes of the input (up to READER_CHUNK; *len of them), read
 * at once, for the byte order mark and UTF-16 checks.
 */
const unsigned char *reader_peek(struct reader *r, size_t *len);

/*
 * Starts reading after the first `skip` bytes (a UTF-8 BOM), the first
 * line being `line` and beginning at byte offset `offset`.
 */
void reader_start(struct reader *r, size_t skip, uint32_t line, uint64_t offset);

/*
 * The next chunk, in input order (waits for the reading thread); NULL
 * after the last one.  Hand it back with reader_release once its records
 * are done.
 */
struct chunk *reader_next(struct reader *r);
void reader_release(struct reader *r, struct chunk *c);

/* Stops the reading thread (it may first finish a read()) and frees everything. */
void reader_free(struct reader *r);

/*
 * The fast path (fast_line.c): scans and parses the line at `line` of a
 * chunk (`end` is the end of the chunk's data, where the sentinel '\n'
 * is), the line being number `lineno` at byte offset `line_offset`.  On
 * success fills rec->instr (values stored in values[], which must have
 * room for FRONTEND_MAX_VALUES), rec->text_len, and returns the first
 * byte after the line break (the name and the value texts point into
 * the line, which it never writes).  Returns NULL for a line it does not
 * take: any other shape, anything the
 * scanner or the parser would report, or a line not complete before end.
 */
char *fast_line_parse(char *line, const char *end, uint32_t lineno, uint64_t line_offset,
		      struct line_rec *rec, struct nvtxt_value *values);

#endif
