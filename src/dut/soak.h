/* The soak method (Andrew Morton's cyclesoak): one busy loop per CPU,
 * pinned and SCHED_IDLE, so that it runs only when nothing else wants the
 * CPU. Its rate against the rate it had on an idle machine (the
 * calibration) is the share of the CPU that something else took -
 * interrupts and softirqs included, which /proc/stat hides on kernels
 * without CONFIG_IRQ_TIME_ACCOUNTING. Each loop also walks a buffer larger
 * than the last-level cache, so cache and memory-bandwidth theft by the
 * network stack slows it too.
 *
 * For the trial engine:
 *   soak_create(&dut_cpus, &calib, &s, err, len);  soak_start(s, ...);
 *   ... traffic ...
 *   soak_read(s, &load);  soak_stop(s);  soak_destroy(s);
 * The arithmetic and the calibration's text form are in core/cpustat.h. */
#ifndef WR_DUT_SOAK_H
#define WR_DUT_SOAK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/soak_calib.h"
#include "core/ns.h"

/* The loop's signature: a calibration made with another loop (or the same
 * loop compiled without optimisation) is refused. */
#ifdef __OPTIMIZE__
#define SOAK_WORK "v1-lines64-mix4-buf2llc"
#else
#define SOAK_WORK "v1-lines64-mix4-buf2llc-O0"
#endif

struct soak;

/* Raw counters at one instant. */
struct soak_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	unsigned int n;
	uint64_t loops[SOAK_MAX_CPUS];
	uint64_t cpu_ns[SOAK_MAX_CPUS];	/* each soaker's CPU time; 0 if unknown */
};

/* Load over an interval, per soaked CPU, as fractions 0..1. */
struct soak_calib_busy {
	double seconds;
	double all;			/* mean of load[] */
	unsigned int n;
	unsigned int cpu[SOAK_MAX_CPUS];
	double load[SOAK_MAX_CPUS];	/* clamped to [0, 1] */
	double raw[SOAK_MAX_CPUS];	/* 1 - rate / calibrated, unclamped */
	double rate[SOAK_MAX_CPUS];	/* loops per second in the interval */
	/* Loops per second of CPU time the soaker got, and the part of the
	 * interval it got: its speed whatever else ran on the CPU. */
	double run_rate[SOAK_MAX_CPUS];
	double share[SOAK_MAX_CPUS];
	bool clamped;			/* some CPU was outside [0, 1] */
};

/* One soaker per CPU of cpus (not started). calib NULL: calibration mode,
 * loads are 0 and only rates mean something. Every CPU must be online and,
 * with a calibration, calibrated. -EINVAL/-ENOENT with a reason. */
int soak_create(const struct cpuset *cpus, const struct soak_calib *calib, struct soak **out,
		char *err, size_t errlen);
/* Start the soakers; loads are counted from here. */
int soak_start(struct soak *s, char *err, size_t errlen);
unsigned int soak_ncpus(const struct soak *s);
unsigned int soak_cpu(const struct soak *s, unsigned int i);
void soak_snap(const struct soak *s, struct soak_snap *snap);
/* Load between two snapshots (b later). */
void soak_load_between(const struct soak *s, const struct soak_snap *a, const struct soak_snap *b,
		       struct soak_calib_busy *out);
/* Per-CPU load since soak_start. */
void soak_read(const struct soak *s, struct soak_calib_busy *out);
/* Stop and join the soakers (idempotent). */
void soak_stop(struct soak *s);
/* Stops if needed and frees; NULL is fine. */
void soak_destroy(struct soak *s);

/* --- is the calibration still true? ---
 * A VM host changes speed: an idle CPU's loop rate moved 17% within an
 * hour on one, and a calibration that old read a 35% load as 48%. The
 * check soaks the CPUs alone for a short time and holds each soaker's
 * speed per second of CPU time it got (run_rate, which another task on
 * the CPU does not move) against the calibration. */

/* 300 ms: the run rate is loops over the soaker's own CPU time (both
 * exact), so its error is the host's jitter, not the clock's. On a 2-vCPU
 * VM, 300 ms idle readings of one CPU spread over 1-2% (of 500 ms ones,
 * 1-2% too) while a 5% error is what the check is there to find; a
 * shorter one catches the tail of the last trial's softirqs. */
