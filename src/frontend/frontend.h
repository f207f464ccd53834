/*
 * frontend.h - private to the scanner, the parser and compile.c: the
 * per-file front-end state that flex's yyextra and bison's %param carry.
 */
#ifndef NVTXT_FRONTEND_H
#define NVTXT_FRONTEND_H

#include <stdbool.h>

#include "nvtxt/ast.h"
#include "diag_engine.h"
#include "util.h"

/* Memory for one line's AST: bump allocation, released at end of line. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	char data[];
};
struct arena {
	struct arena_chunk *head;
};
void *arena_alloc(struct arena *a, size_t size);
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

/* The most values kept for one line; more is an error (no command takes more than 9). */
enum { FRONTEND_MAX_VALUES = 1024 };

/* The longest part of a line kept for diagnostic excerpts, in bytes. */
enum { FRONTEND_LINE_KEEP = 4096 };

struct compile_resume;

struct nvtxt_frontend {
	/* input: text in memory (text != NULL), else the file descriptor fd */
	const char *text;
	size_t text_len;
	int fd;
	bool seekable;
	uint64_t base;            /* the file offset where reading began */
	bool stop;               /* stop reading (UTF-16, I/O error) */
	int io_errno;
	struct reader *reader;   /* chunks of lines, parsed ahead by the fast path (reader.h) */
	struct chunk *chunk;     /* the chunk being worked through */
	size_t next_rec;         /* its next line record */

	/* the bytes YY_INPUT hands to flex: the lines the fast path did not take */
	const char *slow_ptr;
	size_t slow_len;

	/* position of the next byte */
	uint32_t line, col;
	uint64_t offset, line_offset;
	bool line_done;          /* the last token was a line break */
	bool eof_eol_sent;
	bool keep_line_text;     /* not seekable: keep the current line for excerpts */
	struct buf line_text;    /* the current line, up to FRONTEND_LINE_KEEP bytes */
	struct buf excerpt;      /* an earlier line, read back for a note */

	/* the current line's AST */
	struct nvtxt_instr instr;
	struct arena arena;
	struct nvtxt_value *values;
	size_t nvalues, values_cap;
	struct nvtxt_value *fast_values; /* the values of a fast line, made whole (FRONTEND_MAX_VALUES) */
	struct nvtxt_str *fast_tokens;   /* syntax mode for the formatter: a fast line's tokens (FRONTEND_MAX_VALUES) */
	struct nvtxt_str *args;
	struct nvtxt_loc *arg_locs;
	size_t nargs, args_cap;
	bool line_syntax_error;  /* the line does not parse: it reaches no pass */
	bool line_reported;      /* the scanner or parser reported an error on this line: no more from them */
	bool line_is_def;        /* the line starts with '@' */
	struct nvtxt_str def_name; /* the command name after '@', if scanned */
	struct nvtxt_str last_token;     /* the text of the last name, comment or bad byte */
	struct nvtxt_value *last_value;  /* the last value token */
	struct nvtxt_value *prev_value;  /* the value token before it on the line, or NULL */

	struct nvtxt_diags *diags;
	struct nvtxt_source source;
	unsigned long lines;

	/*
	 * where finished lines go: nowhere (FRONTEND_SYNTAX), to the caller's
	 * callback (FRONTEND_NODES), to the library's formatter, which takes a
	 * fast line's tokens without its node (FRONTEND_FMT), or to the passes
	 * (FRONTEND_CHECK), whose fast lines take the passes' fast path
	 * (compile.c, take_fast)
	 */
	enum frontend_mode { FRONTEND_SYNTAX, FRONTEND_NODES, FRONTEND_FMT, FRONTEND_CHECK } mode;
	void (*consume)(void *user, const struct nvtxt_instr *in);
	void *consume_user;
	struct compile_resume *resume;  /* compile.c: a resumable compilation's (compile_resume.h), or NULL */
};

/*
 * Called by YY_INPUT: copies up to max bytes of the current slow line
 * (fe->slow_ptr, fe->slow_len, set by the pipeline) into buf; 0 when that
 * line is done.
 */
size_t frontend_read(struct nvtxt_frontend *fe, char *buf, size_t max);

/* grammar/nvtxt.l's YY_FATAL_ERROR: ends the compilation (ENOMEM for memory, else ENOTRECOVERABLE). */
NVTXT_NORETURN void frontend_scanner_fatal(const char *msg);

/* grammar/nvtxt.l: forgets the end of input flex saw after a slow line's line break. */
void frontend_scanner_line_done(void *scanner);

/* Parser actions. */
void frontend_add_value(struct nvtxt_frontend *fe, const struct nvtxt_value *v);
void frontend_add_absent(struct nvtxt_frontend *fe, const struct nvtxt_loc *loc);
void frontend_add_arg(struct nvtxt_frontend *fe, struct nvtxt_str name, const struct nvtxt_loc *loc);
/* The line's instruction (fe->instr) is complete: hand it on unless the line had a syntax error. */
void frontend_finish_line(struct nvtxt_frontend *fe);
void frontend_drop_line(struct nvtxt_frontend *fe);


#endif
