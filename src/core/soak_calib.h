#ifndef WR_CORE_SOAK_CALIB_H
#define WR_CORE_SOAK_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The soak method's arithmetic and its calibration's text form. A soaker
 * is a SCHED_IDLE busy loop pinned to a CPU; it runs only when nothing
 * else wants the CPU, so its rate against the rate it had on an idle
 * machine says how much of the CPU something else took, including
 * interrupts that /proc/stat charges to nobody. */

#define SOAK_MAX_CPUS 256

/* 1 - rate / calibrated, as a fraction; *clamped set when it fell outside
 * [0, 1] and was clamped (a soaker faster than calibrated, or a
 * calibration of 0). */
double soak_calib_busy(double loops, double seconds, double calibrated, bool *clamped);

/* What a calibration was made on; refused on another kernel, CPU model
 * or loop (work) version, since loops/s would not compare. */
struct soak_calib {
	char kernel[128];		/* uname release */
	char cpu_model[128];
	char work[64];			/* the loop's signature, SOAK_WORK in sys/soak.h */
	int64_t when;			/* unix time */
	unsigned int n;
	unsigned int cpu[SOAK_MAX_CPUS];
	double rate[SOAK_MAX_CPUS];	/* loops per second on an idle machine */
	double spread[SOAK_MAX_CPUS];	/* (max - min) / mean of the last readings */
};

/* Text form, line by line:
 *   # comment
 *   wirerate-soak-calibration 1
 *   kernel <release>
 *   cpu_model <model name, rest of line>
 *   work <signature>
 *   when <unix time>
 *   cpu <n> <loops/s> <spread>
 * Parse returns -EINVAL with the line number and what was wrong. */
int soak_calib_parse(const char *text, struct soak_calib *c, char *err, size_t errlen);
/* Returns the length written, or -ENOSPC. */
int soak_calib_format(const struct soak_calib *c, char *buf, size_t len);
/* Loops per second calibrated for cpu, or a negative value when absent. */
double soak_calib_rate(const struct soak_calib *c, unsigned int cpu);
/* Adds to c the CPUs of old that c lacks, when both were made on the same
 * kernel, CPU model and loop (a calibration of some CPUs keeps the rest);
 * returns how many it added. */
unsigned int soak_calib_merge(struct soak_calib *c, const struct soak_calib *old);
/* 0 when c was made on this kernel, CPU model and loop; -ESTALE with a
 * message naming what differs otherwise. */
int soak_calib_check(const struct soak_calib *c, const char *kernel, const char *cpu_model,
		     const char *work, char *err, size_t errlen);

#endif
