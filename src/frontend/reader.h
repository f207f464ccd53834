/*
 * reader.h - private to the front end: the input, read in chunks of whole
 * lines, each line scanned and parsed ahead by the fast path
 * (fast_line.c) when it can be; optionally with a second thread that
 * reads and parses chunks while this one runs the passes.  The caller
 * never waits for that thread while there is a chunk left to read: it
 * reads and parses one itself (see reader.c), so a second thread that
 * gets no processor costs little more than none.
 *
 * A chunk holds READER_CHUNK bytes of input at most, cut after a line
 * break (the rest of a line goes to the next chunk), and one record per
 * line: the AST node when the fast path took the line, else the line's
 * bytes for flex and bison ("slow").  A line longer than a chunk
 * (READER_LINE_MAX bytes before its line break, or more) is never handed
 * to flex: its first chunk gets a LINE_LONG_HEAD record, the chunks
 * inside it none, and the chunk where it ends a LINE_TOO_LONG record
 * with its length, so memory stays bounded whatever the line.
 */
#ifndef NVTXT_READER_H
#define NVTXT_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "nvtxt/ast.h"

/* Bytes of input in a chunk. */
enum { READER_CHUNK = 128 * 1024 };

/*
 * The longest line, in bytes before its line break (a '\r' before the
 * '\n' counts): a line of READER_CHUNK bytes with its '\n' fits in a
 * chunk.  Documented in nvtxt(5) LEXICAL STRUCTURE, Lines.
 */
enum { READER_LINE_MAX = READER_CHUNK - 1 };

/*
 * Bytes after a chunk's data: the sentinel '\n' (the fast path's loops
 * stop on it without bounds checks) and room for its loads of up to 32
 * bytes at a time (AVX2) that start at or before the sentinel.
 */
enum { READER_PAD = 64 };

/*
 * Readable bytes before a chunk's data: the fast path loads the 16 bytes
 * that end with an integer's last digit (fast_line.c, digits_value_sse2).
 */
enum { READER_FRONT_PAD = 16 };

/*
 * A value the fast path scanned, in 16 bytes: where its token is in its
 * line, and what it is.  The consumer makes a struct nvtxt_value of it
 * (the text and the location follow from the token, its kind and quote).
 */
struct fast_value {
	int64_t integer;          /* NVTXT_V_INTEGER: its value; else 0 */
	uint16_t col;             /* the token's first byte, from the start of the line (0-based);
				     NVTXT_V_ABSENT: the byte after the ',' */
	uint16_t len;             /* the token's bytes, quotes or '$' included (0 when absent) */
	uint8_t kind;             /* enum nvtxt_value_kind: ABSENT, INTEGER, STRING or EXPANSION */
	uint8_t quote;            /* '"', '\'', '$' or 0, as in struct nvtxt_value */
};

/* What a line record holds (the fast path's kinds first: kind <= LINE_ASSIGNMENT). */
enum line_kind {
	LINE_CALL,                /* a call the fast path parsed */
	LINE_ASSIGNMENT,          /* an assignment the fast path parsed */
	LINE_SLOW,                /* bytes for flex and bison */
	LINE_LONG_HEAD,           /* the first READER_CHUNK bytes of a line over READER_LINE_MAX */
	LINE_TOO_LONG             /* the end of that line: its rest up to its line break
				     (the chunk's long_line_len says its length) */
};

/*
 * One line of a chunk (or a piece of a long line), 24 bytes.  A fast line
 * is at most FRONTEND_LINE_KEEP bytes, so its columns fit in 16 bits.
 */
struct line_rec {
	uint32_t start, len;      /* bytes[start..start+len) of the chunk, the line break included */
	uint32_t first_value;     /* fast lines: index of the first value in the chunk's values */
	uint16_t text_len;        /* fast lines: the line without its line break */
	uint16_t nvalues;         /* fast lines: values of the call (1 for an assignment) */
	uint16_t name_col;        /* fast lines: the name's first byte from the line's start (0-based) */
	uint16_t name_len;
	uint16_t end_col;         /* fast lines: the end of the last token, from the line's start */
	uint8_t kind;             /* enum line_kind */
};

