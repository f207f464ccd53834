/*
 * util.c - memory, buffers, hashing and spelling suggestions.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* --- guards ------------------------------------------------------------------ */

static _Thread_local struct guard *current_guard;
/* temporaries allocated outside any guard (a caller that never failed so far) */
static _Thread_local struct tmp_hdr loose_temps;
/* the test hook: allocations left before the one that fails (-1: none fails) */
static _Thread_local long fail_countdown = -1;
static _Thread_local unsigned long alloc_count;

static struct tmp_hdr *temps_of(struct guard *g)
{
	struct tmp_hdr *head = g ? &g->temps : &loose_temps;
	if (!head->next)
		head->next = head->prev = head;
	return head;
}

void guard_push(struct guard *g)
{
	g->error = 0;
	g->prev = current_guard;
	g->temps.next = g->temps.prev = &g->temps;
	current_guard = g;
}

void guard_pop(struct guard *g)
{
	struct tmp_hdr *head = &g->temps, *to = temps_of(g->prev);

	current_guard = g->prev;
	if (head->next == head)
		return;
	/* splice g's list at the end of the enclosing one */
	head->next->prev = to->prev;
	to->prev->next = head->next;
	head->prev->next = to;
	to->prev = head->prev;
	head->next = head->prev = head;
}

void guard_release(struct guard *g)
{
	struct tmp_hdr *head = &g->temps;

	while (head->next != head) {
		struct tmp_hdr *h = head->next;
		head->next = h->next;
		free(h);
	}
	head->prev = head;
	current_guard = g->prev;
}

void nvtxt_fail(int error)
{
	struct guard *g = current_guard;

	if (!g)
		__builtin_trap(); /* a library bug: an entry point that allocates without a guard */
	g->error = error;
	longjmp(g->env, 1);
}

unsigned long nvtxt_test_fail_alloc_after(long n)
{
	unsigned long made = alloc_count;
	alloc_count = 0;
	fail_countdown = n;
	return made;
}

static bool injected_failure(void)
{
	alloc_count++;
	if (fail_countdown < 0)
		return false;
	return fail_countdown-- == 0;
}

void *try_malloc(size_t size)
{
	return injected_failure() ? NULL : malloc(size ? size : 1);
}

