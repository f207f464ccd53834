/*
 * stats_data.h - a row of the summaries of nvtxtc stats, as stats.c
 * (collecting, the report's rows) and stats_median.c (the durations and
 * their statistics) both see it.
 */
#ifndef NVTXT_STATS_DATA_H
#define NVTXT_STATS_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 u128;

enum { STYLE_PUSHPOP, STYLE_STARTEND };
#define UNIT_NS 0 /* else 1 + the time base whose ticks the durations count */

/* The ranges of one (unit, style, name). */
struct group {
	uint64_t hash;
	char *name;
	size_t len;
	uint8_t style, unit;
	bool wide;          /* d holds 8 bytes each (once one passed 32 bits), else 4 */
	void *d;            /* the durations in memory: n of them, room for cap */
	size_t n, cap;
	uint64_t spilled;   /* durations written to the runs of stats_median.c */
	u128 spilled_sum;   /* their sum */
	/* nvtxt_stats_finish: */
	uint64_t count;     /* Instances */
	u128 total, avg10, med10, std10, pct10;
	uint64_t min, max;
};

/* (2 * num + den) / (2 * den): num / den rounded half up (nsys rounds with SQLite's round()). */
static inline u128 div_round(u128 num, u128 den)
{
	return den ? (2 * num + den) / (2 * den) : 0;
}

#endif
