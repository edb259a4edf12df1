#include "core/hist.h"

#include <math.h>
#include <string.h>

#define SUB_COUNT	(1U << HIST_SUB_BITS)

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned int hist_bucket(uint64_t ns)
{
	unsigned int shift;

	if (ns > HIST_MAX_NS)
		ns = HIST_MAX_NS;
	if (ns < 2 * SUB_COUNT)
		return (unsigned int)ns;
	shift = (unsigned int)(63 - __builtin_clzll(ns)) - HIST_SUB_BITS;
	return (shift << HIST_SUB_BITS) + (unsigned int)(ns >> shift);
}

void hist_bucket_range(unsigned int idx, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;

	if (idx < 2 * SUB_COUNT) {
		*lo = *hi = idx;
		return;
	}
	shift = (idx >> HIST_SUB_BITS) - 1;
	*lo = (uint64_t)(idx % SUB_COUNT + SUB_COUNT) << shift;
	*hi = *lo + (1ULL << shift) - 1;
}

void hist_add_bucket(struct hist *h, unsigned int idx, uint64_t n)
{
	if (idx >= HIST_BUCKETS || !n)
		return;
	h->count += n;
	h->b[idx] += n;
}

void hist_set_exact(struct hist *h, uint64_t min, uint64_t max, uint64_t sum)
{
	h->min = min;
	h->max = max;
	h->sum_lo = sum;
	h->sum_hi = 0;
}

void hist_add_n(struct hist *h, uint64_t ns, uint64_t n)
{
	uint64_t lo, hi;

	if (!n)
		return;
	h->count += n;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	if (ns > HIST_MAX_NS)
		h->clamped += n;
	h->b[hist_bucket(ns)] += n;
	/* 64x64 -> 128-bit product, by 32-bit halves to stay portable. */
	{
		uint64_t a0 = ns & 0xffffffff, a1 = ns >> 32;
		uint64_t b0 = n & 0xffffffff, b1 = n >> 32;
		uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
		uint64_t mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);

		lo = (mid << 32) | (p00 & 0xffffffff);
		hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	}
	h->sum_lo += lo;
	h->sum_hi += hi + (h->sum_lo < lo);
}

void hist_add(struct hist *h, uint64_t ns)
{
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	if (ns > HIST_MAX_NS)
		h->clamped++;
	h->b[hist_bucket(ns)]++;
	h->sum_lo += ns;
	h->sum_hi += h->sum_lo < ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->clamped += src->clamped;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum_lo += src->sum_lo;
	dst->sum_hi += src->sum_hi + (dst->sum_lo < src->sum_lo);
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->count ? h->max : 0;
}

double hist_mean(const struct hist *h)
{
	if (!h->count)
		return 0;
	return ((double)h->sum_hi * 18446744073709551616.0 + (double)h->sum_lo) /
	       (double)h->count;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, lo, hi, v;
	double r;

	if (!h->count)
		return 0;
	if (!(q > 0))	/* also NaN */
		return h->min;
	if (q >= 1)
		return h->max;
	r = ceil(q * (double)h->count);
	rank = r < 1 ? 1 : r >= (double)h->count ? h->count : (uint64_t)r;
	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		hist_bucket_range(i, &lo, &hi);
		v = lo + (hi - lo) / 2;
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;	/* not reached: the buckets add up to count */
}
