/*
 * fast_line.c - the front end's fast path: the common line shapes,
 * scanned and parsed in one pass over the read buffer, without flex and
 * bison.
 *
 * Traces are millions of lines like
 *
 *     RangePush, 5123476999, 1, "reduce_sum [warmup]"
 *     Color = Blue
 *
 * and flex's DFA plus bison's tables cost about 3,000 instructions for
 * such a line.  This path takes a call (a name, ',' and values) or an
 * assignment (a name, '=' and one value) whose values are integers,
 * quoted strings, bare words, $expansions or (in a call) empty, and
 * builds exactly the AST node that grammar/nvtxt.l and grammar/nvtxt.y
 * build for it: the same kinds, spellings and locations.  Anything else
 * (comments, definitions, blank lines, every line the scanner or the
 * parser would report, a line longer than FRONTEND_LINE_KEEP) is left to
 * them, so the grammar stays the definition of the language and every
 * diagnostic comes from one place.  tests/unit/fast_paths.c and the
 * fuzz_fast_paths target compare the two paths.
 *
 * The rules each branch mirrors are quoted from grammar/nvtxt.l: flex
 * takes the longest match and, among equal lengths, the first rule.
 */
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86_SCAN 1
#endif

#include "frontend.h"
#include "reader.h"

enum {
	K_ID_START = 1 << 0, /* [A-Za-z_] */
	K_ID = 1 << 1,       /* [A-Za-z0-9_] */
	K_BLANK = 1 << 2,    /* {BLANK}: [ \t] */
	K_BARE = 1 << 3,     /* the ASCII bytes of {BWC}: not NUL \n \r " $ ' , */
	K_DQ = 1 << 4,       /* the ASCII bytes of {DQC}: not NUL \n \r " */
	K_SQ = 1 << 5,       /* the ASCII bytes of {SQC}: not NUL \n \r ' */
	K_DIGIT = 1 << 6,    /* [0-9] */
	K_HEX = 1 << 7       /* [0-9A-Fa-f] */
};

#define IS_ALPHA(c) (((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z') || (c) == '_')
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_TEXT(c) ((c) >= 0x01 && (c) < 0x80 && (c) != '\n' && (c) != '\r')
#define CLASS(c)                                                                              \
	((IS_ALPHA(c) ? K_ID_START | K_ID : 0) | (IS_DIGIT(c) ? K_ID | K_DIGIT | K_HEX : 0) | \
	 (((c) >= 'A' && (c) <= 'F') || ((c) >= 'a' && (c) <= 'f') ? K_HEX : 0) |             \
	 ((c) == ' ' || (c) == '\t' ? K_BLANK : 0) |                                           \
	 (IS_TEXT(c) && (c) != '"' && (c) != '$' && (c) != '\'' && (c) != ',' ? K_BARE : 0) |  \
	 (IS_TEXT(c) && (c) != '"' ? K_DQ : 0) | (IS_TEXT(c) && (c) != '\'' ? K_SQ : 0))
#define C4(c) CLASS(c), CLASS((c) + 1), CLASS((c) + 2), CLASS((c) + 3)
#define C16(c) C4(c), C4((c) + 4), C4((c) + 8), C4((c) + 12)
#define C64(c) C16(c), C16((c) + 16), C16((c) + 32), C16((c) + 48)

static const unsigned char classes[256] = { C64(0), C64(64) };

static inline bool is(unsigned char c, unsigned k)
{
	return classes[c] & k;
}

/*
 * Eight bytes at a time (a chunk has READER_PAD readable bytes after its
 * data).  A word is "plain" text of a quoted string
 * when every byte is in 0x20..0x7F and none is the quote.
 */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static inline uint64_t load8(const unsigned char *p)
{
	uint64_t x;
	memcpy(&x, p, sizeof(x));
	return x;
}

