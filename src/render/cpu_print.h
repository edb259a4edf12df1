/* The DUT CPU block of a trial's result (engine/cpucost.h): per CPU
 * mpstat's columns, the soak and its idle check, the stall probe, and the
 * CPU time per forwarded frame; text and JSON from the same calls. */
#ifndef WR_RENDER_CPU_PRINT_H
#define WR_RENDER_CPU_PRINT_H

#include <stdint.h>

#include "app/cpu_watch.h"
#include "core/cpuset.h"
#include "engine/cpucost.h"
#include "os/procstat.h"
#include "render/out.h"

void cpu_print_cost(struct out *out, const struct cpucost_result *r);
/* The same, the cost said per what ("datagram sent"). */
void cpu_print_cost_per(struct out *out, const struct cpucost_result *r, const char *per);
/* The same under key, its lines naming whose CPUs they are ("DUT", "this
 * host's"). */
void cpu_print_cost_of(struct out *out, const char *key, const char *whose, const struct cpucost_result *r,
		       const char *per);
/* A sampling profile (dut/profile.h) as the object "profile": "2997
 * samples at 999 Hz over 3.0 s: busy 60.2%, 55.1% of it in softirq; where
 * the busy time went:" and the top functions; p NULL or invalid: none,
 * and why. */
void cpu_print_profile(struct out *out, const struct profile_result *p, const char *why);
/* 'wirerate cpu': the interval and clock rate (JSON only) and, with an
 * IRQ filter, the lines it matched in the first sample. */
void cpu_print_start(struct out *out, uint64_t interval_ns, long hz, const char *irq,
		    const struct procstat_sample *first);
/* One block of 'wirerate cpu', sample a to b: mpstat's header, the "all"
 * row and a row per CPU online in both (only those in only, when not
 * NULL), each row's first column label; hz is the kernel's clock ticks a
 * second, irq the filter of the samples' interrupt counts. */
void cpu_print_block(struct out *out, const char *label, const struct procstat_sample *a,
		    const struct procstat_sample *b, long hz, const char *irq, const struct cpuset *only);
/* One interval of 'wirerate cpu' read at now (Unix time): its time, then
 * cpu_print_block labelled with the local clock time. */
void cpu_print_sample(struct out *out, int64_t now, const struct procstat_sample *a,
		     const struct procstat_sample *b, long hz, const char *irq, const struct cpuset *only);
/* mpstat's "Average:" block over n intervals, first sample to last;
 * nothing when n is 0. */
void cpu_print_average(struct out *out, uint64_t n, const struct procstat_sample *first,
		      const struct procstat_sample *last, long hz, const char *irq, const struct cpuset *only);
/* The end of 'wirerate cpu' (app_cpu_watch_finish): the average and, with
 * --profile, the profile. */
void cpu_print_watch_end(struct out *out, const struct app_cpu_cfg *c, const struct app_cpu_watch *w);

#endif
