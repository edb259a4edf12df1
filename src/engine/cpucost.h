/* What a trial cost the DUT's CPUs: the per-CPU /proc/stat breakdown over
 * the traffic window, interrupts and NET_RX softirqs per second, softnet
 * drops, and with a soak calibration the soak reading, which also sees the
 * interrupt time /proc/stat hides. From these, CPU time per
 * forwarded frame, saying which source it came from. */
#ifndef WR_ENGINE_CPUCOST_H
#define WR_ENGINE_CPUCOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/cpustat.h"

#define CPUCOST_MAX 16

struct soak_calib;
struct cpucost;

struct cpucost_cpu {
	unsigned int cpu;
	struct cpustat_pct pct;		/* mpstat's columns and busy = wall - idle - iowait */
	double intr_s, net_rx_s;	/* per second */
	uint64_t softnet_dropped, softnet_squeezed;
	double soak;			/* soak reading 0..1, -1 without a soak */
};

struct cpucost_result {
	bool valid;
	double seconds;
	unsigned int n;
	struct cpucost_cpu c[CPUCOST_MAX];
	double busy_cpu_s;		/* sum over CPUs: busy * seconds, from /proc/stat */
	double accounted_cpu_s;		/* sum of the busy columns (usr+sys+irq+soft+...) */
	double soak_cpu_s;		/* from the soak, -1 without */
	double ns_per_frame;		/* CPU time per forwarded frame */
	double frames_per_cpu_s;
	const char *source;		/* "soak" or "/proc/stat" */
};

/* Watch cpus (the DUT's); calib non-NULL also soaks them. -errno with a
 * reason (a soak calibration that lacks one of these CPUs, ...). */
int cpucost_create(const struct cpuset *cpus, const struct soak_calib *calib,
		   struct cpucost **out, char *err, size_t errlen);
/* Mark the start and the end of the traffic window. */
void cpucost_mark_start(struct cpucost *c);
void cpucost_mark_end(struct cpucost *c);
bool cpucost_started(const struct cpucost *c);
bool cpucost_ended(const struct cpucost *c);
/* Figures over the window for frames forwarded in it. */
void cpucost_result(const struct cpucost *c, uint64_t frames, struct cpucost_result *out);
void cpucost_destroy(struct cpucost *c);

#endif