static inline bool plain8(uint64_t x, unsigned char quote)
{
	uint64_t q = x ^ (ONES * quote);
	uint64_t zero_or_quote = (q - ONES) & ~q;   /* high bit set in a byte that was the quote */
	uint64_t control = (x - ONES * 0x20) & ~x;  /* high bit set in a byte below 0x20 */
	return ((zero_or_quote | control | x) & HIGHS) == 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* True when the 8 bytes (the first in the low byte) are all ASCII digits. */
static inline bool digits8(uint64_t x)
{
	return ((x & 0xF0F0F0F0F0F0F0F0ULL) |
		(((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) == 0x3333333333333333ULL;
}

/* The value of 8 ASCII digits, the first the most significant. */
static inline uint64_t value8(uint64_t x)
{
	x = (x & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
	x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
	return (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
}
#define HAVE_DIGITS8 1
#endif

/*
 * Converts [+-]?[0-9]+ or 0[xX][0-9A-Fa-f]+ (the whole of p..e) as the
 * scanner's integer() does.  Returns 1 for an integer, 0 for text that is
 * not one (a bare word), -1 for an integer out of range (the scanner
 * reports it).
 */
static int integer(const unsigned char *p, const unsigned char *e, int64_t *out)
{
	uint64_t u = 0;

	if (e - p > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		const unsigned char *q = p + 2;
		while (q < e && is(*q, K_HEX)) {
			unsigned c = *q++;
			u = u << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
		}
		if (q != e)
			return 0;
		if (e - p - 2 > 16)
			return -1;
		*out = (int64_t)u;
		return 1;
	}
	{
		bool neg = *p == '-';
		const unsigned char *q = p + (*p == '-' || *p == '+');
		uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

		if (q == e)
			return 0;
		for (const unsigned char *d = q; d < e; d++)
			if (!is(*d, K_DIGIT))
				return 0;
		for (; q < e; q++) {
			unsigned d = (unsigned)(*q - '0');
			if (u > (limit - d) / 10)
				return -1;
			u = u * 10 + d;
		}
		*out = neg ? (int64_t)(0 - u) : (int64_t)u;
		return 1;
	}
}

/*
 * The value of the n ASCII digits at d (1 <= n <= 18; d has 16 readable
 * bytes), as a decimal number without overflow.
 */
static inline uint64_t digits_value(const unsigned char *d, size_t n)
{
#ifdef HAVE_DIGITS8
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
					   100000000 };
	/* the digits moved to the high bytes: the zero bytes below are leading zeros */
	if (n == 1)
		return (uint64_t)(d[0] - '0');
	if (n <= 8)
		return value8(load8(d) << (8 * (8 - n)));
	if (n <= 16)
		return value8(load8(d)) * pow10[n - 8] + value8(load8(d + 8) << (8 * (16 - n)));
#endif
	{
		uint64_t u = 0;
		for (size_t i = 0; i < n; i++)
			u = u * 10 + (unsigned)(d[i] - '0');
		return u;
	}
}

/* The portable level's digits_value. */
static inline uint64_t digits_value_portable(const unsigned char *d, size_t n)
{
	return digits_value(d, n);
}

#ifdef HAVE_X86_SCAN
/*
 * digits_value, 16 digits a step with SSE2 (for the SSE2 and AVX2 levels):
 * the 16 bytes that end with the last digit (a chunk has READER_FRONT_PAD
 * readable bytes before its data) less '0', the bytes before the first
 * digit cleared, then pairs, fours and eights of digits combined by
 * multiply-adds of 16-bit lanes (10 and 1, 100 and 1, 10000 and 1): two
 * 32-bit lanes of 8 digits each.
 */
static inline uint64_t digits_value_sse2(const unsigned char *d, size_t n)
{
	/* 16 zero bytes, then 16 0xFF: from byte n on, 16 - n zeros then n 0xFF */
	static const unsigned char last_n[32] = {
		0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	};
	__m128i x, zero = _mm_setzero_si128(), lo, hi;
	uint64_t eights;

	if (n == 1)
		return (uint64_t)(d[0] - '0');
	if (n > 16)
		return digits_value(d, n);
	x = _mm_loadu_si128((const __m128i *)(d + n - 16));
	x = _mm_and_si128(_mm_sub_epi8(x, _mm_set1_epi8('0')), _mm_loadu_si128((const __m128i *)(last_n + n)));
	/* 16 digits as 16-bit lanes, the first the most significant; pairs into 32-bit lanes */
	lo = _mm_madd_epi16(_mm_unpacklo_epi8(x, zero), _mm_set1_epi32(1 << 16 | 10));
	hi = _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), _mm_set1_epi32(1 << 16 | 10));
	/* 8 pairs (< 100) as 16-bit lanes; fours into 32-bit lanes */
	x = _mm_madd_epi16(_mm_packs_epi32(lo, hi), _mm_set1_epi32(1 << 16 | 100));
	/* 4 fours (< 10000) as 16-bit lanes; eights into 32-bit lanes 0 and 1 */
	x = _mm_madd_epi16(_mm_packs_epi32(x, x), _mm_set1_epi32(1 << 16 | 10000));
	eights = (uint64_t)_mm_cvtsi128_si64(x);
	return (eights & 0xFFFFFFFFu) * 100000000u + (eights >> 32);
}

#define digits_value_avx2 digits_value_sse2
#endif

static inline bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* {EOL}: \r?\n */
static inline bool at_eol(const unsigned char *p)
{
	return *p == '\n' || (*p == '\r' && p[1] == '\n');
}

/*
 * The scanning steps of each level: the first byte at or after p that is
 * not in [A-Za-z0-9_] (id_end), not an ASCII digit (digits_end), or that
 * is the quote, below 0x20 or above 0x7F (quote_stop).  Each stops at the
 * chunk's sentinel '\n' at the latest.
 */

/* Portable: bytes, and eight-byte words for quoted strings. */
static inline const unsigned char *id_end_portable(const unsigned char *p)
{
	while (is(*p, K_ID))
		p++;
	return p;
}

static inline const unsigned char *digits_end_portable(const unsigned char *p)
{
#ifdef HAVE_DIGITS8
	while (digits8(load8(p)))
		p += 8;
#endif
	while (is(*p, K_DIGIT))
		p++;
	return p;
}

static inline const unsigned char *quote_stop_portable(const unsigned char *p, unsigned char quote)
{
	for (;;) {
		uint64_t x = load8(p);
		if (!plain8(x, quote))
			break;
		p += 8;
	}
	while (*p >= 0x20 && *p < 0x80 && *p != quote)
		p++;
	return p;
}

#ifdef HAVE_X86_SCAN
/*
 * Bytes in [lo, lo + n) as a mask: shifted by 0x80 - lo, they are the
 * signed bytes below -128 + n.
 */
#define IN_RANGE_128(x, lo, n) \
	_mm_cmplt_epi8(_mm_add_epi8((x), _mm_set1_epi8((char)(0x80 - (lo)))), _mm_set1_epi8((char)(-128 + (n))))

static inline const unsigned char *id_end_sse2(const unsigned char *p)
{
	for (;;) {
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		__m128i id = _mm_or_si128(
			_mm_or_si128(IN_RANGE_128(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 26),
				     IN_RANGE_128(x, '0', 10)),
			_mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
		unsigned stop = ~(unsigned)_mm_movemask_epi8(id) & 0xFFFFu;
		if (stop)
			return p + __builtin_ctz(stop);
		p += 16;
	}
}

static inline const unsigned char *digits_end_sse2(const unsigned char *p)
{
	for (;;) {
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		unsigned stop = ~(unsigned)_mm_movemask_epi8(IN_RANGE_128(x, '0', 10)) & 0xFFFFu;
		if (stop)
			return p + __builtin_ctz(stop);
		p += 16;
	}
}

static inline const unsigned char *quote_stop_sse2(const unsigned char *p, unsigned char quote)
{
	const __m128i q = _mm_set1_epi8((char)quote), space = _mm_set1_epi8(0x20);
	for (;;) {
		__m128i x = _mm_loadu_si128((const __m128i *)p);
		/* signed: the bytes above 0x7F are below 0x20 too */
		unsigned stop = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmplt_epi8(x, space)));
		if (stop)
			return p + __builtin_ctz(stop);
		p += 16;
	}
}

#define AVX2_FN __attribute__((target("avx2,pclmul")))
#define IN_RANGE_256(x, lo, n)                                           \
	_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(-128 + (n))),            \
			  _mm256_add_epi8((x), _mm256_set1_epi8((char)(0x80 - (lo)))))

