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
#include "core/soak_calib.h"
#include "dut/profile.h"
#include "dut/stallprobe.h"

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
	const char *why;		/* what failed reading the DUT, or NULL */
	/* With a soak: the idle check the DUT's agent made before the trial
	 * (dut/soak.h soak_check_idle). Untrusted: the calibration no longer
	 * holds for this CPU's speed, and soak_reason says by how much. */
	bool soak_checked, soak_trusted;
	double soak_idle_off;		/* worst CPU: idle run rate / calibrated - 1 */
	char soak_reason[256];
	/* With the stall probe (cpucost_stall_probe): how long the DUT's
	 * CPUs were away over the window, and the steal time. */
	struct stallprobe_result stall;
	/* With a profile (cpucost_profile): where the watched CPUs spent
	 * their time over the window; profile_why says why there is none
	 * when one was asked for. */
	bool profiled;
	struct profile_result profile;
	char profile_why[256];
};

struct dut;
/* Watch cpus of dut (not owned; it outlives the cpucost); soak also soaks
 * them there, with the calibration at soak_path for the lab and this host
 * (NULL: the DUT's default), after the agent's short idle check of that
 * calibration (so: before the traffic). -errno with a reason (no
 * calibration on the DUT, one that lacks one of these CPUs, ...). */
int cpucost_create(struct dut *dut, const struct cpuset *cpus, bool soak, const char *soak_path,
		   struct cpucost **out, char *err, size_t errlen);
/* Also run the stall probe on the watched CPUs over the traffic window
 * (dut/stallprobe.h), on the DUT. Call before cpucost_mark_start. */
int cpucost_stall_probe(struct cpucost *c, char *err, size_t errlen);
/* Also sample where the watched CPUs spend their time over the traffic
 * window (dut/profile.h), on the DUT, at hz (0: the default), keeping the
 * top entries. A profile that cannot be made says why in the result and
 * the trial goes on. Call before cpucost_mark_start. */
void cpucost_profile(struct cpucost *c, unsigned int hz, unsigned int top);
/* Mark the start and the end of the traffic window. */
void cpucost_mark_start(struct cpucost *c);
void cpucost_mark_end(struct cpucost *c);
bool cpucost_started(const struct cpucost *c);
bool cpucost_ended(const struct cpucost *c);
/* Figures over the window for frames forwarded in it. */
void cpucost_result(const struct cpucost *c, uint64_t frames, struct cpucost_result *out);
void cpucost_destroy(struct cpucost *c);

struct lossattr_cpu_hint;
/* The busiest watched CPU (by the soak when it reads higher) and the
 * longest stall, for the loss verdict (core/lossattr.h); r may be
 * invalid (nothing known). */
void cpucost_hint(const struct cpucost_result *r, struct lossattr_cpu_hint *h);

#endif
