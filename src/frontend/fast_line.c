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
 * Scans one value at p (blanks skipped) into v.  Returns the byte after
 * the token, or NULL when the scanner would report it or split it
 * differently.
 */
static unsigned char *value(unsigned char *p, const unsigned char *end, const unsigned char *line,
			    struct nvtxt_value *v)
{
	unsigned char c = *p, *q;

	v->origin = NULL;
	v->integer = 0;
	v->loc.col = (uint32_t)(p - line) + 1;
	if (c == '"' || c == '\'') {
		/* \"{DQC}*\"  '{SQC}*' */
		unsigned k = c == '"' ? K_DQ : K_SQ;
		q = p + 1;
		for (;;) {
			if (plain8(load8(q), c)) {
				q += 8;
			} else if (is(*q, k)) {
				q++;
			} else if (*q >= 0x80) {
				size_t n = utf8_seq(q, (size_t)(end - q));
				if (!n)
					return NULL;
				q += n;
			} else {
				break;
			}
		}
		if (*q != c)
			return NULL;
		v->kind = NVTXT_V_STRING;
		v->quote = (char)c;
		v->text = (struct nvtxt_str){ (const char *)p + 1, (size_t)(q - p - 1) };
		v->loc.len = (uint32_t)(q + 1 - p);
		return q + 1;
	}
	if (c == '$') {
		/* "$"{ID} */
		if (!is(p[1], K_ID_START))
			return NULL;
		for (q = p + 2; is(*q, K_ID); q++)
			;
		v->kind = NVTXT_V_EXPANSION;
		v->quote = '$';
		v->text = (struct nvtxt_str){ (const char *)p + 1, (size_t)(q - p - 1) };
		v->loc.len = (uint32_t)(q - p);
		return q;
	}
	if (is(c, K_DIGIT) || ((c == '-' || c == '+') && is(p[1], K_DIGIT))) {
		/*
		 * The common case first: [+-]?[0-9]+ of at most 18 digits (no
		 * overflow possible) that ends the bare-word run, that is, only
		 * blanks come before the next ',' or line break.
		 */
		const unsigned char *digits = p + !is(c, K_DIGIT), *r;
		uint64_t u = 0;

		q = (unsigned char *)digits;
#ifdef HAVE_DIGITS8
		while (digits8(load8(q)) && q - digits <= 16) {
			u = u * 100000000 + value8(load8(q));
			q += 8;
		}
#endif
		for (; is(*q, K_DIGIT); q++)
			u = u * 10 + (unsigned)(*q - '0');
		for (r = q; is(*r, K_BLANK); r++)
			;
		if (q - digits <= 18 && (*r == ',' || *r == '\n' || *r == '\r')) {
			v->kind = NVTXT_V_INTEGER;
			v->quote = 0;
			v->integer = c == '-' ? -(int64_t)u : (int64_t)u;
			v->text = (struct nvtxt_str){ (const char *)p, (size_t)(q - p) };
			v->loc.len = (uint32_t)(q - p);
			return q;
		}
	}
	{
		/*
		 * ({BW1})({BWC}*{BW1})?: the longest run of bare-word bytes
		 * without its trailing blanks; an integer rule matching all of
		 * it wins the tie.
		 */
		unsigned char *w = p;
		int r;

		q = p;
		for (;;) {
			if (is(*q, K_BARE)) {
				if (!is(*q++, K_BLANK))
					w = q;
			} else if (*q >= 0x80) {
				size_t n = utf8_seq(q, (size_t)(end - q));
				if (!n)
					return NULL;
				q += n;
				w = q;
			} else {
				break;
			}
		}
		if (w == p)
			return NULL;
		r = integer(p, w, &v->integer);
		if (r < 0)
			return NULL;
		v->kind = r ? NVTXT_V_INTEGER : NVTXT_V_STRING;
		v->quote = 0;
		v->text = (struct nvtxt_str){ (const char *)p, (size_t)(w - p) };
		v->loc.len = (uint32_t)(w - p);
		return w;
	}
}

static inline unsigned char *skip_blanks(unsigned char *p)
{
	while (is(*p, K_BLANK))
		p++;
	return p;
}

/* {EOL}: \r?\n */
static inline bool at_eol(const unsigned char *p)
{
	return *p == '\n' || (*p == '\r' && p[1] == '\n');
}

char *fast_line_parse(char *line_start, const char *end_of_data, uint32_t lineno, uint64_t line_offset,
		      struct line_rec *rec, struct nvtxt_value *values)
{
	unsigned char *const line = (unsigned char *)line_start;
	const unsigned char *const end = (const unsigned char *)end_of_data;
	unsigned char *p = line, *name, *nl;
	struct nvtxt_loc loc = { lineno, 0, 0, line_offset };
	uint32_t name_col, end_col = 0;
	size_t n = 0, name_len;
	bool assignment;

	/* <INITIAL>{ID}, then <AFTER_NAME>"=" or "," */
	p = skip_blanks(p);
	if (!is(*p, K_ID_START))
		return NULL;
	name = p;
	while (is(*++p, K_ID))
		;
	name_len = (size_t)(p - name);
	name_col = (uint32_t)(name - line) + 1;
	p = skip_blanks(p);
	if (*p != ',' && *p != '=')
		return NULL;
	assignment = *p == '=';

	/* <VAL>: values separated by ',' up to {EOL} */
	for (;;) {
		struct nvtxt_value *v;
		uint32_t sep_col = (uint32_t)(p - line) + 1;

		p = skip_blanks(p + 1);
		if (n >= FRONTEND_MAX_VALUES)
			return NULL; /* the parser reports it */
		v = &values[n++];
		v->loc = loc;
		if (*p == ',' || at_eol(p)) {
			/* arg: %empty, located just after the ',' */
			if (assignment)
				return NULL;
			v->kind = NVTXT_V_ABSENT;
			v->quote = 0;
			v->integer = 0;
			v->text = (struct nvtxt_str){ NULL, 0 };
			v->origin = NULL;
			v->loc.col = sep_col + 1;
			end_col = sep_col + 1;
		} else {
			p = value(p, end, line, v);
			if (!p)
				return NULL;
			end_col = v->loc.col + v->loc.len;
			p = skip_blanks(p);
		}
		if (*p == ',' && !assignment)
			continue;
		if (!at_eol(p))
			return NULL;
		break;
	}
	nl = *p == '\r' ? p + 1 : p;
	if (nl == end || p - line > FRONTEND_LINE_KEEP)
		return NULL; /* the line goes on past the data, or is long: the scanner keeps its excerpt */

	/* taken: the node the parser's actions would build */
	rec->text_len = (uint32_t)(p - line);
	rec->instr = (struct nvtxt_instr){
		.kind = assignment ? NVTXT_I_ASSIGNMENT : NVTXT_I_CALL,
		.loc = { loc.line, name_col, end_col - name_col, loc.line_offset },
		.name = { (const char *)name, name_len },
		.name_loc = { loc.line, name_col, (uint32_t)name_len, loc.line_offset },
		.nvalues = n,
		.end_loc = assignment ? values[0].loc
				      : (struct nvtxt_loc){ loc.line, name_col, end_col - name_col, loc.line_offset },
	};
	/* the texts point into the chunk, not NUL-terminated (struct nvtxt_str) */
	return (char *)nl + 1;
}
