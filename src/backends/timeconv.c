/*
 * timeconv.c - time values to nanoseconds (timeconv.h; nvtxtc(1), TIME
 * CONVERSION).  Every step is exact: differences of two int64 values and
 * their products are 128-bit, the division rounds toward minus infinity,
 * and a result outside int64 is an error, never a wrapped value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeconv.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

void nvtxt_tconv_init(struct nvtxt_tconv *tc)
{
	memset(tc, 0, sizeof *tc);
	tc->rule[NVTXT_TB_CLOCK_MONOTONIC_RAW].kind = NVTXT_TCONV_IDENTITY;
	tc->rule[NVTXT_TB_MANUAL].kind = NVTXT_TCONV_IDENTITY;
	tc->rule[NVTXT_TB_RELATIVE].kind = NVTXT_TCONV_IDENTITY;
	tc->rule[NVTXT_TB_FILETIME] = (struct nvtxt_tconv_rule){
		.kind = NVTXT_TCONV_LIN, .ns_a = 0, .t_a = NVTXT_FILETIME_UNIX_EPOCH, .freq = 10000000,
	};
}

/* Reads a decimal int64 ending at ',' or NUL; returns 0 and advances *p, or -1. */
static int parse_i64(const char **p, int64_t *v)
{
	const char *s = *p;
	char *end;
	long long x;

	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || (*end != ',' && *end != '\0'))
		return -1;
	*v = x;
	*p = end;
	return 0;
}

int nvtxt_tconv_parse(struct nvtxt_tconv *tc, const char *spec, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':'), *p;
	struct nvtxt_tconv_rule r = { .given = true };
	int64_t v[4];
	int tb, n = 0, want;

	if (!colon) {
		snprintf(err, errlen, "expected TIMEBASE:lin:NS_A,T_A,FREQ or TIMEBASE:lerp:NS_A,T_A,NS_B,T_B, "
			 "found '%s'", spec);
		return -1;
	}
	tb = nvtxt_timebase_lookup(spec, (size_t)(colon - spec));
	if (tb < 0) {
		snprintf(err, errlen, "unknown time base '%.*s' (expected Qpc, Rdtsc, FileTime, Manual, "
			 "Relative, ClockMonotonicRaw or CNTVCT)", (int)(colon - spec), spec);
		return -1;
	}
	p = colon + 1;
	if (strncmp(p, "lin:", 4) == 0) {
		r.kind = NVTXT_TCONV_LIN;
		want = 3;
		p += 4;
	} else if (strncmp(p, "lerp:", 5) == 0) {
		r.kind = NVTXT_TCONV_LERP;
		want = 4;
		p += 5;
	} else {
		snprintf(err, errlen, "expected 'lin:' or 'lerp:' after '%.*s:', found '%s'",
			 (int)(colon - spec), spec, p);
		return -1;
	}
	for (;;) {
		if (n == want || parse_i64(&p, &v[n]) != 0) {
			snprintf(err, errlen, "%s expects %s: %d decimal integers separated by ',', found '%s'",
				 want == 3 ? "lin" : "lerp", want == 3 ? "NS_A,T_A,FREQ" : "NS_A,T_A,NS_B,T_B",
				 want, strchr(colon + 1, ':') + 1);
			return -1;
		}
		n++;
		if (*p == '\0')
			break;
		p++; /* ',' */
	}
	if (n != want) {
		snprintf(err, errlen, "%s expects %d values (%s), found %d",
			 want == 3 ? "lin" : "lerp", want,
			 want == 3 ? "NS_A,T_A,FREQ" : "NS_A,T_A,NS_B,T_B", n);
		return -1;
	}
	r.ns_a = v[0];
	r.t_a = v[1];
	if (r.kind == NVTXT_TCONV_LIN) {
		r.freq = v[2];
		if (r.freq < 1) {
			snprintf(err, errlen, "lin: FREQ is the clock's ticks per second and must be at least 1, "
				 "found %" PRId64, r.freq);
			return -1;
		}
	} else {
		r.ns_b = v[2];
		r.t_b = v[3];
		if (r.t_b < r.t_a) { /* the points in either order */
			int64_t ns = r.ns_a, t = r.t_a;
			r.ns_a = r.ns_b, r.t_a = r.t_b;
			r.ns_b = ns, r.t_b = t;
		}
		if (r.t_b == r.t_a || r.ns_b <= r.ns_a) {
			snprintf(err, errlen, "lerp needs two points on a clock that runs forward: "
				 "T_A != T_B, and NS grows with T; found (%" PRId64 ", %" PRId64 ") and "
				 "(%" PRId64 ", %" PRId64 ")", v[0], v[1], v[2], v[3]);
			return -1;
		}
	}
	tc->rule[tb] = r;
	tc->any_given = true;
	return 0;
}

/* floor(a / b) and a - b * floor(a / b) (in [0, b)) for b > 0. */
static void floor_divmod(i128 a, i128 b, i128 *q, i128 *r)
{
	*q = a / b;
	*r = a % b;
	if (*r < 0) {
		*q -= 1;
		*r += b;
	}
}

/* Stores x in *ns when it fits in int64: NVTXT_OK; else NVTXT_ERR_TIME_RANGE. */
static int fit(i128 x, int64_t *ns)
{
	if (x < INT64_MIN || x > INT64_MAX)
		return NVTXT_ERR_TIME_RANGE;
	*ns = (int64_t)x;
	return NVTXT_OK;
}

