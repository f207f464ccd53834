/*
 * timeconv.h - NVTXT time values to nanoseconds, per time base, the way
 * Nsight Systems' ImportNvtxt converts them (its `lin` and `lerp` modes),
 * in exact integer arithmetic.
 *
 * Source: Nsight Systems user guide, "ImportNvtxt" (time conversion modes
 * lerp and lin); nvtxt(5), TIME BASES; nvtxtc(1), TIME CONVERSION, which
 * documents the arithmetic below with a worked example.
 */
#ifndef NVTXT_TIMECONV_H
#define NVTXT_TIMECONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decimal.h"
#include "nvtxt/backend.h"
#include "nvtxt/language.h"

/* How the times of one time base become nanoseconds. */
enum nvtxt_tconv_kind {
	NVTXT_TCONV_NONE,      /* unknown: ticks of a clock whose rate is not known */
	NVTXT_TCONV_IDENTITY,  /* already nanoseconds */
	NVTXT_TCONV_LIN,       /* ns = NS_A + (t - T_A) * 10^9 / FREQ, rounded down */
	NVTXT_TCONV_LERP,      /* ns = NS_A + (t - T_A) * (NS_B - NS_A) / (T_B - T_A), rounded down */
};

struct nvtxt_tconv_rule {
	enum nvtxt_tconv_kind kind;
	bool given;                 /* set by an option, not the time base's default */
	int64_t ns_a, t_a;          /* LIN and LERP: the known point */
	int64_t ns_b, t_b;          /* LERP: the second point (t_b > t_a, ns_b > ns_a) */
	int64_t freq;               /* LIN: ticks per second, >= 1 */
};

/* One rule per time base. */
struct nvtxt_tconv {
	struct nvtxt_tconv_rule rule[NVTXT_TB_COUNT];
	bool any_given;             /* some rule came from nvtxt_tconv_parse */
};

/* The FileTime of 1970-01-01T00:00:00Z: 100 ns intervals since 1601-01-01. */
#define NVTXT_FILETIME_UNIX_EPOCH INT64_C(116444736000000000)

/*
 * The default rules: ClockMonotonicRaw, Manual and Relative are
 * nanoseconds (IDENTITY); FileTime is LIN with NS_A = 0, T_A = the FileTime
 * of the Unix epoch, FREQ = 10^7 (nanoseconds since 1970-01-01 UTC);
 * Qpc, Rdtsc and CNTVCT are NONE.
 */
void nvtxt_tconv_init(struct nvtxt_tconv *tc);

/*
 * Parses one --time-conversion argument, "TIMEBASE:lin:NS_A,T_A,FREQ" or
 * "TIMEBASE:lerp:NS_A,T_A,NS_B,T_B" (decimal int64 values, TIMEBASE spelt as
 * in NVTXT), into tc's rule for that time base, replacing any earlier one.
 * Returns 0, or -1 with a message of at most `errlen` bytes in err (what
 * was expected, what was found).
 */
int nvtxt_tconv_parse(struct nvtxt_tconv *tc, const char *spec, char *err, size_t errlen);

/*
 * Converts `t`, a time of time base tb, to nanoseconds in *ns.  Returns
 * NVTXT_OK (0); NVTXT_ERR_TIME_NO_RATE when tb's rule is NONE (or tb is
 * no time base); NVTXT_ERR_TIME_RANGE when the exact result does not fit
 * in int64 (enum nvtxt_status, nvtxt/backend.h).  errno is left alone.
 * The arithmetic is exact: 128-bit integers, the quotient rounded toward
 * minus infinity.
 */
int nvtxt_tconv_apply(const struct nvtxt_tconv *tc, enum nvtxt_timebase tb, int64_t t, int64_t *ns);

/*
 * Formats why `t` of time base tb could not be converted (`status`, what
 * nvtxt_tconv_apply returned: NVTXT_ERR_TIME_NO_RATE or
 * NVTXT_ERR_TIME_RANGE) into err: the diagnostic text without location,
 * and for NVTXT_ERR_TIME_NO_RATE the option that fixes it.
 */
void nvtxt_tconv_error(const struct nvtxt_tconv *tc, enum nvtxt_timebase tb, int64_t t, int status,
		       char *err, size_t errlen);

/*
 * A back end in front of `inner` that rewrites every event whose time
 * base has a rule given by an option (rule.given) into nanoseconds with
 * TimeBase Manual, and passes every other event on unchanged: what
 * --emit=nvtxt and --emit=payload do under --time-conversion.  `state`
 * is the filter's storage, owned by the caller, alive while the back end
 * is used.  When a time cannot be converted, `event` returns
 * NVTXT_ERR_TIME_NO_RATE or NVTXT_ERR_TIME_RANGE and the filter's `error`
 * holds the message and `error_loc` the event's location.
 */
struct nvtxt_tconv_filter {
	const struct nvtxt_tconv *tc;
	const struct nvtxt_backend *inner;
	char error[256];
	struct nvtxt_loc error_loc;
};
struct nvtxt_backend nvtxt_tconv_filter_backend(struct nvtxt_tconv_filter *state,
						const struct nvtxt_tconv *tc,
						const struct nvtxt_backend *inner);

/*
 * The '.' and the digits of `frac` nanoseconds (0..999) after a whole
 * number of microseconds: three digits without trailing zeros but at
 * least one (".0", ".43", ".999").  Stores 4 bytes at p whatever it
 * keeps; returns the end of what it keeps.
 */
static inline char *timeconv_frac_text(char *p, unsigned frac)
{
	unsigned low = frac % 100;

	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	memcpy(p + 2, decimal_pairs + 2 * low, 2);
	return p + (low == 0 ? 2 : low % 10 == 0 ? 3 : 4);
}

/*
 * The exact decimal of `off` nanoseconds in microseconds, as the Chrome
 * Trace Event Format's ts: "-"?, the whole microseconds, ".", the three
 * digits of the nanoseconds without trailing zeros but at least one
 * ("400.0", "123475.43", "999999.999"), NUL-terminated in buf (48 bytes).
 * Integer arithmetic only; |off| < 2^64 gives at most 1 + 17 + 1 + 3
 * characters.  Returns its length.  Inline: the Trace Event writer's
 * text of a time past int64 from its origin (trace_writer.c has its own,
 * faster, for the rest), and bench/json_cost.c uses it without the library.
 */
static inline size_t timeconv_us_text(char *buf, __int128 off)
{
	unsigned __int128 mag = off < 0 ? -(unsigned __int128)off : (unsigned __int128)off;
	/* 64-bit division where the magnitude fits (any offset of under 584 years) */
	uint64_t us = mag >> 64 ? (uint64_t)(mag / 1000) : (uint64_t)mag / 1000;
	unsigned frac = mag >> 64 ? (unsigned)(mag % 1000) : (unsigned)((uint64_t)mag % 1000);
	char *p = buf;

	if (off < 0)
		*p++ = '-';
	p = timeconv_frac_text(put_u64(p, us), frac);
	*p = '\0';
	return (size_t)(p - buf);
}

#endif
