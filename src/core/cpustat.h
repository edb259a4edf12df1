/* Where the CPUs' time went, parsed from the text of /proc/stat,
 * /proc/interrupts, /proc/softirqs and /proc/net/softnet_stat, and the
 * arithmetic of the soak method (cyclesoak): load from loop counts and the
 * calibration file. Pure functions: the caller reads the files (see
 * sys/procstat.h) and passes their text, so tests feed fixtures.
 *
 * Per-CPU arrays are indexed by CPU number; a CPU absent from a file
 * (offline) has present == false. The structures are large (CPUSTAT_MAX
 * CPUs): allocate them on the heap. */
#ifndef WR_CORE_CPUSTAT_H
#define WR_CORE_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPUSTAT_MAX 1024

/* The columns of a "cpuN" line of /proc/stat, in the kernel's order. */
enum cpustat_col {
	CS_USER, CS_NICE, CS_SYSTEM, CS_IDLE, CS_IOWAIT, CS_IRQ, CS_SOFTIRQ,
	CS_STEAL, CS_GUEST, CS_GUEST_NICE, CS_NCOLS
};

struct cpustat_cpu {
	bool present;
	unsigned int ncols;		/* columns the file had (4 on 2.4, 10 now) */
	uint64_t v[CS_NCOLS];		/* USER_HZ ticks; absent columns are 0 */
};

struct cpustat {
	struct cpustat_cpu all;		/* the "cpu " line */
	struct cpustat_cpu cpu[CPUSTAT_MAX];
	unsigned int max_cpu;		/* highest CPU number seen + 1 */
	uint64_t intr;			/* "intr" total: every interrupt since boot */
	uint64_t ctxt;
};

/* /proc/stat. Columns beyond the ten known are ignored, missing ones are 0;
 * -EINVAL with a reason when there is no "cpu" line or a line is garbled. */
int cpustat_parse_stat(const char *text, struct cpustat *out, char *err, size_t errlen);

/* One CPU's share of an interval, in percent, mpstat's way: each column
 * over the sum of the columns (so they add to 100), user and nice without
 * the guest time the kernel also counts in them. busy is different: wall
 * time minus idle minus iowait, over wall time (wall_ticks = interval in
 * USER_HZ ticks times the number of CPUs the row covers), which counts the
 * interrupt time a kernel without CONFIG_IRQ_TIME_ACCOUNTING charges to no
 * column. accounted = sum of the columns over wall time. */
struct cpustat_pct {
	double usr, nice, sys, iowait, irq, soft, steal, guest, gnice, idle;
	double busy, accounted;
	bool backwards;			/* a counter went down: its delta was taken as 0 */
};
/* a and b are the same CPU's lines at two times (b later). */
void cpustat_pct(const struct cpustat_cpu *a, const struct cpustat_cpu *b,
		 double wall_ticks, struct cpustat_pct *out);

/* A counter's increase, 0 (and *backwards set) when it went down: a
 * counter reset by CPU hotplug or a wrapped 32-bit field. */
uint64_t cpustat_delta(uint64_t a, uint64_t b, bool *backwards);

/* /proc/interrupts: per-CPU counts of each IRQ line. CPU columns come from
 * the header ("CPU0 CPU2" when CPU1 is offline). A line's name is the text
 * after the counts (chip, hwirq, trigger, device names). */
struct irq_line {
	char irq[16];			/* "24", "NMI", "LOC" */
	char name[128];
	uint64_t total;			/* over all CPU columns */
};
struct irqstat {
	unsigned int ncols;		/* CPU columns in the header */
	unsigned int col_cpu[CPUSTAT_MAX];	/* column -> CPU number */
	bool present[CPUSTAT_MAX];	/* by CPU number */
	uint64_t total[CPUSTAT_MAX];	/* by CPU number: matching lines summed */
	unsigned int nlines;		/* matching lines */
	unsigned int nstored;		/* of which kept in line[] */
	struct irq_line line[64];	/* the first matching lines, for display */
};
/* filter NULL or "" matches every line; otherwise a substring of the IRQ's
 * name ("eth0", "virtio0-input"). Lines with fewer counts than CPUs (ERR,
 * MIS) count toward no CPU. */
int cpustat_parse_interrupts(const char *text, const char *filter, struct irqstat *out,
			     char *err, size_t errlen);

/* /proc/softirqs: NET_RX and NET_TX per CPU (by CPU number). */
struct softirqstat {
	bool present[CPUSTAT_MAX];
	uint64_t net_rx[CPUSTAT_MAX];
	uint64_t net_tx[CPUSTAT_MAX];
};
int cpustat_parse_softirqs(const char *text, struct softirqstat *out, char *err, size_t errlen);

/* /proc/net/softnet_stat: one row of hex columns per online CPU. The CPU
 * number is column 13 on kernels that have it (5.10 and later); on older
 * ones rows are matched to the online CPUs in order (online may be NULL:
 * row i is CPU i). */
struct softnet_cpu {
	bool present;
	uint64_t processed, dropped, squeezed;
};
struct softnetstat {
	unsigned int ncols;		/* columns per row in this kernel */
	bool cpu_from_row;		/* CPU numbers guessed from row order */
	struct softnet_cpu cpu[CPUSTAT_MAX];
};
struct cpuset;
int cpustat_parse_softnet(const char *text, const struct cpuset *online, struct softnetstat *out,
			  char *err, size_t errlen);

#endif