AVX2_FN static inline const unsigned char *id_end_avx2(const unsigned char *p)
{
	for (;;) {
		__m256i x = _mm256_loadu_si256((const __m256i *)p);
		__m256i id = _mm256_or_si256(
			_mm256_or_si256(IN_RANGE_256(_mm256_or_si256(x, _mm256_set1_epi8(0x20)), 'a', 26),
					IN_RANGE_256(x, '0', 10)),
			_mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')));
		uint32_t stop = ~(uint32_t)_mm256_movemask_epi8(id);
		if (stop)
			return p + __builtin_ctz(stop);
		p += 32;
	}
}

AVX2_FN static inline const unsigned char *digits_end_avx2(const unsigned char *p)
{
	for (;;) {
		__m256i x = _mm256_loadu_si256((const __m256i *)p);
		uint32_t stop = ~(uint32_t)_mm256_movemask_epi8(IN_RANGE_256(x, '0', 10));
		if (stop)
			return p + __builtin_ctz(stop);
		p += 32;
	}
}

AVX2_FN static inline const unsigned char *quote_stop_avx2(const unsigned char *p, unsigned char quote)
{
	const __m256i q = _mm256_set1_epi8((char)quote), space = _mm256_set1_epi8(0x20);
	for (;;) {
		__m256i x = _mm256_loadu_si256((const __m256i *)p);
		uint32_t stop = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(x, q), _mm256_cmpgt_epi8(space, x)));
		if (stop)
			return p + __builtin_ctz(stop);
		p += 32;
	}
}
#endif

