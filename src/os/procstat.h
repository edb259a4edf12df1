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

/* CPUs online (root/sys/devices/system/cpu/online). */
int procstat_online(const char *root, struct cpuset *online, char *err, size_t errlen);
/* The kernel release (root/proc/sys/kernel/osrelease). */
int procstat_kernel(const char *root, char *buf, size_t len, char *err, size_t errlen);
/* The first "model name" of root/proc/cpuinfo (or "Processor"/"cpu model"
 * on other architectures); "unknown" when there is none. */
int procstat_cpu_model(const char *root, char *buf, size_t len, char *err, size_t errlen);

#endif
