/*
 * tap.h - a minimal Test Anything Protocol producer for the unit tests.
 * Each test binary prints "1..N" at the end (a trailing plan, which prove
 * accepts) and exits non-zero when a test failed.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;

/*
 * The unit tests' random values: xorshift64 (Marsaglia, "Xorshift RNGs",
 * 2003), the same stream on every run; a test that wants a stream of its
 * own sets tap_rng (never 0) first.
 */
static uint64_t tap_rng = 0x9E3779B97F4A7C15u;

static inline uint64_t tap_rand(void)
{
	tap_rng ^= tap_rng << 13;
	tap_rng ^= tap_rng >> 7;
	tap_rng ^= tap_rng << 17;
	return tap_rng;
}

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

/* Compares two NUL-terminated strings and shows both when they differ. */
#define tap_is_str(got, want, ...)                                          \
	do {                                                                    \
		const char *tap_g_ = (got), *tap_w_ = (want);                       \
		int tap_c_ = tap_g_ && tap_w_ && strcmp(tap_g_, tap_w_) == 0;       \
		if (!tap_ok(tap_c_, __VA_ARGS__))                                   \
			printf("#   got:  '%s'\n#   want: '%s'\n",                      \
			       tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
	} while (0)

#define tap_is_int(got, want, ...)                                          \
	do {                                                                    \
		long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);    \
		if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))                         \
			printf("#   got:  %lld\n#   want: %lld\n", tap_g_, tap_w_);     \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
