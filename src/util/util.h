/*
 * util.h - memory, growable byte buffers and hashing shared by the passes.
 */
#ifndef NVTXT_UTIL_H
#define NVTXT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define NVTXT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NVTXT_NORETURN __attribute__((noreturn))
/* Inlined into each caller even where the compiler would not: the fast path's per-level copies. */
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* Kept out of its callers: the rare branch of a small hot function, so that the rest inlines. */
#define NOINLINE __attribute__((noinline))
#else
#define NVTXT_PRINTF(f, a)
#define NVTXT_NORETURN
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

/*
 * Failure without exit: a guard.  Every library entry point that may
 * allocate (nvtxt_compile) pushes a guard and calls setjmp on its `env`;
 * when memory runs out (or flex reports a fatal error), nvtxt_fail
 * longjmps there with `error` set (ENOMEM), and the entry point frees
 * what it owns, then calls guard_release, which frees the temporaries
 * still registered with the guard (tmp_alloc: buffers, diagnostic records
 * being built), and returns the error.  Guards nest per thread; nothing
 * is shared between threads.  Callbacks that the library calls (sinks,
 * back ends) run inside the guard of the compile that calls them, but the
 * library functions they may call (the printer, the source lines) never
 * fail that way.
 */
struct tmp_hdr {
	struct tmp_hdr *prev, *next;
	size_t size;
	size_t pad_;          /* keeps the data 32-byte aligned after the header (x86-64, LP64) */
};
struct guard {
	jmp_buf env;
	int error;            /* what nvtxt_fail was given */
	struct guard *prev;
	struct tmp_hdr temps; /* the temporaries allocated under this guard: a circular list */
};
void guard_push(struct guard *g);
/* Pops g (the innermost guard); its remaining temporaries move to the enclosing guard. */
void guard_pop(struct guard *g);
/* After the longjmp, once the owners freed what they hold: frees g's temporaries and pops g. */
void guard_release(struct guard *g);
/* Jumps to the innermost guard with `error`; a library bug when there is none (traps). */
NVTXT_NORETURN void nvtxt_fail(int error);

/*
 * Allocation that never returns NULL: on exhaustion it calls
 * nvtxt_fail(ENOMEM).
 */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrndup(const char *s, size_t len);
/* Grows *ptr (an array of *cap elements of `size` bytes) to hold `need`. */
void xgrow(void **ptr, size_t *cap, size_t need, size_t size);
/* malloc/calloc/realloc that may return NULL, failing on the test hook too. */
void *try_malloc(size_t size);
void *try_calloc(size_t count, size_t size);
void *try_realloc(void *ptr, size_t size);

/*
 * Temporaries: blocks registered with the innermost guard, so that a
 * failure frees them even when only a local variable held them.  Free
 * them with tmp_free (never free()).  tmp_realloc(NULL, n) allocates.
 */
void *tmp_alloc(size_t size);
void *tmp_realloc(void *ptr, size_t size);
char *tmp_strndup(const char *s, size_t len);
void tmp_free(void *ptr);

/*
 * Tests: the n-th allocation from now (0: the next) made by this thread
 * through the functions above fails, as if memory had run out; -1 (the
 * default) turns that off.  Returns how many allocations were made since
 * the previous call, to size a loop over every n.
 */
unsigned long nvtxt_test_fail_alloc_after(long n);

/*
 * A growable byte buffer; `len` bytes are in use, always NUL-terminated.
 * Its memory is a temporary (tmp_alloc): take ownership of the text with
 * tmp_strndup or keep the buf, and release it with buf_free.
 */
struct buf {
	char *ptr;
	size_t len;
	size_t cap;
};

void buf_reserve(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_addc(struct buf *b, char c);
void buf_adds(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) NVTXT_PRINTF(2, 3);
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/*
 * Appends up to `max` bytes of p (cut to max - 3 and "..." when longer),
 * control bytes as \xNN: a token or string quoted in a diagnostic.
 */
void buf_add_shown(struct buf *b, const char *p, size_t len, size_t max);
/* Appends names[0..n) as "A, B CONJ C" (CONJ is "and" or "or"): lists in messages. */
void buf_add_list(struct buf *b, const char *const *names, size_t n, const char *conj);
void buf_free(struct buf *b);
static inline void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

/* 64-bit hashes: of bytes (a word at a time; util.c) and of an integer (a splitmix64 finaliser). */
uint64_t hash_bytes(const void *data, size_t len);
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/*
 * Edit distance (insertions, deletions, substitutions and swaps of
 * neighbours), a case-only difference costing half; returns twice it.
 */
unsigned edit_distance2(const char *a, size_t alen, const char *b, size_t blen);

/*
 * The best "did you mean" among `count` candidates: the candidate closest to
 * (word, len) within a distance of max(1, len/3); else the one candidate
 * that word abbreviates (its first letter, then its other letters in order,
 * any case: "Msg" for Message), when exactly one does; else NULL.
 */
const char *suggest(const char *word, size_t len, const char *const *candidates, size_t count);
/*
 * suggest, and *unique says whether no other candidate is as close: only
 * then is the suggestion a fix-it that --fix may apply (checks.def, FIXABLE).
 */
const char *suggest_unique(const char *word, size_t len, const char *const *candidates, size_t count,
			   bool *unique);



/*
 * A hash map from a pair of 64-bit keys to a 32-bit value (an index into
 * the caller's array): open addressing, linear probing, grows at 1/2 load.
 */
struct idmap {
	struct idmap_slot {
		uint64_t a, b;
		uint32_t value;
		uint32_t used;
	} *slots;
	size_t cap, count;
};
/* Returns the value's address, or NULL when (a, b) is not in the map. */
uint32_t *idmap_get(const struct idmap *m, uint64_t a, uint64_t b);
/* Returns the value's address, inserting (a, b) -> value when absent (*inserted says which). */
uint32_t *idmap_put(struct idmap *m, uint64_t a, uint64_t b, uint32_t value, int *inserted);
void idmap_free(struct idmap *m);

/*
 * A map from names (byte strings) to 32-bit values that tells names apart
 * by their bytes: an idmap keyed by (hash_bytes, length) leads to the
 * first name of that key, and the names of one key are chained, so two
 * names whose hashes collide stay two.  Owns a copy of each name (xmalloc:
 * out of memory fails through the guard, and a name copied but not yet
 * indexed is still freed by namemap_free).
 */
struct namemap {
	struct idmap index;
	struct namemap_entry {
		char *name;
		size_t len;
		uint32_t value;
		uint32_t next;          /* the next name of the same key, or UINT32_MAX */
	} *entries;
	size_t count, cap;
};
/* The value of name (len bytes), or NULL when it is not in the map. */
uint32_t *namemap_get(const struct namemap *m, const char *name, size_t len);
/* The value's address, inserting name -> value when absent (*inserted says which). */
uint32_t *namemap_put(struct namemap *m, const char *name, size_t len, uint32_t value, int *inserted);
void namemap_free(struct namemap *m);

/*
 * The length in bytes (1-4) of the well-formed UTF-8 sequence at p, which
 * has n bytes left, or 0 when p does not start one (NUL counts as invalid).
 */
size_t utf8_seq(const unsigned char *p, size_t n);

/*
 * An unnamed temporary file open for reading and writing (O_TMPFILE, or
 * mkstemp and unlink at once), in $TMPDIR when it names an absolute,
 * writable directory, else /tmp, which *dir names; its descriptor is
 * inherited by children.  -1 with errno set when it cannot be made.
 */
int temp_fd(const char **dir);

#endif
