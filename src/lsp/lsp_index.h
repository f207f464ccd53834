/*
 * lsp_index.h - what the editor features of the language server read
 * about one version of a document (inlay hints, signature help, folding,
 * highlights, semantic tokens, colors): every token of every line with the
 * argument it fills under the definition in force, every definition, and
 * every checked event with the RangePush a RangePop closes.
 *
 * Built from the library's own two readings of the text: syntax mode
 * (every line's AST node, ast.h), where the argument of each value comes
 * from the definition in force (nvtxt_command_default_args, and a
 * definition's list checked with nvtxt_command_has_arg, as the passes do),
 * and check mode (every pass; the events of backend.h), whose RangePop
 * events carry the push they close (the pairing pass).  Colors and time
 * bases are converted by the passes' conversion (conv_arg, src/lang/
 * lang_args.h); times by the time-conversion rules (timeconv.h).
 *
 * Built once per version of the document (lsp_index_get) and kept with
 * it until the text or the settings change, so that range requests cost
 * only the range; the events (check mode) only when a feature that reads
 * them asks (lsp_index_items: semantic tokens and colors read the items
 * alone, and check mode is half the cost).  After edits that leave the
 * definition lines alone, the items are moved to the new text and only
 * the edited lines read again (lsp_index.c, update_items).  Offsets are bytes of the document (documents are at
 * most 4 GiB, LSP_MAX_MESSAGE keeps them far below).  Memory: 16 bytes per
 * token, 72 per event, the messages of the pushes that pops close.
 */
#ifndef NVTXT_LSP_INDEX_H
#define NVTXT_LSP_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "nvtxt/language.h"
#include "util.h"

struct lsp_server;
struct lsp_doc;
struct lsp_error;

/* What a token is. */
enum lsp_role {
	LSP_R_COMMAND,          /* the command name of a call */
	LSP_R_DEF_NAME,         /* the command name of an @definition */
	LSP_R_DEF_ARG,          /* an argument name listed by a definition */
	LSP_R_VAR_DECL,         /* the variable of an assignment `Name = value` */
	LSP_R_VALUE,            /* a value of a call or an assignment */
	LSP_R_COMMENT           /* a comment, from '#' to the end of its line */
};

/* Flags of a token. */
enum {
	LSP_F_UNKNOWN = 1,      /* a name the language does not have (command, argument) */
	LSP_F_COLOR = 2,        /* a Color value that conv_arg takes (also 0xRRGGBB, alpha 0): aux is its ARGB */
	LSP_F_TIMEBASE = 4,     /* a TimeBase value that conv_arg converts */
	LSP_F_BROKEN = 8,       /* a definition with an error: its calls are skipped */
	LSP_F_STATIC = 16       /* LSP_R_VAR_DECL: a variable named after an argument */
};

struct lsp_item {
	uint32_t start, end;    /* the token's bytes */
	uint8_t role;           /* enum lsp_role */
	uint8_t kind;           /* LSP_R_VALUE: enum nvtxt_value_kind */
	int8_t arg;             /* LSP_R_VALUE, LSP_R_DEF_ARG: the argument it fills (enum nvtxt_arg), or -1 */
	int8_t cmd;             /* the line's command (enum nvtxt_command), or -1 */
	uint8_t flags;
	uint8_t pad[3];
	uint32_t aux;           /* LSP_F_COLOR: the ARGB value */
};

/* A definition line: from `at` on, calls of cmd list args (nvtxt(5), DEFINITIONS). */
struct lsp_def {
	uint32_t at, line;      /* the line's first byte and its number (0-based) */
	int8_t cmd;
	bool broken;
	uint8_t nargs;
	uint8_t args[NVTXT_ARG_COUNT];
};

/* A checked event (backend.h), at the command name of its call. */
struct lsp_event {
	uint32_t at;            /* the command name's first byte */
	uint32_t pair;          /* RangePush: its RangePop's `at`; RangePop: its push's; else UINT32_MAX */
	int64_t ns[2];          /* Time (or Start) and End in nanoseconds; INT64_MIN: no conversion */
	uint32_t msg, msg_len;  /* RangePop: its push's Message in strings; msg_len UINT32_MAX: none */
	int64_t pid, tid;       /* ProcessId and ThreadId, when present */
	uint32_t cat, parent;   /* CategoryId and ParentCategoryId, when present */
	uint32_t present;       /* NVTXT_BIT of each argument given (backend.h) */
	int8_t cmd;
	bool has_time;          /* ns[0] is from a timestamp argument */
};

struct lsp_index {
	uint64_t gen;           /* the document's and settings' generation it was built for */
	struct lsp_item *items;
	size_t nitems, items_cap;
	struct lsp_def *defs;
	size_t ndefs, defs_cap;
	struct lsp_event *events;
	size_t nevents, events_cap;
	struct buf strings;
	int64_t origin_ns;      /* the first converted time of the file; INT64_MIN: none */
	bool has_events;        /* events and origin_ns are built (lsp_index_get; not lsp_index_items) */
	size_t len;             /* the length of the text it was built for */
	bool fixed;             /* never moved to a new text: items out of order, a definition without a place */
};

/* The index of d's current text under s's settings, built when needed. */
const struct lsp_index *lsp_index_get(struct lsp_server *s, struct lsp_doc *d);
/* The same with only its items and definitions built (events may be missing: has_events). */
const struct lsp_index *lsp_index_items(struct lsp_server *s, struct lsp_doc *d);
void lsp_index_free(struct lsp_index *x);

/* The first item that ends at or after `off` (nitems when none). */
size_t lsp_index_item_at(const struct lsp_index *x, size_t off);
/* The event whose command name starts at `at`, or NULL. */
const struct lsp_event *lsp_index_event(const struct lsp_index *x, uint32_t at);
/* The definition of cmd in force before byte `at`, or NULL (the default one). */
const struct lsp_def *lsp_index_def(const struct lsp_index *x, int cmd, size_t at);
/* The variable an item names (Name = or $Name, without the '$'): false for other items. */
bool lsp_index_var_name(const struct lsp_doc *d, const struct lsp_item *it, const char **name, size_t *len);

#endif
