/* How far to trust a median of repeats: the distribution-free confidence
 * interval of the median from order statistics. Of n values sorted,
 * [x(k), x(n-k+1)] holds the true median with probability
 * 1 - 2 * P(Bin(n, 1/2) <= k - 1), whatever the distribution, as long as
 * the repeats are independent. It needs no model of the DUT's noise (a
 * bootstrap would, in effect, at these n), and it says plainly what a
 * few repeats buy: 5 give 94%, 3 only 75%.
 *
 * And how two such figures compare: a change is a change only when the
 * intervals do not overlap, and a bound ("at least": the tester, not the
 * DUT, stopped the search) is never compared as if it were a value. */
#ifndef WR_CORE_INTERVAL_H
#define WR_CORE_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>

#define INTERVAL_GOAL		0.90	/* the least coverage asked for */
#define INTERVAL_MAX_N		1024

struct interval {
	unsigned int n;		/* values */
	double median;		/* the mean of the middle two for an even n */
	double lo, hi;		/* x(k), x(n-k+1) */
	unsigned int k;		/* 1-based order statistic; 1 = the whole range */
	double coverage;	/* achieved, in [0, 1]; 0 for n = 1 */
	bool goal_met;		/* coverage >= the goal asked for */
};

/* P(X <= k) for X ~ Bin(n, 1/2); 1 for k >= n. Exact for n <= 1024. */
double interval_binom_cdf(unsigned int k, unsigned int n);

/* The coverage of [x(k), x(n-k+1)] for n values: 1 - 2 * P(X <= k - 1);
 * 0 for k = 0, k > (n + 1) / 2 or n = 0. */
double interval_coverage(unsigned int n, unsigned int k);

/* The order statistic for n values: the largest k (the narrowest
 * interval) whose coverage is at least goal, else 1 (the full range, the
 * most n allows). Its coverage in *coverage (may be NULL). 0 for n = 0. */
unsigned int interval_choose_k(unsigned int n, double goal, double *coverage);

/* The median of x[0..n) and its interval for goal (e.g. INTERVAL_GOAL).
 * x is not changed; non-finite values are refused. -EINVAL for n = 0,
 * n > INTERVAL_MAX_N or a non-finite value; -ENOMEM. */
int interval_median(const double *x, unsigned int n, double goal, struct interval *out);

/* How figure c stands against the baseline b. A bound is "at least" its
 * values: its true median is its median or more, its interval open above. */
enum interval_cmp {
	ICMP_OVERLAP,		/* the intervals overlap: no change shown (noise) */
	ICMP_HIGHER,		/* c above b, intervals apart */
	ICMP_LOWER,		/* c below b, intervals apart */
	ICMP_NOT_COMPARABLE,	/* a bound that could be above or below the other */
};

struct interval_verdict {
	enum interval_cmp cmp;
	double diff_pct;	/* (c.median - b.median) * 100 / b.median */
	bool at_least;		/* a bound took part: the change is at least
				 * |diff_pct|, not that (the wording says so) */
};

/* c against b (b.median > 0), either of them possibly a bound. Two values:
 * higher or lower only when the intervals are apart. A bound c (true
 * value >= c.lo) is higher when c.lo > b.hi, else not comparable; a
 * bound b is higher than c when c.hi < b.lo, else not comparable; two
 * bounds are not comparable. */
void interval_compare(const struct interval *c, bool c_bound, const struct interval *b, bool b_bound,
		      struct interval_verdict *v);

/* The coverage as a whole percentage for printing, the nearest ("94%"
 * for 93.75%): a coverage chosen for the goal is 0.9 or more, so it never
 * prints as meeting the goal when it does not. */
unsigned int interval_coverage_pct(double coverage);

#endif