/*
 * The line window: the 64 bytes from the ',' after a call's name
 * classified in one go, bit i of each mask for the byte at i (a chunk has
 * READER_PAD = 64 readable bytes after its data, so the window may always
 * be loaded).  The body's window_values takes the common call lines from
 * these masks instead of a step per token.  The SSE2 and AVX2 levels
 * classify 16 or 32 bytes a step and may stop after the step that holds
 * the first stop byte: the bits after the first stop byte are unspecified.
 * (The portable level has no window: a byte at a time, classifying costs
 * more than the token steps.)  A tab is
 * a stop byte, not a blank: a line with a tab is left to the token steps.
 */
struct line_window {
	uint64_t quote;           /* '"' */
	uint64_t comma;           /* ',' */
	uint64_t space;           /* ' ' */
	uint64_t digit;           /* '0'..'9' */
	uint64_t stop;            /* below 0x20 or above 0x7F: the line break, and what a window line may not hold */
};

#ifdef HAVE_X86_SCAN
/* The masks of the 16 bytes at p, shifted to bit `at`; returns their stop bits. */
static inline uint64_t window16(const unsigned char *p, unsigned at, struct line_window *w)
{
	__m128i x = _mm_loadu_si128((const __m128i *)p);
	/* signed: the bytes above 0x7F are below 0x20 too */
	uint64_t stop = (uint16_t)_mm_movemask_epi8(_mm_cmplt_epi8(x, _mm_set1_epi8(' ')));

	w->quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('"'))) << at;
	w->comma |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(','))) << at;
	w->space |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' '))) << at;
	w->digit |= (uint64_t)(uint16_t)_mm_movemask_epi8(IN_RANGE_128(x, '0', 10)) << at;
	w->stop |= stop << at;
	return stop;
}