#define SOAK_IDLE_NS (300 * NSEC_PER_MSEC)
/* 5%: calibrations are accepted at a 1% spread (3% in the tests), and a
 * 300 ms idle reading adds 1-2%, so an honest calibration reads within
 * 5%; off by more, an idle CPU would read 5 points busy (or be clamped),
 * which is the size of difference the soak is used to tell apart. */
#define SOAK_IDLE_TOL 0.05

struct soak_idle {
	bool trusted;			/* every CPU within tolerance */
	double tolerance;
	uint64_t duration_ns;
	int64_t calib_when;		/* the calibration's unix time */
	unsigned int n;
	unsigned int cpu[SOAK_MAX_CPUS];
	double run_rate[SOAK_MAX_CPUS];	/* loops per second of the soaker's CPU time now */
	double calib[SOAK_MAX_CPUS];	/* loops per second calibrated */
	double off[SOAK_MAX_CPUS];	/* run_rate / calib - 1; -1: the soaker hardly ran */
	unsigned int worst;		/* index of the CPU furthest off */
	/* "idle speed of CPU 1 is 17% below its calibration of 2026-12-01
	 * 23:10: recalibrate with wirerate soak --calibrate"; "" trusted */
	char reason[256];
};

/* Soak cpus alone for duration_ns (0: SOAK_IDLE_NS) and compare each
 * one's speed with calib (tol 0: SOAK_IDLE_TOL). Run it when nothing the
 * soak is meant to measure runs (before a trial's traffic). 0 with *out
 * filled, trusted or not; -errno with a reason when it could not soak. */
int soak_check_idle(const struct cpuset *cpus, const struct soak_calib *calib, uint64_t duration_ns,
		    double tol, struct soak_idle *out, char *err, size_t errlen);

/* Is this host's CPU steady enough for the soak? Two readings of
 * reading_ns of each CPU's speed (no calibration needed) and the steal
 * time /proc/stat reports over them. spread: the worst CPU's |a - b| /
 * mean, on CPU *cpu; steal_ticks: USER_HZ ticks of steal on those CPUs,
 * -1 when /proc/stat cannot be read. */
struct soak_steady {
	double spread;
	unsigned int cpu;
	double seconds;
	int64_t steal_ticks;
};
int soak_steady_check(const struct cpuset *cpus, uint64_t reading_ns, struct soak_steady *out,
		      char *err, size_t errlen);

/* --- calibration --- */

struct soak_calib_opts {
	uint64_t interval_ns;		/* one reading (default 1 s) */
	unsigned int settle;		/* consecutive readings that must agree (5) */
	double tolerance;		/* within this fraction of their mean (0.01) */
	uint64_t timeout_ns;		/* give up after (60 s) */
};
/* Called after each reading with the rates of the CPUs (in soak order). */
typedef void (*soak_progress_fn)(void *ctx, unsigned int reading, const struct soak_calib_busy *l,
				 double worst_spread);

/* Soak cpus on an idle machine until every CPU's last `settle` readings are
 * within tolerance of their mean; fills c (kernel, CPU model, rates).
 * -ETIMEDOUT when it did not settle, -EINTR when *stop was set. */
int soak_calibrate(const struct cpuset *cpus, const struct soak_calib_opts *o,
		   const volatile sig_atomic_t *stop, soak_progress_fn fn, void *ctx,
		   struct soak_calib *c, char *err, size_t errlen);

/* $WIRERATE_STATE_DIR, $XDG_STATE_HOME/wirerate or ~/.local/state/wirerate,
 * then "/soak-calibration". */
void soak_calibration_default_path(char *buf, size_t len);
/* Read and parse; -ENOENT when missing, -EINVAL (corrupt) with a reason. */
int soak_calibration_load(const char *path, struct soak_calib *c, char *err, size_t errlen);
/* Write to a temporary file and rename over path (parents made). */
int soak_calibration_save(const char *path, const struct soak_calib *c, char *err, size_t errlen);
/* Check c against this host (kernel, CPU model, loop); -ESTALE with why. */
int soak_calibration_verify(const struct soak_calib *c, char *err, size_t errlen);

#endif
