#include "core/paired.h"

#include <math.h>
#include <stddef.h>

/* The regularized incomplete beta I_x(a, b) by its continued fraction
 * (Lentz's method), the form that converges for x < (a + 1) / (a + b + 2);
 * the other side comes from the symmetry I_x(a, b) = 1 - I_1-x(b, a). */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

double paired_t_cdf(double t, unsigned int df)
{
	double tail;

	if (!df || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = ibeta(df / 2.0, 0.5, df / (df + t * t)) / 2;
	return t >= 0 ? 1 - tail : tail;
}

double paired_t_quantile(double p, unsigned int df)
{
	double lo = 0, hi = 1;

	if (!df || !(p > 0 && p < 1))
		return NAN;
	if (p < 0.5)
		return -paired_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	/* bracket, then bisect: the cdf is monotone, and this runs a few
	 * times per comparison, so plain and sure beats fast */
	while (paired_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (paired_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

const char *paired_verdict_name(enum paired_verdict v)
{
	switch (v) {
	case PAIRED_SAME:
		return "same";
	case PAIRED_BETTER:
		return "better";
	case PAIRED_WORSE:
		return "worse";
	case PAIRED_CANNOT_TELL:
		return "cannot tell";
	default:
		return "";
	}
}

static void sort(double *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		double x = v[i];
		unsigned int j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* (max - min) / median of v[0..n), percent; v is sorted in place. */
static double spread_pct(double *v, unsigned int n)
{
	double med;

	sort(v, n);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return med > 0 ? (v[n - 1] - v[0]) * 100 / med : 0;
}

/* A difference in log points (100 ln ratio) as a percent change. */
static double pct(double logpts)
{
	return 100 * expm1(logpts / 100);
}

static bool usable(double x)
{
	return isfinite(x) && x > 0;
}

/* The mean of d[0..n) but for round skip (n: none), its Student-t
 * interval at PAIRED_LEVEL, and the verdict for threshold thr, into *r.
 * A standard deviation of 0 (rounds that agree exactly) is an interval
 * of one point: no division by it anywhere. */
static void judge(const double *d, unsigned int n, unsigned int skip, double thr, struct paired_result *r)
{
	double mean = 0, ss = 0, sd, half;
	unsigned int k = n - (skip < n);

	for (unsigned int i = 0; i < n; i++)
		if (i != skip)
			mean += d[i];
	mean /= k;
	for (unsigned int i = 0; i < n; i++)
		if (i != skip)
			ss += (d[i] - mean) * (d[i] - mean);
	sd = sqrt(ss / (k - 1));
	r->level = PAIRED_LEVEL;
	half = paired_t_quantile(1 - (1 - r->level) / 2, k - 1) * sd / sqrt(k);
	r->diff_pct = pct(mean);
	r->lo_pct = pct(mean - half);
	r->hi_pct = pct(mean + half);
	r->noise_pct = sd;
	if ((r->lo_pct > 0 || r->hi_pct < 0) && fabs(r->diff_pct) >= thr)
		r->verdict = r->diff_pct > 0 ? PAIRED_BETTER : PAIRED_WORSE;
	else if (r->lo_pct >= -thr && r->hi_pct <= thr)
		r->verdict = PAIRED_SAME;
	else
		r->verdict = PAIRED_CANNOT_TELL;
}

/* The round that stands apart from the others, or n: the one furthest
 * from the mean, when it lies outside where the others put a further
 * round (their prediction interval at the comparison's level). A step of
 * the host between A and B of one round moves that round's difference
 * alone, by the whole step; the other rounds still agree. */
static unsigned int outlier(const double *d, unsigned int n)
{
	unsigned int far = 0;
	double mean = 0, ss = 0, pi;

	if (n < 5)
		return n;
	for (unsigned int i = 0; i < n; i++)
		mean += d[i];
	mean /= n;
	for (unsigned int i = 1; i < n; i++)
		if (fabs(d[i] - mean) > fabs(d[far] - mean))
			far = i;
	mean = 0;
	for (unsigned int j = 0; j < n; j++)
		if (j != far)
			mean += d[j];
	mean /= n - 1;
	for (unsigned int j = 0; j < n; j++)
		if (j != far)
			ss += (d[j] - mean) * (d[j] - mean);
	pi = paired_t_quantile(1 - (1 - PAIRED_LEVEL) / 2, n - 2) * sqrt(ss / (n - 2)) * sqrt(1 + 1.0 / (n - 1));
	return fabs(d[far] - mean) > pi ? far : n;
}

enum paired_verdict paired_compare(const double *a, const double *b, unsigned int n, double threshold_pct,
				   struct paired_result *r)
{
	double d[PAIRED_MAX_ROUNDS], aa[PAIRED_MAX_ROUNDS], bb[PAIRED_MAX_ROUNDS], thr;
	unsigned int k = 0, round[PAIRED_MAX_ROUNDS];

	*r = (struct paired_result){ .verdict = PAIRED_NONE, .left_out = -1 };
	thr = threshold_pct >= 0 && isfinite(threshold_pct) ? threshold_pct : PAIRED_THRESHOLD_PCT;
	if (n > PAIRED_MAX_ROUNDS)
		n = PAIRED_MAX_ROUNDS;
	for (unsigned int i = 0; a && b && i < n; i++) {
		if (!usable(a[i]) || !usable(b[i]))
			continue;
		aa[k] = a[i];
		bb[k] = b[i];
		d[k] = 100 * log(b[i] / a[i]);
		round[k++] = i;
	}
	r->n = k;
	if (k < 2)
		return r->verdict;
	judge(d, k, k, thr, r);
	if (r->verdict == PAIRED_CANNOT_TELL) {
		unsigned int o = outlier(d, k);

		if (o < k) {
			struct paired_result x = *r;

			judge(d, k, o, thr, &x);
			if (x.verdict != PAIRED_CANNOT_TELL) {
				*r = x;
				r->left_out = (int)round[o];
			}
		}
	}
	r->drift_pct = fmax(spread_pct(aa, k), spread_pct(bb, k));
	return r->verdict;
}
