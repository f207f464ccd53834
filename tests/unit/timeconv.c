/*
 * timeconv.c - unit test of the time conversion (src/backends/timeconv.c):
 * the default rules, lin and lerp on numbers checked by hand (the
 * examples of nvtxtc(1), TIME CONVERSION among them), rounding toward
 * minus infinity, the edges of int64, overflow, and the option's errors.
 */
#include <errno.h>
#include <stdint.h>

#include "timeconv.h"
#include "tap.h"

static struct nvtxt_tconv tc;

/* Parses spec into a fresh table; returns 0 or -1. */
static int with(const char *spec)
{
	char err[256];

	nvtxt_tconv_init(&tc);
	return spec ? nvtxt_tconv_parse(&tc, spec, err, sizeof err) : 0;
}

static void converts(enum nvtxt_timebase tb, int64_t t, int64_t want, const char *what)
{
	int64_t ns = 0x5555;
	int rc = nvtxt_tconv_apply(&tc, tb, t, &ns);

	if (!tap_ok(rc == NVTXT_OK && ns == want, "%s", what))
		printf("#   rc %d, got %lld, want %lld\n", rc, (long long)ns, (long long)want);
}

/* The conversion fails with the status want (enum nvtxt_status), errno untouched. */
static void fails(enum nvtxt_timebase tb, int64_t t, int want, const char *what)
{
	int64_t ns = 0;
	int rc;

	errno = 0;
	rc = nvtxt_tconv_apply(&tc, tb, t, &ns);
	if (!tap_ok(rc == want && errno == 0, "%s", what))
		printf("#   rc %d (want %d) errno %d, ns %lld\n", rc, want, errno, (long long)ns);
}

static void rejects(const char *spec, const char *fragment)
{
	char err[256] = "";

	nvtxt_tconv_init(&tc);
	if (!tap_ok(nvtxt_tconv_parse(&tc, spec, err, sizeof err) == -1 && strstr(err, fragment),
		    "'%s' is rejected: %s", spec, fragment))
		printf("#   message: %s\n", err);
}

