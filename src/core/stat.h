/* Statistics of a few repeats: summary, median, Student's t and the
 * half-width of a mean's confidence interval. */
#ifndef WR_CORE_STAT_H
#define WR_CORE_STAT_H

#include <stddef.h>

/* mean, min, max of n values (n > 0). */
void stat_summary(const double *v, size_t n, double *mean, double *min, double *max);
/* The median of n values (n > 0), with their min and max (either may be
 * NULL); sorts v in place. */
double stat_median(double *v, size_t n, double *min, double *max);

/* Student's t for a two-sided interval at level 95 or 99 (percent) with
 * df degrees of freedom (df >= 1; the normal's above 30); 0 for another
 * level. */
double stat_t(unsigned int level, unsigned int df);
/* The half-width of the level% confidence interval of the mean of n
 * values (n >= 2), as a share of the mean (0.03: +-3%); infinity when
 * the mean is 0 or n < 2. */
double stat_mean_halfwidth(const double *v, size_t n, unsigned int level);

#endif