struct chunk {
	char *bytes;              /* READER_CHUNK + READER_PAD bytes, after READER_FRONT_PAD readable ones */
	size_t len;               /* bytes of input in it (after the cut) */
	size_t filled;            /* bytes read into it (before the cut) */
	size_t skip;              /* bytes before the first line (a UTF-8 BOM) */
	bool long_rest;           /* it starts with the rest of a line longer than a chunk */
	bool tail_continues;      /* it has no line break and the line goes on in the next one */
	struct line_rec *lines;
	size_t nlines, lines_cap;
	struct fast_value *values;
	size_t nvalues, values_cap;
	uint64_t long_line_len;   /* a LINE_TOO_LONG record: the line's bytes before its line break */
	bool last;                /* the input ends with this chunk */
	int io_errno;             /* reading failed after this chunk's bytes (then last is set) */
	/* the reader's: its place in the input and its state */
	uint64_t seq;
	bool ready;
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
/* The same for text in memory (len bytes, kept alive and unchanged by the caller). */
struct reader *reader_new_text(const char *text, size_t len, bool fast_path, bool thread);

/*
 * Text in memory only, before reader_start: the first chunk holds at most
 * `first` bytes, each next one twice as many, up to READER_CHUNK, each cut
 * after a line break (a chunk with no line break in its bytes is a full
 * one), so that a caller who may stop after a few lines (a resumed
 * compilation, compile_resume.h) parses few lines ahead.
 */
void reader_ramp(struct reader *r, size_t first);

/*
 * The first bytes of the input (up to READER_CHUNK; *len of them), read
 * at once, for the byte order mark and UTF-16 checks.
 */
const unsigned char *reader_peek(struct reader *r, size_t *len);

/*
 * Starts reading after the first `skip` bytes (a UTF-8 BOM); with a
 * thread, starts it when the input is longer than one chunk.
 */
void reader_start(struct reader *r, size_t skip);

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
 * The fast path (fast_line.c): scans and parses the lines of chunk c from
 * p on (c->bytes + c->len is the end of its data, where the sentinel
 * '\n' is, followed by READER_PAD readable bytes) and appends a record
 * per line to c->lines and the values to c->values, while it takes the
 * lines and there is room: it stops before a line when c->lines is full
 * (c->nlines == c->lines_cap) or c->values has room for fewer than
 * FRONTEND_MAX_VALUES more values.  A record gets every field.  Returns where it stopped: the end of the data,
 * a line where the room ran out, or the first line it does not take: any
 * other shape, anything the scanner or the parser would report, a line
 * longer than FRONTEND_LINE_KEEP, or a line not complete before the end.
 * It never writes the chunk's bytes.
 */
typedef char *fast_lines_fn(char *p, struct chunk *c);

/*
 * The widths of the fast path's scanning steps.  Each level is the same
 * parser with other loops for names, digits and quoted strings (and, with
 * SSE2 and AVX2, a line window: fast_line.c); all take the same lines and
 * build the same records (tests/unit/fast_paths.c and the fuzz_fast_paths
 * target run each against flex and bison).
 */
enum fast_scan {
	FAST_SCAN_PORTABLE,       /* plain C: byte loops and eight-byte words, no line window */
	FAST_SCAN_SSE2,           /* 16 bytes a step (x86-64, where SSE2 is always there) */
	FAST_SCAN_AVX2,           /* 32 bytes a step, when the processor has AVX2 and PCLMULQDQ (checked at run time) */
	FAST_SCAN_LEVELS
};

/* True when this build and this processor run `level`. */
bool fast_scan_available(enum fast_scan level);

/*
 * Makes the readers created from now on use `level` (when available), or
 * the widest available level when `level` is FAST_SCAN_LEVELS, the
 * default.  For the differential tests: not thread-safe against readers
 * being created.
 */
void fast_scan_force(enum fast_scan level);

/* The fast path at the current level (the widest available unless forced). */
fast_lines_fn *fast_lines_parser(void);

#endif
