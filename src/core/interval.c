#include "core/interval.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* log C(n, i) summed in doubles: exact enough for n <= 1024, where a plain
 * 2^-n underflows nothing and the terms stay well within range. */
double interval_binom_cdf(unsigned int k, unsigned int n)
{
	double sum = 0;

	if (k >= n)
		return 1;
	for (unsigned int i = 0; i <= k; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
	return sum > 1 ? 1 : sum;
}

double interval_coverage(unsigned int n, unsigned int k)
{
	double c;

	if (!n || !k || k > (n + 1) / 2)
		return 0;
	c = 1 - 2 * interval_binom_cdf(k - 1, n);
	return c < 0 ? 0 : c;
}

unsigned int interval_choose_k(unsigned int n, double goal, double *coverage)
{
	unsigned int k = 1;

	if (!n) {
		if (coverage)
			*coverage = 0;
		return 0;
	}
	/* Coverage falls as k grows: the last k that still meets the goal. */
	while (k + 1 <= (n + 1) / 2 && interval_coverage(n, k + 1) >= goal - 1e-12)
		k++;
	if (coverage)
		*coverage = interval_coverage(n, k);
	return k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int interval_median(const double *x, unsigned int n, double goal, struct interval *out)
{
	double *v;

	memset(out, 0, sizeof(*out));
	if (!n || n > INTERVAL_MAX_N)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	if (!(v = malloc(n * sizeof(*v))))
		return -ENOMEM;
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	out->n = n;
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out->k = interval_choose_k(n, goal, &out->coverage);
	out->lo = v[out->k - 1];
	out->hi = v[n - out->k];
	out->goal_met = out->coverage >= goal - 1e-12;
	free(v);
	return 0;
}

void interval_compare(const struct interval *c, bool c_bound, const struct interval *b, bool b_bound,
		      struct interval_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (b->median > 0)
		v->diff_pct = (c->median - b->median) * 100 / b->median;
	v->at_least = c_bound || b_bound;
	if (c_bound && b_bound) {
		v->cmp = ICMP_NOT_COMPARABLE;
	} else if (c_bound) {
		/* c is lo or more: above b only if even its lowest is. */
		v->cmp = c->lo > b->hi ? ICMP_HIGHER : ICMP_NOT_COMPARABLE;
	} else if (b_bound) {
		v->cmp = c->hi < b->lo ? ICMP_LOWER : ICMP_NOT_COMPARABLE;
	} else {
		v->cmp = c->lo > b->hi ? ICMP_HIGHER : c->hi < b->lo ? ICMP_LOWER : ICMP_OVERLAP;
	}
}

unsigned int interval_coverage_pct(double coverage)
{
	double p = floor(coverage * 100 + 0.5);

	return p < 0 ? 0 : p > 100 ? 100 : (unsigned int)p;
}
