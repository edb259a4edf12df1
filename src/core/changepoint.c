#include "core/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double changepoint_noise(const double *x, size_t n)
{
	double *v, mad, med, floor_;

	if (n < 2 || !(v = malloc(n * sizeof(*v))))
		return 0;
	size_t m = 0;

	memcpy(v, x, n * sizeof(*v));
	med = median_of(v, n);
	/* Two runs with the very same figure measured nothing of the noise:
	 * the figure was clipped (a trial that forwarded all it was offered,
	 * a search's step). Counted, a series at its ceiling half the time
	 * would have a median difference of 0, and every wander of the
	 * other half would be a change. */
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[i - 1])
			v[m++] = fabs(x[i] - x[i - 1]);
	mad = m ? median_of(v, m) : 0;
	free(v);
	/* the difference of two runs has sqrt(2) times a run's deviation;
	 * 1.4826 makes a median absolute value a normal's deviation */
	floor_ = CP_NOISE_FLOOR * fabs(med);
	mad = 1.4826 * mad / sqrt(2.0);
	return mad > floor_ ? mad : floor_;
}

/* The groups of x for noise r->sigma into r. */
static int partition(const double *x, size_t n, struct cp_result *r)
{
	double *s1 = NULL, *s2 = NULL, *f = NULL, beta;
	size_t *from = NULL, cuts[CP_MAX_CHANGES + 1], nc = 0;
	int rc = 0;

	s1 = calloc(n + 1, sizeof(*s1));
	s2 = calloc(n + 1, sizeof(*s2));
	f = calloc(n + 1, sizeof(*f));
	from = calloc(n + 1, sizeof(*from));
	if (!s1 || !s2 || !f || !from) {
		rc = -ENOMEM;
		goto out;
	}
	/* prefix sums, around the first value for precision */
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - x[0];

		s1[i + 1] = s1[i] + d;
		s2[i + 1] = s2[i] + d * d;
	}
	beta = CP_PENALTY * r->sigma * r->sigma * log((double)n);
	/* f[j]: the least cost of x[0..j-1] cut into groups; from[j]: where
	 * its last group starts */
	f[0] = -beta;
	for (size_t j = 1; j <= n; j++) {
		f[j] = INFINITY;
		for (size_t i = 0; i + CP_MIN_GROUP <= j; i++) {
			double len = (double)(j - i), sum = s1[j] - s1[i], cost;

			if (i && i < CP_MIN_GROUP)
				continue;
			if (!isfinite(f[i]))
				continue;
			cost = (s2[j] - s2[i]) - sum * sum / len;
			if (cost < 0)
				cost = 0;
			if (f[i] + cost + beta < f[j]) {
				f[j] = f[i] + cost + beta;
				from[j] = i;
			}
		}
		if (j < CP_MIN_GROUP && !isfinite(f[j]))
			from[j] = 0;
	}
	if (!isfinite(f[n]))	/* shorter than a group: one group */
		from[n] = 0;
	/* back from the end: each group's start */
	for (size_t j = n; j > 0 && nc <= CP_MAX_CHANGES; j = from[j])
		cuts[nc++] = from[j];
	/* cuts[] holds the starts from the last group back to 0 */
	r->nchanges = nc ? nc - 1 : 0;
	for (size_t g = 0; g < nc; g++) {
		size_t start = cuts[nc - 1 - g], end = g + 1 < nc ? cuts[nc - 2 - g] : n;
		double sum = 0;

		for (size_t i = start; i < end; i++)
			sum += x[i];
		r->mean[g] = sum / (double)(end - start);
		if (g)
			r->at[g - 1] = start;
	}
out:
	free(s1);
	free(s2);
	free(f);
	free(from);
	return rc;
}

/* The standard deviation of the runs about their own group's mean. */
static double pooled(const double *x, size_t n, const struct cp_result *r)
{
	double ss = 0;

	if (n <= r->nchanges + 1)
		return 0;
	for (size_t g = 0, i = 0; i < n; i++) {
		if (g < r->nchanges && i == r->at[g])
			g++;
		ss += (x[i] - r->mean[g]) * (x[i] - r->mean[g]);
	}
	return sqrt(ss / (double)(n - r->nchanges - 1));
}

int changepoint_find(const double *x, size_t n, struct cp_result *r)
{
	double sigma;
	int rc;

	memset(r, 0, sizeof(*r));
	if (n > CP_MAX_POINTS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	if (!n)
		return 0;
	/* The neighbours' differences miss noise that only some groups have
	 * (a DUT overloaded after a change is noisier than one that kept
	 * up): once grouped, the runs' spread about their groups' means is
	 * the noise when it is larger, and the groups are made again. */
	r->sigma = changepoint_noise(x, n);
	if ((rc = partition(x, n, r)))
		return rc;
	sigma = pooled(x, n, r);
	if (sigma > r->sigma) {
		memset(r, 0, sizeof(*r));
		r->sigma = sigma;
		rc = partition(x, n, r);
	}
	return rc;
}
