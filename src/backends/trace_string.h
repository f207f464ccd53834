/*
 * trace_string.h - private to trace_writer.c (and its unit test): how
 * many bytes at the start of a string the Trace Event writer copies as
 * they are, found several bytes a step.
 *
 * A byte is plain when it is printable ASCII other than '"' and '\\':
 * 0x20..0x7F but 0x22 and 0x5C (U+007F is copied raw, trace_writer.c's
 * rules).  Every other byte (the controls, '"', '\\', and every byte from
 * 0x80, which may start U+2028/2029 or invalid UTF-8) ends the run, and
 * trace_writer.c's escape_one decides what to write for it.  So the
 * scanners only find the first byte that is not plain; the escaping
 * rules stay in one place.
 *
 * Three scanners that give the same answer (tests/unit/trace_string.c
 * holds them to the byte-by-byte one on every length 0..80, a special
 * byte at every position, at every alignment):
 *   - trace_plain_bytes: the table, one byte a step (any host);
 *   - trace_plain_swar: 8 bytes a step in a 64-bit word (little-endian
 *     hosts; the tail as one more word that overlaps bytes already seen);
 *   - trace_plain_sse2: 16 bytes a step (x86-64, where SSE2 is baseline;
 *     the tail as one overlapping block, a string under 16 bytes by
 *     trace_plain_swar).  No AVX2 level: the strings of a trace are names
 *     of 10 to 30 bytes, one or two blocks.
 * None reads a byte outside [s, s + n): the tails overlap backwards
 * instead of reading past the end (AddressSanitizer and valgrind see
 * every load).
 */
#ifndef NVTXT_TRACE_STRING_H
#define NVTXT_TRACE_STRING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define TRACE_HAVE_SSE2 1
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define TRACE_HAVE_SWAR 1
#endif

/* trace_plain_table[c]: 1 when byte c is plain. */
static const unsigned char trace_plain_table[256] = {
	[0x20] = 1, 1, 0 /* " */, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x30 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 /* \ */, 1, 1, 1,
	/* 0x60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 /* DEL */,
};

/* The reference: the number of plain bytes at the start of s (n bytes). */
static inline size_t trace_plain_bytes(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && trace_plain_table[s[i]])
		i++;
	return i;
}

#ifdef TRACE_HAVE_SWAR
/*
 * 0x80 in the bytes of x (little-endian) that are not plain, exact up to
 * and including the lowest such byte (bytes above it may be marked too):
 * below the first byte under 0x20, '"' or '\\', no subtraction borrows,
 * so each byte's high bit after "- 0x20", "^ '"' - 1" and "^ '\\' - 1"
 * is set only for a byte of its kind or one from 0x80 (which `| x`
 * marks anyway).  The lowest marked byte is thus the first not plain.
 */
static inline uint64_t trace_swar_marks(uint64_t x)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return ((((x - ones * 0x20) | (q - ones) | (b - ones)) & ~x) | x) & highs;
}

/* The same for 4 bytes (a string of 4 to 7 bytes). */
static inline uint32_t trace_swar_marks32(uint32_t x)
{
	const uint32_t ones = 0x01010101u, highs = 0x80808080u;
	uint32_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return ((((x - ones * 0x20) | (q - ones) | (b - ones)) & ~x) | x) & highs;
}

/*
 * trace_plain_bytes, 8 bytes a step.  The tail (1 to 7 bytes) is the
 * word that ends at s + n, its marks shifted past the bytes already
 * found plain (which, plain, cause no borrow into the rest).
 */
static inline size_t trace_plain_swar(const unsigned char *s, size_t n)
{
	size_t i = 0, rest;
	uint64_t x, m;

	if (n < 8) {
		uint32_t a, b, ma;
		if (n < 4)
			return trace_plain_bytes(s, n);
		memcpy(&a, s, 4);
		if ((ma = trace_swar_marks32(a)) != 0)
			return (size_t)__builtin_ctz(ma) / 8;
		if (n == 4)
			return 4;
		memcpy(&b, s + n - 4, 4);
		ma = trace_swar_marks32(b) >> (8 * (8 - n)); /* the n - 4 bytes past the first 4 */
		return ma ? 4 + (size_t)__builtin_ctz(ma) / 8 : n;
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if ((m = trace_swar_marks(x)) != 0)
			return i + (size_t)__builtin_ctzll(m) / 8;
	}
	rest = n - i;
	if (!rest)
		return n;
	memcpy(&x, s + n - 8, 8);
	m = trace_swar_marks(x) >> (8 * (8 - rest));
	return m ? i + (size_t)__builtin_ctzll(m) / 8 : n;
}
#endif