int main(void)
{
	/* defaults */
	with(NULL);
	converts(NVTXT_TB_CLOCK_MONOTONIC_RAW, 123456789, 123456789, "ClockMonotonicRaw is nanoseconds");
	converts(NVTXT_TB_MANUAL, INT64_MAX, INT64_MAX, "Manual is nanoseconds, up to INT64_MAX");
	converts(NVTXT_TB_RELATIVE, INT64_MIN, INT64_MIN, "Relative is nanoseconds, down to INT64_MIN");
	converts(NVTXT_TB_FILETIME, 116444736000000000, 0, "FileTime of 1970-01-01 is 0 ns");
	converts(NVTXT_TB_FILETIME, 116444736000000001, 100, "one FileTime tick is 100 ns");
	converts(NVTXT_TB_FILETIME, 133000000000000000, INT64_C(1655526400000000000),
		 "FileTime 133000000000000000 is 1655526400000000000 ns (2022-06-18)");
	/* int64 ns ends in 2262-04-11 and begins in 1677-09-21 */
	converts(NVTXT_TB_FILETIME, 116444736000000000 + INT64_MAX / 100, INT64_MAX / 100 * 100,
		 "the last FileTime tick before INT64_MAX ns");
	fails(NVTXT_TB_FILETIME, 116444736000000000 + INT64_MAX / 100 + 1, NVTXT_ERR_TIME_RANGE,
	      "FileTime past 2262 overflows int64 ns");
	fails(NVTXT_TB_FILETIME, 1, NVTXT_ERR_TIME_RANGE, "FileTime 1 (1601) is before 1677: overflow");
	fails(NVTXT_TB_QPC, 0, NVTXT_ERR_TIME_NO_RATE, "Qpc has no default rate");
	fails(NVTXT_TB_RDTSC, 0, NVTXT_ERR_TIME_NO_RATE, "Rdtsc has no default rate");
	fails(NVTXT_TB_CNTVCT, 0, NVTXT_ERR_TIME_NO_RATE, "CNTVCT has no default rate");

	/* lin: the example of nvtxtc(1): a 10 MHz Qpc whose tick 5000000 is at 1 s */
	tap_ok(with("Qpc:lin:1000000000,5000000,10000000") == 0, "lin parses");
	converts(NVTXT_TB_QPC, 5012345, 1001234500, "lin: 1000000000 + 12345 * 10^9 / 10^7 = 1001234500");
	converts(NVTXT_TB_QPC, 5000000, 1000000000, "lin: the known point itself");
	converts(NVTXT_TB_QPC, 0, 500000000, "lin: before the known point");
	fails(NVTXT_TB_RDTSC, 0, NVTXT_ERR_TIME_NO_RATE, "a rule for Qpc leaves Rdtsc without one");
	tap_ok(tc.rule[NVTXT_TB_QPC].given && tc.any_given, "the rule is marked as given");

	/* lin rounds toward minus infinity: 10^9 / 3 */
	with("Rdtsc:lin:0,0,3");
	converts(NVTXT_TB_RDTSC, 1, 333333333, "lin: 10^9 / 3 rounds down to 333333333");
	converts(NVTXT_TB_RDTSC, -1, -333333334, "lin: -10^9 / 3 rounds down to -333333334");
	converts(NVTXT_TB_RDTSC, 3, 1000000000, "lin: 3 ticks at 3 Hz are exactly 1 s");

	/* lin at the edges of int64 */
	with("CNTVCT:lin:0,0,1000000000");
	converts(NVTXT_TB_CNTVCT, INT64_MAX, INT64_MAX, "lin at 1 GHz: INT64_MAX");
	converts(NVTXT_TB_CNTVCT, INT64_MIN, INT64_MIN, "lin at 1 GHz: INT64_MIN");
	with("CNTVCT:lin:9223372036854775807,9223372036854775807,1000000000");
	converts(NVTXT_TB_CNTVCT, INT64_MIN, INT64_MIN,
		 "lin: t - T_A = INT64_MIN - INT64_MAX needs 65 bits, the result INT64_MIN is exact");
	with("CNTVCT:lin:0,0,1");
	converts(NVTXT_TB_CNTVCT, 9223372036, INT64_C(9223372036000000000), "lin at 1 Hz: 9223372036 s fits");
	fails(NVTXT_TB_CNTVCT, 9223372037, NVTXT_ERR_TIME_RANGE, "lin at 1 Hz: 9223372037 s overflows");
	fails(NVTXT_TB_CNTVCT, INT64_MAX, NVTXT_ERR_TIME_RANGE, "lin at 1 Hz: INT64_MAX s overflows");
	fails(NVTXT_TB_CNTVCT, -9223372037, NVTXT_ERR_TIME_RANGE, "lin at 1 Hz: -9223372037 s overflows");

	/* lerp: the example of nvtxtc(1): Rdtsc ticks 1000 and 3001000 at 0 and 1 ms */
	tap_ok(with("Rdtsc:lerp:0,1000,1000000,3001000") == 0, "lerp parses");
	converts(NVTXT_TB_RDTSC, 1000000, 333000, "lerp: 999000 * 1000000 / 3000000 = 333000");
	converts(NVTXT_TB_RDTSC, 3001000, 1000000, "lerp: the second point");
	converts(NVTXT_TB_RDTSC, 0, -334, "lerp: -1000 / 3 rounds down to -334");
	tap_ok(with("Rdtsc:lerp:1000000,3001000,0,1000") == 0, "lerp takes its points in either order");
	converts(NVTXT_TB_RDTSC, 1000000, 333000, "lerp: the same line");

	with("Qpc:lerp:1000000,100,2000000,300");
	converts(NVTXT_TB_QPC, 200, 1500000, "lerp: halfway");
	converts(NVTXT_TB_QPC, 101, 1005000, "lerp: 1000000 + 1 * 1000000 / 200");
	converts(NVTXT_TB_QPC, 0, 500000, "lerp: extrapolated below the first point");
	with("Qpc:lerp:0,0,10,3");
	converts(NVTXT_TB_QPC, 1, 3, "lerp: 10 / 3 rounds down to 3");
	converts(NVTXT_TB_QPC, -1, -4, "lerp: -10 / 3 rounds down to -4");

	/* lerp over all of int64: slope 1, N = D = 2^64 - 1, rem * N near 2^127 */
	with("Manual:lerp:-9223372036854775808,-9223372036854775808,9223372036854775807,9223372036854775807");
	converts(NVTXT_TB_MANUAL, 0, 0, "lerp over all of int64: 0");
	converts(NVTXT_TB_MANUAL, INT64_MAX, INT64_MAX, "lerp over all of int64: INT64_MAX");
	converts(NVTXT_TB_MANUAL, INT64_MIN, INT64_MIN, "lerp over all of int64: INT64_MIN");
	converts(NVTXT_TB_MANUAL, -1, -1, "lerp over all of int64: -1");
	/* a steep lerp: one tick is INT64_MAX ns */
	with("Qpc:lerp:0,0,9223372036854775807,1");
	converts(NVTXT_TB_QPC, 1, INT64_MAX, "steep lerp: 1 tick is INT64_MAX ns");
	converts(NVTXT_TB_QPC, -1, -INT64_MAX, "steep lerp: -1 tick is -INT64_MAX ns");
	fails(NVTXT_TB_QPC, 2, NVTXT_ERR_TIME_RANGE, "steep lerp: 2 ticks overflow");
	fails(NVTXT_TB_QPC, -2, NVTXT_ERR_TIME_RANGE, "steep lerp: -2 ticks overflow");
	fails(NVTXT_TB_QPC, INT64_MAX, NVTXT_ERR_TIME_RANGE, "steep lerp: INT64_MAX ticks overflow (q * N past 2^127)");
	fails(NVTXT_TB_QPC, INT64_MIN, NVTXT_ERR_TIME_RANGE, "steep lerp: INT64_MIN ticks overflow");

	/* the option's errors */
	rejects("Qpc", "expected TIMEBASE:lin:NS_A,T_A,FREQ");
	rejects("QPC:lin:1,2,3", "unknown time base 'QPC'");
	rejects("Qpc:linear:1,2,3", "expected 'lin:' or 'lerp:'");
	rejects("Qpc:lin:1,2", "lin expects 3 values");
	rejects("Qpc:lin:1,2,3,4", "lin expects NS_A,T_A,FREQ");
	rejects("Qpc:lin:1,x,3", "lin expects NS_A,T_A,FREQ");
	rejects("Qpc:lin:1,2,", "lin expects NS_A,T_A,FREQ");
	rejects("Qpc:lin:99999999999999999999,0,1", "lin expects NS_A,T_A,FREQ");
	rejects("Qpc:lin:0,0,0", "FREQ is the clock's ticks per second and must be at least 1");
	rejects("Qpc:lin:0,0,-5", "must be at least 1");
	rejects("Qpc:lerp:0,5,10,5", "T_A != T_B");
	rejects("Qpc:lerp:10,0,0,5", "NS grows with T");
	rejects("Qpc:lerp:1,2,3", "lerp expects 4 values");
	return tap_done();
}
