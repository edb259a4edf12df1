/* Where CPUs spend their time: a sampling profile of chosen CPUs over a
 * window, the way `perf top` shows it, without perf. One software
 * cpu-clock event per CPU (perf_event_open: no hardware counter needed,
 * so it works in a VM), sampling the interrupted instruction and the
 * kernel call chain at a fixed rate; a thread drains the ring buffers as
 * they fill, so a window of any length is sampled whole. The addresses
 * are named from /proc/kallsyms at the end.
 *
 * Each sample is counted once: idle (the CPU's idle loop, no interrupt
 * work on the stack), softirq (a softirq handler or a NAPI thread on the
 * stack: the network receive path lives there), or the rest; user-space
 * samples count as one "[user]" entry. A sample taken where interrupts
 * were turned back on (pvm_irq_enable, _raw_spin_unlock_irqrestore ...)
 * is a timer interrupt that was held back while they were off, and in a
 * paravirtualized guest most are: where the CPU was when it fired is not
 * known, so such samples are counted as deferred and name no function.
 * The top entries are the other busy samples' own functions (the leaf of
 * the chain: self time), each as a share of them.
 *
 * Needs root (or CAP_PERFMON, or perf_event_paranoid <= 0) and kernel
 * addresses in /proc/kallsyms (kptr_restrict); without them
 * profile_create says why and nothing is sampled. */
#ifndef WR_DUT_PROFILE_H
#define WR_DUT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"

#define PROFILE_HZ_DEFAULT 999		/* perf's default rate; off the 1000 Hz tick */
#define PROFILE_HZ_MAX 10000
#define PROFILE_TOP_MAX 20
#define PROFILE_SYM_MAX 64

struct profile_entry {
	char sym[PROFILE_SYM_MAX];	/* "nft_do_chain", "[user]" */
	uint64_t samples;
	double pct;			/* of the busy samples that name a function */
};

struct profile_result {
	bool valid;
	unsigned int hz;
	double seconds;
	uint64_t samples;		/* all, on all the CPUs */
	uint64_t idle, softirq, user;	/* of them */
	uint64_t deferred;		/* taken where interrupts came back on */
	uint64_t lost;			/* samples the kernel could not store */
	double busy_pct;		/* samples not idle, of all */
	double softirq_pct;		/* softirq samples, of the busy ones */
	double deferred_pct;		/* deferred samples, of the busy ones */
	unsigned int n;
	struct profile_entry e[PROFILE_TOP_MAX];
};

struct profile;

/* Sample cpus at hz (0: PROFILE_HZ_DEFAULT). -errno with a reason:
 * -EACCES (not allowed: perf_event_paranoid, no root), -ENOENT (no
 * kernel symbols to name the samples), -EINVAL (a bad rate or CPU). */
int profile_create(const struct cpuset *cpus, unsigned int hz, struct profile **out, char *err, size_t errlen);
int profile_start(struct profile *p, char *err, size_t errlen);
void profile_stop(struct profile *p);
/* The window's profile: the top entries (at most top, and
 * PROFILE_TOP_MAX). */
void profile_read(struct profile *p, unsigned int top, struct profile_result *r);
void profile_destroy(struct profile *p);

#endif