#ifdef TRACE_HAVE_SSE2
/* Bit k set when byte k of the 16 at s is not plain. */
static inline unsigned trace_sse2_marks(const unsigned char *s)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	/* signed: below 0x20, or from 0x80 (negative) */
	__m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));

	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	return (unsigned)_mm_movemask_epi8(m);
}

/* trace_plain_bytes, 16 bytes a step; the tail is the block that ends at s + n. */
static inline size_t trace_plain_sse2(const unsigned char *s, size_t n)
{
	size_t i = 0;
	unsigned m;

	if (n < 16)
		return trace_plain_swar(s, n);
	for (; i + 16 <= n; i += 16)
		if ((m = trace_sse2_marks(s + i)) != 0)
			return i + (size_t)__builtin_ctz(m);
	if (i == n)
		return n;
	m = trace_sse2_marks(s + n - 16) >> (16 - (n - i));
	return m ? i + (size_t)__builtin_ctz(m) : n;
}
#endif

/* The number of plain bytes at the start of s (n bytes), by the best scanner the host has. */
static inline size_t trace_plain_run(const unsigned char *s, size_t n)
{
#if defined(TRACE_HAVE_SSE2) && defined(TRACE_HAVE_SWAR)
	return trace_plain_sse2(s, n);
#elif defined(TRACE_HAVE_SWAR)
	return trace_plain_swar(s, n);
#else
	return trace_plain_bytes(s, n);
#endif
}

#ifdef TRACE_HAVE_SWAR
/* Whether the n bytes at s, 4 <= n <= 32, are all plain, in words that may overlap (any mark is a real one). */
static inline int trace_all_plain_swar(const unsigned char *s, size_t n)
{
	uint64_t a, b, c, d;
	uint32_t x, y;

	if (n < 8) {
		memcpy(&x, s, 4), memcpy(&y, s + n - 4, 4);
		return !(trace_swar_marks32(x) | trace_swar_marks32(y));
	}
	memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
	if (n <= 16)
		return !(trace_swar_marks(a) | trace_swar_marks(b));
	memcpy(&c, s + 8, 8), memcpy(&d, s + n - 16, 8);
	return !(trace_swar_marks(a) | trace_swar_marks(b) | trace_swar_marks(c) | trace_swar_marks(d));
}
#endif

/*
 * Copies n bytes from s to d without a call for n <= 32 (two moves that
 * may overlap), with memcpy above: the runs between escapes are short.
 */
static inline void trace_copy(char *d, const unsigned char *s, size_t n)
{
	uint64_t a, b;
	uint32_t c, e;

	if (n > 32) {
		memcpy(d, s, n);
	} else if (n >= 16) {
		uint64_t a2, b2;
		memcpy(&a, s, 8), memcpy(&a2, s + 8, 8);
		memcpy(&b, s + n - 16, 8), memcpy(&b2, s + n - 8, 8);
		memcpy(d, &a, 8), memcpy(d + 8, &a2, 8);
		memcpy(d + n - 16, &b, 8), memcpy(d + n - 8, &b2, 8);
	} else if (n >= 8) {
		memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&c, s, 4), memcpy(&e, s + n - 4, 4);
		memcpy(d, &c, 4), memcpy(d + n - 4, &e, 4);
	} else if (n) {
		d[0] = (char)s[0];
		d[n / 2] = (char)s[n / 2];
		d[n - 1] = (char)s[n - 1];
	}
}

/*
 * A string of at most 32 bytes that is all plain (most names): copied
 * from s to d and 1, after one check of the whole (two blocks, or two to
 * four words, that may overlap); else 0 and nothing written.
 */
static inline int trace_copy_if_plain(char *d, const unsigned char *s, size_t n)
{
	if (n > 32)
		return 0;
#ifdef TRACE_HAVE_SSE2
	if (n >= 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
		if (trace_sse2_marks(s) | trace_sse2_marks(s + n - 16))
			return 0;
		_mm_storeu_si128((__m128i *)(void *)d, a);
		_mm_storeu_si128((__m128i *)(void *)(d + n - 16), b);
		return 1;
	}
#endif
#ifdef TRACE_HAVE_SWAR
	if (n >= 4) {
		if (!trace_all_plain_swar(s, n))
			return 0;
		trace_copy(d, s, n);
		return 1;
	}
#endif
	if (trace_plain_bytes(s, n) != n)
		return 0;
	trace_copy(d, s, n);
	return 1;
}

#endif
