/*
 * processors.c - the default of -j (processors.h).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "processors.h"

long usable_processors(void)
{
	long n = -1;
#ifdef CPU_COUNT
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
#endif
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}
