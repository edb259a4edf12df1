/* Clock reads in nanoseconds, for the places that time intervals. */
#ifndef WR_OS_CLOCK_H
#define WR_OS_CLOCK_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "core/ns.h"

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static inline uint64_t clock_mono_ms(void)
{
	return clock_mono_ns() / NSEC_PER_MSEC;
}

/* CLOCK_REALTIME: the kernel stamps received frames with it, so a trial's
 * timeline and its tags use it too. */
static inline uint64_t clock_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/* Sleep until mono_ns (CLOCK_MONOTONIC); a signal that sets *stop (Ctrl-C)
 * ends it early, any other sleeps on to the same time. */
static inline void clock_mono_sleep_until(uint64_t mono_ns, const volatile sig_atomic_t *stop)
{
	struct timespec ts = { .tv_sec = (time_t)(mono_ns / NSEC_PER_SEC), .tv_nsec = (long)(mono_ns % NSEC_PER_SEC) };

	while (!*stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Sleep until an absolute CLOCK_REALTIME time (the clock a trial's
 * timeline and the kernel's packet timestamps share), through signals. */
static inline void clock_sleep_until(uint64_t realtime_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(realtime_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(realtime_ns % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* CLOCK_TAI - CLOCK_REALTIME: what BPF programs (bpf_ktime_get_tai_ns)
 * and user space (which works in REALTIME, like the kernel's packet
 * timestamps) add and subtract to agree. The kernel keeps it a whole number
 * of seconds (the TAI-UTC offset, or 0 when never set): rounded, so that
 * two reads never differ by the jitter of reading two clocks. */
static inline int64_t clock_tai_offset(void)
{
	uint64_t r0 = clock_ns(CLOCK_REALTIME), t = clock_ns(CLOCK_TAI), r1 = clock_ns(CLOCK_REALTIME);
	int64_t d = (int64_t)(t - (r0 + (r1 - r0) / 2));

	const int64_t sec = (int64_t)NSEC_PER_SEC;

	return (d >= 0 ? (d + sec / 2) : (d - sec / 2)) / sec * sec;
}

#endif
