/*
 * sema_snap.h - a saved copy of the passes' state between two lines, for
 * re-checking a file from the middle (the language server's incremental
 * check, src/lsp/lsp_check.c): everything the passes carry from one line
 * to the next (sema.h: variables, definitions, unknown command names and
 * the recovered ones, open RangePushes per thread with their messages,
 * the category tree and names, the thread, process and file names) and
 * the diagnostics engine's suppression comments (suppress.h).  The call
 * plans of the fast path are a cache and are not saved; the error counts
 * are the caller's (it checks with max_errors 0 and caps the list itself).
 *
 * A snapshot is flat: bytes compared as they are, and beside them the
 * places (line and line_offset of every nvtxt_loc, the bare line numbers of
 * suppressions), which an edit of the text moves, and the events'
 * ordinals, which only order the open pushes and are not compared.  Two
 * snapshots that compare equal under an edit's map (sema_snap_equal) make
 * the passes report the same diagnostics, moved by the map, on the same
 * lines that follow: the stored bytes keep the order of every table, so
 * even a tie broken by that order comes out the same.
 *
 * Memory: about 40 bytes a variable, definition, open push, category or
 * name plus their texts; sema_snap_size says how much.
 */
#ifndef NVTXT_SEMA_SNAP_H
#define NVTXT_SEMA_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sema.h"
#include "suppress.h"

/* The place of a location: what an edit moves (col and len stay in the bytes). */
struct snap_place {
	uint64_t off;             /* nvtxt_loc.line_offset */
	uint32_t line;
};

struct sema_snap {
	unsigned char *data;      /* compared as bytes */
	size_t len, cap;
	struct snap_place *places;  /* compared under the map */
	size_t nplaces, places_cap;
	uint32_t *lines;          /* bare line numbers (suppressions), compared under the map */
	size_t nlines, lines_cap;
	uint64_t *ords;           /* event ordinals: restored, not compared */
	size_t nords, ords_cap;
	/* reading back (sema_snap_restore) */
	size_t rd, rplace, rline, rord;
};

/*
 * An edit of the text as it moves the places of the old text: a place on
 * a line that starts before `first_off` (line first_line) is where it was;
 * one on a line that starts at or after `end_off` (line end_line) moves by
 * `dline` lines and `doff` bytes; one in between was on an edited line and
 * has no place in the new text.  Lines 0 (the whole file) and UINT32_MAX
 * (a suppression still waiting for its line) never move.
 */
struct snap_map {
	uint64_t first_off, end_off;
	uint32_t first_line, end_line;
	int64_t dline, doff;
};

/* The place in the new text of an old one; false when it was on an edited line. */
bool snap_map_place(const struct snap_map *m, struct snap_place *p);
bool snap_map_line(const struct snap_map *m, uint32_t *line);

/* Saves the state of the passes of s and the suppressions of supp (malloc'd; may fail with ENOMEM). */
struct sema_snap *sema_snap_save(const struct sema *s, const struct supp_set *supp);
/*
 * Makes s (fresh from sema_new, before its first instruction) and supp
 * (empty) the saved state: a compilation then goes on as the one that
 * saved it did, from the line after.
 */
void sema_snap_restore(struct sema *s, struct supp_set *supp, struct sema_snap *snap);
/* True when `now` is `old` moved by the map m (NULL: no edit). */
bool sema_snap_equal(const struct sema_snap *now, const struct sema_snap *old, const struct snap_map *m);
/* Moves every place of snap by m; false (snap unchanged in part) when one was on an edited line. */
bool sema_snap_move(struct sema_snap *snap, const struct snap_map *m);
/* Bytes the snapshot holds. */
size_t sema_snap_size(const struct sema_snap *snap);
void sema_snap_free(struct sema_snap *snap);

/* The writers and readers the passes' files use for their own state (sema_snap.c). */
void snap_put(struct sema_snap *sn, const void *p, size_t n);
void snap_get(struct sema_snap *sn, void *p, size_t n);
void snap_put_u64(struct sema_snap *sn, uint64_t v);
uint64_t snap_get_u64(struct sema_snap *sn);
void snap_put_loc(struct sema_snap *sn, const struct nvtxt_loc *loc);
void snap_get_loc(struct sema_snap *sn, struct nvtxt_loc *loc);
void snap_put_idmap(struct sema_snap *sn, const struct idmap *m);
void snap_get_idmap(struct sema_snap *sn, struct idmap *m);
/* An event as the pairing pass keeps a push: every field, its message's bytes when present; push and name NULL. */
void snap_put_event(struct sema_snap *sn, const struct nvtxt_event *ev, const char *msg);
/* Reads it back; *msg points at the message's bytes in the snapshot (ev->message.len of them). */
void snap_get_event(struct sema_snap *sn, struct nvtxt_event *ev, const char **msg);
void snap_put_names(struct sema_snap *sn, const struct name_table *t);
void snap_get_names(struct sema_snap *sn, struct name_table *t);

/* Each event pass's own state (pass_pairing.c, pass_category.c, pass_naming.c). */
void pairing_save(const struct pairing *p, struct sema_snap *sn);
void pairing_restore(struct pairing *p, struct sema_snap *sn);
void category_save(const struct category *c, struct sema_snap *sn);
void category_restore(struct category *c, struct sema_snap *sn);
void naming_save(const struct naming *n, struct sema_snap *sn);
void naming_restore(struct naming *n, struct sema_snap *sn);

#endif