int nvtxt_tconv_apply(const struct nvtxt_tconv *tc, enum nvtxt_timebase tb, int64_t t, int64_t *ns)
{
	const struct nvtxt_tconv_rule *r;
	i128 x, q, rem, hi;

	if ((unsigned)tb >= NVTXT_TB_COUNT)
		return NVTXT_ERR_TIME_NO_RATE;
	r = &tc->rule[tb];
	switch (r->kind) {
	case NVTXT_TCONV_IDENTITY:
		*ns = t;
		return NVTXT_OK;
	case NVTXT_TCONV_LIN:
		/* |t - T_A| < 2^64, times 10^9 < 2^30: below 2^94 */
		x = ((i128)t - r->t_a) * 1000000000;
		floor_divmod(x, r->freq, &q, &rem);
		return fit(q + r->ns_a, ns);
	case NVTXT_TCONV_LERP: {
		/*
		 * x * N / D with x = t - T_A (|x| < 2^64), N = NS_B - NS_A and
		 * D = T_B - T_A, both in [1, 2^64): x = q D + rem, 0 <= rem < D,
		 * so x N / D = q N + rem N / D, where rem N < 2^128 is exact in
		 * unsigned 128 bits and rem N / D < N.  q N needs no more than
		 * 128 bits when the result fits in int64 at all.
		 */
		u128 n = (u128)((i128)r->ns_b - r->ns_a), d = (u128)((i128)r->t_b - r->t_a);
		x = (i128)t - r->t_a;
		floor_divmod(x, (i128)d, &q, &rem);
		if (__builtin_mul_overflow(q, (i128)n, &hi))
			return NVTXT_ERR_TIME_RANGE;
		hi += (i128)(((u128)rem * n) / d);
		if (__builtin_add_overflow(hi, (i128)r->ns_a, &hi))
			return NVTXT_ERR_TIME_RANGE;
		return fit(hi, ns);
	}
	case NVTXT_TCONV_NONE:
		break;
	}
	return NVTXT_ERR_TIME_NO_RATE;
}

void nvtxt_tconv_error(const struct nvtxt_tconv *tc, enum nvtxt_timebase tb, int64_t t, int status,
		       char *err, size_t errlen)
{
	const char *name = nvtxt_timebase_name(tb);

	if (!name)
		name = "?";
	if (status == NVTXT_ERR_TIME_NO_RATE)
		snprintf(err, errlen, "time base %s counts ticks of a clock whose rate nvtxtc does not know: "
			 "give --time-conversion=%s:lin:NS_A,T_A,FREQ or "
			 "--time-conversion=%s:lerp:NS_A,T_A,NS_B,T_B (see nvtxtc(1), TIME CONVERSION)",
			 name, name, name);
	else if (tc->rule[tb].given)
		snprintf(err, errlen, "time %" PRId64 " of time base %s is outside the int64 range of "
			 "nanoseconds after --time-conversion=%s:%s", t, name, name,
			 tc->rule[tb].kind == NVTXT_TCONV_LIN ? "lin" : "lerp");
	else
		snprintf(err, errlen, "time %" PRId64 " of time base %s is outside the int64 range of "
			 "nanoseconds", t, name);
}

/* The filter: converted copies of the event (and of a RangePop's push). */
static int convert_event(struct nvtxt_tconv_filter *f, const struct nvtxt_event *ev,
			 struct nvtxt_event *out)
{
	int64_t *times[2];
	int64_t orig[2];
	int n = 0;

	*out = *ev;
	if (!(ev->present & NVTXT_BIT(NVTXT_ARG_TIMEBASE)) || (unsigned)ev->timebase >= NVTXT_TB_COUNT ||
	    !f->tc->rule[ev->timebase].given)
		return 0;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_TIME))
		times[n++] = &out->time;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_START))
		times[n++] = &out->start;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_END))
		times[n++] = &out->end;
	for (int i = 0; i < n; i++) {
		int st;
		orig[i] = *times[i];
		st = nvtxt_tconv_apply(f->tc, ev->timebase, orig[i], times[i]);
		if (st != NVTXT_OK) {
			nvtxt_tconv_error(f->tc, ev->timebase, orig[i], st, f->error, sizeof f->error);
			f->error_loc = ev->loc;
			return st;
		}
	}
	out->timebase = NVTXT_TB_MANUAL;
	return NVTXT_OK;
}

static int filter_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_tconv_filter *f = user;
	struct nvtxt_event copy, push;
	int st = convert_event(f, ev, &copy);

	if (st == NVTXT_OK && ev->push && (st = convert_event(f, ev->push, &push)) == NVTXT_OK)
		copy.push = &push;
	if (st != NVTXT_OK)
		return st;
	return f->inner->event(f->inner->user, &copy);
}

static int filter_unclosed(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_tconv_filter *f = user;
	struct nvtxt_event copy;
	int st;

	if (!f->inner->unclosed_push)
		return 0;
	st = convert_event(f, ev, &copy);
	if (st != NVTXT_OK)
		return st;
	return f->inner->unclosed_push(f->inner->user, &copy);
}

static int filter_finish(void *user)
{
	struct nvtxt_tconv_filter *f = user;

	return f->inner->finish ? f->inner->finish(f->inner->user) : 0;
}

struct nvtxt_backend nvtxt_tconv_filter_backend(struct nvtxt_tconv_filter *state,
						const struct nvtxt_tconv *tc,
						const struct nvtxt_backend *inner)
{
	memset(state, 0, sizeof *state);
	state->tc = tc;
	state->inner = inner;
	return (struct nvtxt_backend){
		.user = state, .event = filter_event, .unclosed_push = filter_unclosed, .finish = filter_finish,
	};
}
