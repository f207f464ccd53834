/*
 * processors.h - how many processors nvtxtc may use: the default of -j.
 */
#ifndef NVTXTC_PROCESSORS_H
#define NVTXTC_PROCESSORS_H

/*
 * The number of processors this process may run on: the CPUs of its
 * affinity mask (sched_getaffinity(2): taskset, cpusets and container
 * limits on CPUs shrink it), or, where that is unknown, the processors
 * online.  At least 1.
 */
long usable_processors(void);

#endif
