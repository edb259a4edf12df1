/* Latency histogram in fixed memory, log-linear like HdrHistogram.
 *
 * Values are nanoseconds. Below 128 every value has its own bucket (exact).
 * Above, each power of two [2^e, 2^(e+1)) is split into 64 buckets of
 * width 2^(e-6), so a bucket is at most 1/64 of the values in it. Reported
 * percentiles are the bucket's midpoint, clamped to the exact min and max,
 * so their relative error is at most 1/128 (0.78%). The top bucket ends at
 * HIST_MAX_NS (2^40 ns, about 1100 s); larger values are counted in it (and
 * in clamped) while min, max and the mean stay exact.
 *
 * 2240 64-bit counters: 17.5 KiB per histogram. hist_add is O(1) with no
 * floating point; queries scan the buckets and may use doubles.
 */
#ifndef WR_CORE_HIST_H
#define WR_CORE_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	6
#define HIST_MAX_BITS	40
#define HIST_MAX_NS	((1ULL << HIST_MAX_BITS) - 1)
#define HIST_BUCKETS	(((HIST_MAX_BITS - 1 - HIST_SUB_BITS) << HIST_SUB_BITS) + \
			 (2 << HIST_SUB_BITS))

struct hist {
	uint64_t count;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t sum_lo;	/* 128-bit sum of the values, for the mean */
	uint64_t sum_hi;
	uint64_t clamped;	/* values above HIST_MAX_NS */
	uint64_t b[HIST_BUCKETS];
};

/* Empty the histogram (also the way to initialise one). */
void hist_reset(struct hist *h);

/* Count one value. */
void hist_add(struct hist *h, uint64_t ns);

/* Count n occurrences of one value, for merging pre-binned data or tests. */
void hist_add_n(struct hist *h, uint64_t ns, uint64_t n);

/* For counts binned elsewhere in this layout (the XDP analyzer): add n to
 * bucket idx, then give the exact min, max and sum of the values, which the
 * buckets alone do not know. */
void hist_add_bucket(struct hist *h, unsigned int idx, uint64_t n);
void hist_set_exact(struct hist *h, uint64_t min, uint64_t max, uint64_t sum);

/* dst += src: counts, sums, min and max, so per-thread histograms can be
 * combined at the end of a trial. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Exact minimum and maximum; 0 when empty. */
uint64_t hist_min(const struct hist *h);
uint64_t hist_max(const struct hist *h);

/* Exact mean of the values added; 0 when empty. */
double hist_mean(const struct hist *h);

/* The value at quantile q in [0, 1] by the nearest-rank rule: the
 * ceil(q * count)-th smallest value (q = 0 gives the min, 1 the max),
 * within the relative error above. 0 when empty; q is clamped to [0, 1]. */
uint64_t hist_quantile(const struct hist *h, double q);

/* Bucket index of a value, and the range [*lo, *hi] of values a bucket
 * holds: exposed for tests. */
unsigned int hist_bucket(uint64_t ns);
void hist_bucket_range(unsigned int idx, uint64_t *lo, uint64_t *hi);

#endif
