/* How long a cache line written on one CPU takes to reach another. The
 * tester's XDP pipeline hands every frame from the generator's CPU to the
 * analyzer's, so its ceiling moves with this figure; on a VM the host may
 * place the two vCPUs close together (tens of ns) or far apart (hundreds),
 * and change its mind between two runs. Measured, not guessed: two threads
 * pinned to the two CPUs pass a counter back and forth in one line. */
#ifndef WR_OS_CPULAT_H
#define WR_OS_CPULAT_H

#include <stddef.h>

#include "core/ns.h"

/* Round trips per batch and batches per measurement: the answer is half
 * the median batch's round trip, so an interrupt spoils one batch, not the
 * figure. A measurement takes 2-10 ms. */
#define CPULAT_ROUNDS 1000
#define CPULAT_BATCHES 7
/* The other CPU must answer within this, or the measurement gives up (a
 * real-time thread may hold it). */
#define CPULAT_TIMEOUT_NS (200 * NSEC_PER_MSEC)

/* One-way transfer time in ns between CPUs a and b into *ns. 0, or -errno
 * with a reason: -EINVAL for a == b or a CPU outside the affinity mask,
 * -ETIMEDOUT when b did not answer in time. The calling thread's CPU
 * affinity is restored before returning. */
int cpulat_measure(int a, int b, double *ns, char *err, size_t errlen);

/* Whether two measurements of the same pair show the host moved the CPUs
 * (one at least twice the other): the tester's ceiling is not the same. */
int cpulat_moved(double ns_then, double ns_now);

struct cpulat_pair {
	int a, b;
	double ns;		/* 0: not measured, err says why */
	char err[160];
};

/* From the first CPU this process may run on to each other one, up to max
 * pairs; the number of pairs. */
int cpulat_from_first(struct cpulat_pair *out, int max);

/* A pair's name, "0-1": the key the probe shows, the calibration file
 * stores and a trial looks its ceiling's figure up by. */
void cpulat_pair_name(int a, int b, char *buf, size_t len);

/* Pairs as text, "0-1:43.2 0-2:51.0" (measured ones only), into buf. */
void cpulat_format(const struct cpulat_pair *p, int n, char *buf, size_t len);

/* Two such texts (runs stored apart): 1 when a pair both measured moved
 * (cpulat_moved), with what moved in note, e.g. "CPUs 0 and 1 170 ns a
 * cache line apart (43 in the baseline)" for then_name "in the baseline";
 * else 0. */
int cpulat_text_moved(const char *then, const char *now, const char *then_name, char *note, size_t len);

#endif