static inline void window_sse2(const unsigned char *p, struct line_window *w)
{
	*w = (struct line_window){ 0 };
	if (!window16(p, 0, w) && !window16(p + 16, 16, w) && !window16(p + 32, 32, w))
		window16(p + 48, 48, w);
}

/* The same for the 32 bytes at p. */
AVX2_FN static inline uint64_t window32(const unsigned char *p, unsigned at, struct line_window *w)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)p);
	uint64_t stop = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(' '), x));

	w->quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('"'))) << at;
	w->comma |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(','))) << at;
	w->space |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(' '))) << at;
	w->digit |= (uint64_t)(uint32_t)_mm256_movemask_epi8(IN_RANGE_256(x, '0', 10)) << at;
	w->stop |= stop << at;
	return stop;
}

AVX2_FN static inline void window_avx2(const unsigned char *p, struct line_window *w)
{
	*w = (struct line_window){ 0 };
	if (!window32(p, 0, w))
		window32(p + 32, 32, w);
}

/*
 * The prefix XOR of a window's mask: bit i is the XOR of bits 0..i of x,
 * so that from each set bit of an odd rank up to before the next one the
 * bits are set (the strings between pairs of quotes).  SSE2 in six
 * shifts; with AVX2 one carry-less multiplication by all ones
 * (PCLMULQDQ, which every processor with AVX2 has; fast_scan_available
 * checks both).
 */
static inline uint64_t prefix_xor_sse2(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	return x ^ x << 32;
}

AVX2_FN static inline uint64_t prefix_xor_avx2(uint64_t x)
{
	return (uint64_t)_mm_cvtsi128_si64(
		_mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_set1_epi8(-1), 0));
}
#endif

/* The parser, once per level (fast_line_body.h). */
#define SCAN_FN static
#define SCAN(name) name##_portable
#define SCAN_WINDOW 0
#include "fast_line_body.h"
#undef SCAN_WINDOW
#undef SCAN
#undef SCAN_FN
#ifdef HAVE_X86_SCAN
#define SCAN_FN static
#define SCAN(name) name##_sse2
#define SCAN_WINDOW 1
#include "fast_line_body.h"
#undef SCAN_WINDOW
#undef SCAN
#undef SCAN_FN
#define SCAN_FN AVX2_FN static
#define SCAN(name) name##_avx2
#define SCAN_WINDOW 1
#include "fast_line_body.h"
#undef SCAN_WINDOW
#undef SCAN
#undef SCAN_FN
#endif

bool fast_scan_available(enum fast_scan level)
{
	switch (level) {
	case FAST_SCAN_PORTABLE:
		return true;
#ifdef HAVE_X86_SCAN
	case FAST_SCAN_SSE2:
		return true;
	case FAST_SCAN_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul");
#endif
	default:
		return false;
	}
}

static enum fast_scan forced = FAST_SCAN_LEVELS;

void fast_scan_force(enum fast_scan level)
{
	forced = level;
}

fast_lines_fn *fast_lines_parser(void)
{
	static fast_lines_fn *const parsers[FAST_SCAN_LEVELS] = {
		fast_lines_portable,
#ifdef HAVE_X86_SCAN
		fast_lines_sse2,
		fast_lines_avx2,
#endif
	};
	int level = forced;

	if (level >= FAST_SCAN_LEVELS || !fast_scan_available((enum fast_scan)level)) {
		level = FAST_SCAN_LEVELS - 1;
		while (level > 0 && !fast_scan_available((enum fast_scan)level))
			level--;
	}
	return parsers[level];
}
