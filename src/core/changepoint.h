/* Where a series of figures (one run's NDR after another's, in time)
 * changed beyond its run-to-run noise: the change points of a piecewise
 * constant mean, by optimal partitioning with a penalty per change.
 *
 * The series is cut into groups (at least CP_MIN_GROUP runs each) so that
 * the squared distances of the runs from their group's mean, plus
 * CP_PENALTY * sigma^2 * ln(n) for every cut, are the least; that is the
 * Bayesian information criterion of a Gaussian model whose mean steps,
 * made stricter (the BIC's factor is 2) so that a flat noisy series of 30
 * runs is almost never cut. sigma, the run-to-run noise, comes from the
 * series itself: the median of the differences of neighbouring runs
 * (robust to the steps, which are few), scaled to a standard deviation,
 * and never below CP_NOISE_FLOOR of the series' median (what a search's
 * width goal alone moves an NDR by); when the runs spread more about the
 * means of the groups so found (noise only some groups have), that spread
 * is the noise and the series is grouped again. A group of one run is
 * never made: a lone outlier is noise, and a change shows once two runs
 * follow it.
 * O(n^2), for series of up to CP_MAX_POINTS runs. */
#ifndef WR_CORE_CHANGEPOINT_H
#define WR_CORE_CHANGEPOINT_H

#include <stddef.h>

#define CP_MAX_POINTS 2000
#define CP_MAX_CHANGES 64
#define CP_MIN_GROUP 2
#define CP_PENALTY 4.0
#define CP_NOISE_FLOOR 0.005

struct cp_result {
	double sigma;			/* the noise used, in the series' unit */
	size_t nchanges;
	size_t at[CP_MAX_CHANGES];	/* the first index of each new group */
	double mean[CP_MAX_CHANGES + 1];	/* each group's mean, in order */
};

/* The change points of x[0..n-1]. 0, or -EINVAL for n above
 * CP_MAX_POINTS or a value that is not finite; n below 2 * CP_MIN_GROUP
 * has no change. */
int changepoint_find(const double *x, size_t n, struct cp_result *r);

/* The run-to-run noise of x as changepoint_find takes it. */
double changepoint_noise(const double *x, size_t n);

#endif
