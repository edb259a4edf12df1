/* busyload: keep one CPU busy for a known fraction of each period, for a
 * bounded time, so that tests can check what 'wirerate soak' reads
 * against a known load.
 *   busyload [--cpu N] [--fraction 0.5] [--period 10ms] [--duration 5s]
 * Busy means spinning on the clock (no memory traffic) for fraction *
 * period from the moment it wakes in each period, then sleeping until the
 * next period starts (absolute time, so no drift). Prints, at the end, the
 * CPU time it got over the wall time it ran; SIGTERM or SIGINT ends it
 * early, with the same line. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static unsigned long long ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* "10ms", "5s", "250us", "2" (seconds) */
static int parse_dur(const char *s, unsigned long long *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v > 0))
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		v *= 1e9;
	else if (!strcmp(end, "ms"))
		v *= 1e6;
	else if (!strcmp(end, "us"))
		v *= 1e3;
	else
		return -1;
	if (v < 1e5 || v > 600e9)	/* 100 us .. 10 min */
		return -1;
	*ns = (unsigned long long)v;
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: busyload [--cpu N] [--fraction 0..1] [--period 10ms] [--duration 5s]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long period = 10000000ULL, duration = 5000000000ULL, busy, t0, start, cpu0;
	double fraction = 0.5;
	int cpu = -1;

	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (!v)
			return usage();
		if (!strcmp(argv[i], "--cpu")) {
			cpu = (int)strtol(v, &end, 10);
			if (*end || cpu < 0 || cpu >= CPU_SETSIZE)
				return usage();
		} else if (!strcmp(argv[i], "--fraction")) {
			fraction = strtod(v, &end);
			if (*end || !(fraction >= 0 && fraction <= 1))
				return usage();
		} else if (!strcmp(argv[i], "--period")) {
			if (parse_dur(v, &period))
				return usage();
		} else if (!strcmp(argv[i], "--duration")) {
			if (parse_dur(v, &duration))
				return usage();
		} else {
			return usage();
		}
		i++;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "busyload: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
			return 1;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	busy = (unsigned long long)(fraction * (double)period);
	t0 = start = ns_of(CLOCK_MONOTONIC);
	cpu0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	while (start - t0 < duration && !stop) {
		unsigned long long woke = ns_of(CLOCK_MONOTONIC);
		struct timespec next;

		/* From when we woke, not from the period's start: a late wakeup
		 * (timer slack, a VM's idle exit) must not shorten the busy part. */
		while (ns_of(CLOCK_MONOTONIC) - woke < busy && !stop)
			;
		start += period;
		next.tv_sec = (time_t)(start / 1000000000ULL);
		next.tv_nsec = (long)(start % 1000000000ULL);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	printf("busyload: cpu %d fraction %.3f period %.1f ms: got %.3f of the CPU over %.2f s\n", cpu,
	       fraction, (double)period / 1e6,
	       (double)(ns_of(CLOCK_PROCESS_CPUTIME_ID) - cpu0) / (double)(ns_of(CLOCK_MONOTONIC) - t0),
	       (double)(ns_of(CLOCK_MONOTONIC) - t0) / 1e9);
	return 0;
}
