/* Clock reads in nanoseconds, for the places that time intervals. */
#ifndef WR_SYS_CLOCK_H
#define WR_SYS_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
