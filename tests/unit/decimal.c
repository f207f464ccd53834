/*
 * decimal.c - unit test of the integer writers of src/util/decimal.h
 * (put_u64, put_i64), which emit_nvtxt.c and payload_dump.c use, against
 * snprintf: every edge (0, 9, 10, 99, 100, each power of ten and its
 * neighbours, the 32- and 64-bit extremes, both signs), then random values
 * of every number of digits; and that a writer stores nothing past the
 * bytes decimal.h says it may (20 for put_u64, 21 for put_i64); and
 * put_8_digits, their 8-digit blocks, for every value it takes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "tap.h"

/* A writer's buffer: the bytes it may store, then guard bytes that must stay '#'. */
enum { ROOM_U64 = 20, ROOM_I64 = 21, GUARD = 16 };

static long checked, failures;

static int untouched(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '#')
			return 0;
	return 1;
}

static void report(const char *what, const char *want, const char *got, const char *end)
{
	if (failures++ < 10)
		printf("# %s: got '%.*s', want '%s'%s\n", what, (int)(end - got), got, want,
		       untouched(got + ROOM_I64, GUARD) ? "" : " (stored past its room)");
}

/* Checks v through put_u64, and its two's complement through put_i64. */
static void check(uint64_t v)
{
	char got[ROOM_I64 + GUARD], want[32], *end;
	int n;

	checked++;
	memset(got, '#', sizeof got);
	end = put_u64(got, v);
	n = snprintf(want, sizeof want, "%" PRIu64, v);
	if (end - got != n || memcmp(got, want, (size_t)n) != 0 || !untouched(got + ROOM_U64, GUARD))
		report("put_u64", want, got, end);
	memset(got, '#', sizeof got);
	end = put_i64(got, (int64_t)v);
	n = snprintf(want, sizeof want, "%" PRId64, (int64_t)v);
	if (end - got != n || memcmp(got, want, (size_t)n) != 0 || !untouched(got + ROOM_I64, GUARD))
		report("put_i64", want, got, end);
}

/* put_8_digits for every v < 10^8, against a counter of 8 decimal digits. */
static int every_8_digits(void)
{
	char want[8] = "00000000", got[8];
	uint64_t a, b;

	for (uint32_t v = 0; v < 100000000; v++) {
		put_8_digits(got, v);
		memcpy(&a, got, 8);
		memcpy(&b, want, 8);
		if (a != b) {
			printf("# put_8_digits(%" PRIu32 "): '%.8s', want '%.8s'\n", v, got, want);
			return 0;
		}
		for (int i = 7; i >= 0 && ++want[i] > '9'; i--)
			want[i] = '0';
	}
	return 1;
}

int main(void)
{
	uint64_t p = 1;
	long before;

	/* Every power of ten and its neighbours, up to 10^19, and their negatives. */
	for (int k = 0; k < 20; k++, p *= 10) {
		for (uint64_t d = 0; d < 3; d++) {
			check(p + d - 1);
			check(0 - (p + d - 1));
		}
		check(2 * p - 1);
		check(5 * p);
		if (k < 19)
			check(9 * p + (p - 1)); /* 99...9 */
	}
	check(0);
	check(9);
	check(10);
	check(99);
	check(100);
	check(UINT32_MAX);
	check((uint64_t)UINT32_MAX + 1);
	check((uint64_t)INT64_MAX);
	check((uint64_t)INT64_MAX + 1); /* INT64_MIN */
	check((uint64_t)INT64_MAX + 2);
	check(UINT64_MAX);
	check(UINT64_MAX - 1);
	tap_ok(failures == 0, "edge values (%ld) as snprintf writes them", checked);

	/* Each of 0..10^6, then random values of each number of digits. */
	before = checked;
	for (uint64_t v = 0; v <= 1000000; v++)
		check(v);
	p = 1;
	for (int digits = 1; digits <= 20; digits++) {
		uint64_t lo = p, span = digits == 20 ? UINT64_MAX - p : 9 * p;

		for (int i = 0; i < 20000; i++)
			check(digits == 1 ? tap_rand() % 10 : lo + tap_rand() % span);
		if (digits < 20)
			p *= 10;
	}
	for (int i = 0; i < 200000; i++)
		check(tap_rand() >> (tap_rand() % 64));
	tap_ok(failures == 0, "random values (%ld) as snprintf writes them", checked - before);
	tap_ok(every_8_digits(), "put_8_digits: every value below 10^8");
	return tap_done();
}