void *try_calloc(size_t count, size_t size)
{
	return injected_failure() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *try_realloc(void *ptr, size_t size)
{
	return injected_failure() ? NULL : realloc(ptr, size ? size : 1);
}

void *xmalloc(size_t size)
{
	void *p = try_malloc(size);
	if (!p)
		nvtxt_fail(ENOMEM);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = try_calloc(count, size);
	if (!p)
		nvtxt_fail(ENOMEM);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = try_realloc(ptr, size);
	if (!p)
		nvtxt_fail(ENOMEM);
	return p;
}

char *xstrndup(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static size_t grown_cap(size_t cap, size_t need, size_t size)
{
	size_t n = cap ? cap : 8;

	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			nvtxt_fail(ENOMEM);
		n *= 2;
	}
	return n;
}

void xgrow(void **ptr, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return;
	n = grown_cap(*cap, need, size);
	*ptr = xrealloc(*ptr, n * size);
	*cap = n;
}

/* --- temporaries ----------------------------------------------------------- */

void *tmp_realloc(void *ptr, size_t size)
{
	struct tmp_hdr *h = ptr ? (struct tmp_hdr *)ptr - 1 : NULL, *head, *moved;

	if (size > SIZE_MAX - sizeof(*h))
		nvtxt_fail(ENOMEM);
	if (!h) {
		h = xmalloc(sizeof(*h) + size);
		head = temps_of(current_guard);
		h->next = head;
		h->prev = head->prev;
		head->prev->next = h;
		head->prev = h;
		h->size = size;
		return h + 1;
	}
	moved = try_realloc(h, sizeof(*h) + size);
	if (!moved)
		nvtxt_fail(ENOMEM); /* h is still linked: the guard frees it */
	/* the neighbours point at the old address: relink */
	moved->prev->next = moved;
	moved->next->prev = moved;
	moved->size = size;
	return moved + 1;
}

void *tmp_alloc(size_t size)
{
	return tmp_realloc(NULL, size);
}

char *tmp_strndup(const char *s, size_t len)
{
	char *p = tmp_alloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void tmp_free(void *ptr)
{
	struct tmp_hdr *h;

	if (!ptr)
		return;
	h = (struct tmp_hdr *)ptr - 1;
	h->prev->next = h->next;
	h->next->prev = h->prev;
	free(h);
}

/* --- buffers --------------------------------------------------------------- */

void buf_reserve(struct buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		nvtxt_fail(ENOMEM);
	if (b->len + extra + 1 > b->cap) {
		size_t n = grown_cap(b->cap, b->len + extra + 1, 1);
		b->ptr = tmp_realloc(b->ptr, n);
		b->cap = n;
	}
}

void buf_add(struct buf *b, const void *data, size_t len)
{
	buf_reserve(b, len);
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
}

void buf_addc(struct buf *b, char c)
{
	buf_reserve(b, 1);
	b->ptr[b->len++] = c;
	b->ptr[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_add_shown(struct buf *b, const char *p, size_t len, size_t max)
{
	size_t n = len > max ? max - 3 : len;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02X", c);
		else
			buf_addc(b, (char)c);
	}
	if (n < len)
		buf_adds(b, "...");
}

void buf_add_list(struct buf *b, const char *const *names, size_t n, const char *conj)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_printf(b, i + 1 == n ? " %s " : ", ", conj);
		buf_adds(b, names[i]);
	}
}

void buf_free(struct buf *b)
{
	tmp_free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

/*
 * 8 bytes at a time, each word mixed by a multiply and a rotation (a
 * message is hashed once per event in info and stats; FNV-1a's byte loop
 * cost 5 instructions a byte).  Not for an adversary: users compare equal
 * hashes byte for byte.
 */
uint64_t hash_bytes(const void *data, size_t len)
{
	const char *p = data;
	uint64_t h = 0x9E3779B97F4A7C15u ^ len, w = 0;
	uint32_t a, b;

	if (len >= 8) {
		/* whole words, then the last 8 bytes (which may overlap the words before) */
		const char *end = p + len;
		for (; end - p > 8; p += 8) {
			memcpy(&w, p, 8);
			h = (h ^ w) * 0xFF51AFD7ED558CCDu;
			h = (h << 31) | (h >> 33);
		}
		memcpy(&w, end - 8, 8);
	} else if (len >= 4) {
		memcpy(&a, p, 4);
		memcpy(&b, p + len - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (len) {
		w = (uint64_t)(unsigned char)p[0] << 16 | (uint64_t)(unsigned char)p[len / 2] << 8 |
		    (unsigned char)p[len - 1];
	}
	h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9u;
	return h ^ (h >> 32);
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

unsigned edit_distance2(const char *a, size_t alen, const char *b, size_t blen)
{
	/* optimal string alignment: insert, delete, substitute, swap neighbours */
	unsigned rows[3][64];
	unsigned *prev2 = rows[0], *prev = rows[1], *row = rows[2], *t;

	if (alen >= 63 || blen >= 63)
		return ~0u / 4;
	for (size_t j = 0; j <= blen; j++)
		prev[j] = 2 * (unsigned)j;
	for (size_t i = 1; i <= alen; i++) {
		row[0] = 2 * (unsigned)i;
		for (size_t j = 1; j <= blen; j++) {
			unsigned sub = a[i - 1] == b[j - 1]               ? 0
				       : lower(a[i - 1]) == lower(b[j - 1]) ? 1
									    : 2;
			unsigned best = prev[j - 1] + sub;
			if (prev[j] + 2 < best)
				best = prev[j] + 2;
			if (row[j - 1] + 2 < best)
				best = row[j - 1] + 2;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 2 < best)
				best = prev2[j - 2] + 2;
			row[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[blen];
}

/* True when word[0..len) is an abbreviation of c: its first letter, then the rest in order (any case). */
static bool abbreviates(const char *word, size_t len, const char *c)
{
	size_t clen = strlen(c), j = 1;

	if (len < 2 || len >= clen || lower(word[0]) != lower(c[0]))
		return false;
	for (size_t i = 1; i < len; i++, j++) {
		while (j < clen && lower(c[j]) != lower(word[i]))
			j++;
		if (j == clen)
			return false;
	}
	return true;
}

/*
 * The one candidate that word abbreviates ("Msg" for Message, "Tid" for
 * ThreadId), or NULL when none or several do.
 */
static const char *abbreviation_of(const char *word, size_t len, const char *const *candidates, size_t count)
{
	const char *found = NULL;

	for (size_t i = 0; i < count; i++) {
		if (!abbreviates(word, len, candidates[i]))
			continue;
		if (found && strcmp(found, candidates[i]) != 0)
			return NULL;
		found = candidates[i];
	}
	return found;
}

const char *suggest_unique(const char *word, size_t len, const char *const *candidates, size_t count,
			   bool *unique)
{
	const char *best = NULL;
	unsigned best_d = ~0u;
	unsigned limit = 2 * (unsigned)(len / 3 > 1 ? len / 3 : 1);
	bool tie = false;

	for (size_t i = 0; i < count; i++) {
		const char *c = candidates[i];
		unsigned d = edit_distance2(word, len, c, strlen(c));
		if (d > 0 && d <= limit && d < best_d) {
			best = c;
			best_d = d;
			tie = false;
		} else if (d == best_d && best && strcmp(c, best) != 0) {
			tie = true;
		}
	}
	if (!best && (best = abbreviation_of(word, len, candidates, count)) != NULL)
		tie = false;
	if (unique)
		*unique = best && !tie;
	return best;
}

const char *suggest(const char *word, size_t len, const char *const *candidates, size_t count)
{
	return suggest_unique(word, len, candidates, count, NULL);
}

static size_t idmap_index(const struct idmap *m, uint64_t a, uint64_t b)
{
	return (size_t)(hash_u64(a * 31 + hash_u64(b)) & (m->cap - 1));
}

uint32_t *idmap_get(const struct idmap *m, uint64_t a, uint64_t b)
{
	if (!m->cap)
		return NULL;
	for (size_t i = idmap_index(m, a, b);; i = (i + 1) & (m->cap - 1)) {
		struct idmap_slot *s = &m->slots[i];
		if (!s->used)
			return NULL;
		if (s->a == a && s->b == b)
			return &s->value;
	}
}

uint32_t *idmap_put(struct idmap *m, uint64_t a, uint64_t b, uint32_t value, int *inserted)
{
	uint32_t *found = idmap_get(m, a, b);
	size_t i;

	if (found) {
		*inserted = 0;
		return found;
	}
	if ((m->count + 1) * 2 > m->cap) {
		struct idmap old = *m;
		m->cap = old.cap ? old.cap * 2 : 64;
		m->slots = xcalloc(m->cap, sizeof(*m->slots));
		m->count = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.slots[j].used) {
				int ins;
				idmap_put(m, old.slots[j].a, old.slots[j].b, old.slots[j].value, &ins);
			}
		free(old.slots);
	}
	for (i = idmap_index(m, a, b); m->slots[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->slots[i] = (struct idmap_slot){ a, b, value, 1 };
	m->count++;
	*inserted = 1;
	return &m->slots[i].value;
}

void idmap_free(struct idmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}

/* --- names by their bytes -------------------------------------------------- */

uint32_t *namemap_get(const struct namemap *m, const char *name, size_t len)
{
	const uint32_t *first = idmap_get(&m->index, hash_bytes(name, len), len);

	for (uint32_t i = first ? *first : UINT32_MAX; i != UINT32_MAX; i = m->entries[i].next)
		if (m->entries[i].len == len && (len == 0 || memcmp(m->entries[i].name, name, len) == 0))
			return &m->entries[i].value;
	return NULL;
}

uint32_t *namemap_put(struct namemap *m, const char *name, size_t len, uint32_t value, int *inserted)
{
	uint32_t *v = namemap_get(m, name, len), *first, at;
	struct namemap_entry *e;
	void *p = m->entries;
	int fresh;

	*inserted = 0;
	if (v)
		return v;
	xgrow(&p, &m->cap, m->count + 1, sizeof(*m->entries));
	m->entries = p;
	e = &m->entries[m->count];
	e->name = xstrndup(len ? name : "", len);
	e->len = len;
	e->value = value;
	e->next = UINT32_MAX;
	at = (uint32_t)m->count++;
	first = idmap_put(&m->index, hash_bytes(name, len), len, at, &fresh);
	if (!fresh) { /* another name of the same key: chain this one first */
		e->next = *first;
		*first = at;
	}
	*inserted = 1;
	return &e->value;
}

void namemap_free(struct namemap *m)
{
	for (size_t i = 0; i < m->count; i++)
		free(m->entries[i].name);
	free(m->entries);
	idmap_free(&m->index);
	m->entries = NULL;
	m->count = m->cap = 0;
}

/* The length of the valid UTF-8 sequence at p (of n bytes), or 0. */
size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xBF;

	if (c >= 0x01 && c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

