/* Reads the kernel's CPU accounting files under a root directory (sysstat's
 * trick: tests pass a fixture tree, the tool passes "/") and hands their
 * text to the parsers in core/cpustat.h. */
#ifndef WR_OS_PROCSTAT_H
#define WR_OS_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/cpustat.h"

/* Everything 'wirerate cpu' shows, at one instant. Large: use
 * procstat_sample_new(). */
struct procstat_sample {
	uint64_t t_ns;			/* CLOCK_MONOTONIC when read */
	struct cpustat stat;
	struct irqstat irq;
	struct softirqstat soft;
	struct softnetstat net;
	bool have_irq, have_soft, have_net;	/* files missing on this kernel */
};

struct procstat_sample *procstat_sample_new(void);
void procstat_sample_free(struct procstat_sample *s);

/* Read /proc/stat (required), /proc/interrupts, /proc/softirqs and
 * /proc/net/softnet_stat (each optional: have_* false when absent) under
 * root. irq_filter selects IRQ lines by name substring (NULL = all).
 * Returns 0 or -errno with a reason naming the file. */
int procstat_read(const char *root, const char *irq_filter, struct procstat_sample *s,
		  char *err, size_t errlen);

/* The same from texts already read (a DUT's, over the agent protocol):
 * stat is required, the others may be NULL. s is not cleared: set t_ns
 * and zero it first. */
int procstat_parse(const char *stat, const char *interrupts, const char *softirqs, const char *softnet,
		   const char *irq_filter, struct procstat_sample *s, char *err, size_t errlen);

/* A whole file under root into a malloc'ed, NUL-terminated buffer that
 * grows to fit (/proc/interrupts is large on big machines). */
int procstat_slurp(const char *root, const char *path, char **text, char *err, size_t errlen);

/* How busy CPUs were between two readings of /proc/stat: wall time
 * minus idle and iowait over wall time, so that interrupt time a kernel
 * charges to no column counts as busy (cpustat_pct's busy). */
struct procstat_busy {
	struct cpustat *stat;		/* the first reading (heap) */
	uint64_t t_ns;
};
/* The first reading: 0, or -errno with a reason. */
int procstat_busy_start(struct procstat_busy *b, char *err, size_t errlen);
/* The second: *busy (0..1) of CPU cpu, or of every CPU the file lists
 * when cpu < 0, and *ncpus how many that was. Frees the first reading;
 * 0, or -errno with a reason (-ENOENT: cpu not in the file). */
int procstat_busy_end(struct procstat_busy *b, int cpu, double *busy, unsigned int *ncpus, char *err,
		      size_t errlen);
/* Frees a reading not ended (NULL-safe on a zeroed one). */
void procstat_busy_free(struct procstat_busy *b);

/* CPUs online (root/sys/devices/system/cpu/online). */
int procstat_online(const char *root, struct cpuset *online, char *err, size_t errlen);
/* The kernel release (root/proc/sys/kernel/osrelease). */
int procstat_kernel(const char *root, char *buf, size_t len, char *err, size_t errlen);
/* This boot of the host's id (root/proc/sys/kernel/random/boot_id) into
 * buf: true, or false with buf "" when it cannot be read. */
bool procstat_boot_id(const char *root, char *buf, size_t len);
/* The first "model name" of root/proc/cpuinfo (or "Processor"/"cpu model"
 * on other architectures); "unknown" when there is none. */
int procstat_cpu_model(const char *root, char *buf, size_t len, char *err, size_t errlen);

#endif
