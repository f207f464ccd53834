/*
 * decimal.h - private to the library: integers written in decimal and hex
 * without printf, for the writers that print one or more per event
 * (emit_nvtxt.c, payload_dump.c).  Each writes at p and returns the end
 * of what it wrote, with no NUL; some store a few bytes past that end
 * (said below), which the caller's buffer must have room for and which
 * later bytes overwrite.
 */
#ifndef NVTXT_DECIMAL_H
#define NVTXT_DECIMAL_H

#include <stdint.h>
#include <string.h>

static const char decimal_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * Stores x at p, least significant byte first, whatever the host's byte
 * order (GCC and Clang make the eight stores one at -O2).
 */
static inline void store_le64(char *p, uint64_t x)
{
	unsigned char *u = (unsigned char *)p;

	u[0] = (unsigned char)x;
	u[1] = (unsigned char)(x >> 8);
	u[2] = (unsigned char)(x >> 16);
	u[3] = (unsigned char)(x >> 24);
	u[4] = (unsigned char)(x >> 32);
	u[5] = (unsigned char)(x >> 40);
	u[6] = (unsigned char)(x >> 48);
	u[7] = (unsigned char)(x >> 56);
}

/*
 * The 8 decimal digits of v < 10^8, with leading zeros, as the bytes of a
 * word in ASCII, the first digit in the least significant byte.  The
 * digits are split out in parallel ("SWAR"): v into two 4-digit halves in
 * 32-bit lanes, each half into two 2-digit quarters in 16-bit lanes, each
 * quarter into two digits in 8-bit lanes.  x / 100 is (x * 10486) >> 20
 * for x < 10^4, and x / 10 is (x * 103) >> 10 for x < 100; the products
 * stay inside their lanes.
 */
static inline uint64_t ascii_8_digits(uint32_t v)
{
	uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32, q;

	q = (x * 10486) >> 20 & 0x0000007F0000007Fu;
	x = q | (x - q * 100) << 16;
	q = (x * 103) >> 10 & 0x000F000F000F000Fu;
	x = q | (x - q * 10) << 8;
	return x | 0x3030303030303030u;
}

/*
 * The 8 digits of v < 10^8, leading zeros included, at p: two at a time
 * from decimal_pairs, fewer instructions than ascii_8_digits.  t / 2^56 is
 * v / 10^6 rounded up (the constant is 2^56 / 10^6 rounded up), so its
 * integer part is the first two digits, and each multiplication of its
 * fraction by 100 brings the next two into the integer part.  The
 * rounding adds less than 10^8 / 2^56 < 2e-9 to v / 10^6, a multiple of
 * 10^-6, and so never reaches the next multiple, even once multiplied by
 * 10^6 in the three steps: every digit is exact (tests/unit/decimal.c
 * tries every v).  t < 2^63 throughout.
 */
static inline void put_8_digits(char *p, uint32_t v)
{
	const uint64_t fraction = ((uint64_t)1 << 56) - 1;
	uint64_t t = v * (uint64_t)72057594038;

	memcpy(p, decimal_pairs + 2 * (t >> 56), 2);
	t = (t & fraction) * 100;
	memcpy(p + 2, decimal_pairs + 2 * (t >> 56), 2);
	t = (t & fraction) * 100;
	memcpy(p + 4, decimal_pairs + 2 * (t >> 56), 2);
	t = (t & fraction) * 100;
	memcpy(p + 6, decimal_pairs + 2 * (t >> 56), 2);
}

/* v < 10^8 in decimal (1 to 8 bytes); may store up to 8 bytes at p. */
static inline char *put_below_1e8(char *p, uint32_t v)
{
	unsigned n;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		memcpy(p, decimal_pairs + 2 * v, 2);
		return p + 2;
	}
	n = v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6 : v < 10000000 ? 7 : 8;
	store_le64(p, ascii_8_digits(v) >> (8 * (8 - n)));
	return p + n;
}

/* v in decimal (1 to 20 bytes): the leading digits, then blocks of 8; stores at most 20 bytes. */
static inline char *put_u64(char *p, uint64_t v)
{
	uint64_t hi;

	if (v < 100000000)
		return put_below_1e8(p, (uint32_t)v);
	hi = v / 100000000;
	if (hi < 100000000) {
		p = put_below_1e8(p, (uint32_t)hi);
	} else {
		p = put_below_1e8(p, (uint32_t)(hi / 100000000));
		put_8_digits(p, (uint32_t)(hi % 100000000));
		p += 8;
	}
	put_8_digits(p, (uint32_t)(v - 100000000 * hi));
	return p + 8;
}

/* v in decimal, '-' first when negative (1 to 20 bytes); stores at most 21 bytes. */
static inline char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, 0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

#endif
