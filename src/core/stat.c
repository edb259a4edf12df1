#include "core/stat.h"

#include <math.h>
#include <stdlib.h>

void stat_summary(const double *v, size_t n, double *mean, double *min, double *max)
{
	double s = 0;

	*mean = *min = *max = n ? v[0] : 0;
	for (size_t i = 0; i < n; i++) {
		s += v[i];
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
	if (n)
		*mean = s / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stat_median(double *v, size_t n, double *min, double *max)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (min)
		*min = v[0];
	if (max)
		*max = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stat_t(unsigned int level, unsigned int df)
{
	/* two-sided: t at 0.975 and 0.995 for 1..30 degrees of freedom */
	static const double t95[30] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	static const double t99[30] = {
		63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
		3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
		2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750,
	};

	if ((level != 95 && level != 99) || !df)
		return 0;
	if (df > 30)
		return level == 95 ? 1.960 : 2.576;
	return level == 95 ? t95[df - 1] : t99[df - 1];
}

double stat_mean_halfwidth(const double *v, size_t n, unsigned int level)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return INFINITY;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	if (mean == 0)
		return INFINITY;
	return stat_t(level, (unsigned int)(n - 1)) * sqrt(ss / (double)(n - 1)) / sqrt((double)n) / fabs(mean);
}
