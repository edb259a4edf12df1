/* The stall probe: evidence of the moments a CPU is away. One thread per
 * watched CPU, pinned, SCHED_FIFO when allowed, sleeps to an absolute
 * time on a fixed period (clock_nanosleep TIMER_ABSTIME, as cyclictest
 * does) and records how late it woke: the longest stall, and how many
 * wakeups were later than a threshold. What delays a FIFO thread above
 * the lab's NAPI threads (FIFO 50) delays the DUT's receive work too: a
 * hypervisor that took the vCPU, a long interrupt or softirq, a
 * non-preemptible section. The steal time the host reports in /proc/stat
 * over the same window goes with it.
 *
 *   stallprobe_create(&cpus, 0, 0, &p, err, len);
 *   stallprobe_start(p, ...);   ... traffic ...   stallprobe_stop(p);
 *   stallprobe_read(p, &r);     stallprobe_destroy(p);
 *
 * Independent of the trial engine: a remote DUT agent runs it alike. */
#ifndef WR_DUT_STALLPROBE_H
#define WR_DUT_STALLPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/ns.h"

/* 20 ms. cyclictest's 1 ms would see every stall of a millisecond, but
 * a wakeup is not free on a VM: on a 2-vCPU PVM guest each cost the CPU
 * 35-40 us (at 1 ms the probe took 3.5-4.6% of the CPU, by a soaker
 * beside it), far over the 0.5% the probe may take. 10 ms would cost
 * 0.35-0.45% there, too close; 20 ms costs 0.2% (far less on bare
 * metal). Each wakeup samples the CPU: a stall is counted when a wakeup
 * falls in all but its last millisecond (a 5 ms stall 1 time in 5), so
 * the longest stall is a lower bound, and stalls / wakeups estimates the
 * share of the time the CPU was away by more than the threshold. */
#define STALLPROBE_PERIOD_NS	(20 * NSEC_PER_MSEC)
/* A wakeup later than this is a stall: 1 ms is longer than any timer slack
 * or scheduling latency of a FIFO thread on an idle or busy CPU (tens of
 * microseconds), and long enough to overflow a receive ring. */
#define STALLPROBE_THRESHOLD_NS	NSEC_PER_MSEC
/* Above the lab's threaded NAPI (FIFO 50), below the kernel's own
 * per-CPU threads (migration, watchdog: 99). */
#define STALLPROBE_PRIO		90
#define STALLPROBE_MAX_CPUS	64

struct stallprobe;

struct stallprobe_cpu {
	unsigned int cpu;
	uint64_t wakeups;
	uint64_t max_late_ns;		/* the longest stall */
	uint64_t stalls;		/* wakeups later than the threshold */
	double steal_pct;		/* of the window, -1 when the host reports none */
};

struct stallprobe_result {
	bool valid;
	bool fifo;			/* every probe ran SCHED_FIFO */
	char note[160];			/* why not FIFO; "" when it was */
	double seconds;
	uint64_t period_ns, threshold_ns;
	unsigned int n;
	struct stallprobe_cpu c[STALLPROBE_MAX_CPUS];
	unsigned int worst;		/* index of the CPU with the longest stall */
};

/* One probe per CPU of cpus (not started). period_ns / threshold_ns 0:
 * the defaults above. -EINVAL with a reason (no CPUs, too many, offline). */
int stallprobe_create(const struct cpuset *cpus, uint64_t period_ns, uint64_t threshold_ns,
		      struct stallprobe **out, char *err, size_t errlen);
/* Start the probes; the window is from here to stallprobe_stop. Falls
 * back to the normal policy (result.fifo false, note says why) when
 * SCHED_FIFO is refused. */
int stallprobe_start(struct stallprobe *p, char *err, size_t errlen);
/* End the window and join the probes (idempotent). */
void stallprobe_stop(struct stallprobe *p);
/* The window's figures: up to now while running, to the stop after. */
void stallprobe_read(const struct stallprobe *p, struct stallprobe_result *out);
/* Stops if needed and frees; NULL is fine. */
void stallprobe_destroy(struct stallprobe *p);

#endif
