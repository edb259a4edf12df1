/* The change points of a series (core/changepoint.h) on synthetic series
 * with known steps and Gaussian noise: precision and recall over many
 * series (printed), none found in flat noisy series, exact steps found
 * where they are, a lone outlier left alone, and bad input. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/changepoint.h"

/* xorshift64*, seeded: the same series on every host */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* 30 runs around 500k frames/s with 1% noise, steps of `step` times the
 * noise at runs 10 and 20 (down, then up again). */
static void series(double *x, size_t n, double step, bool steps)
{
	const double base = 500000, sd = 5000;

	for (size_t i = 0; i < n; i++) {
		double m = base;

		if (steps && i >= 10 && i < 20)
			m -= step * sd;
		x[i] = m + sd * gauss();
	}
}

static void precision_recall(void **st)
{
	const size_t n = 30, tries = 500;
	size_t truth = 0, found = 0, right = 0;
	double x[30];

	(void)st;
	for (size_t t = 0; t < tries; t++) {
		struct cp_result r;

		series(x, n, 5, true);
		assert_int_equal(changepoint_find(x, n, &r), 0);
		truth += 2;
		found += r.nchanges;
		for (size_t c = 0; c < r.nchanges; c++)
			if ((r.at[c] >= 9 && r.at[c] <= 11) || (r.at[c] >= 19 && r.at[c] <= 21))
				right++;
	}
	double precision = (double)right / (double)found, recall = (double)right / (double)truth;

	printf("# steps of 5 sigma at runs 10 and 20 of 30, %zu series: precision %.3f, recall %.3f\n", tries,
	       precision, recall);
	assert_true(precision >= 0.95);
	assert_true(recall >= 0.95);
}

static void flat_noise(void **st)
{
	const size_t n = 30, tries = 1000;
	size_t cut = 0;
	double x[30];

	(void)st;
	for (size_t t = 0; t < tries; t++) {
		struct cp_result r;

		series(x, n, 0, false);
		assert_int_equal(changepoint_find(x, n, &r), 0);
		cut += r.nchanges > 0;
	}
	printf("# flat series of 30 runs, 1%% noise: %zu of %zu cut\n", cut, tries);
	/* the penalty keeps false changes rare: at most 2% of series */
	assert_true(cut * 50 <= tries);
}

static void exact_step(void **st)
{
	double x[12] = { 100, 101, 99, 100, 100, 101, 30, 31, 30, 29, 30, 31 };
	struct cp_result r;

	(void)st;
	assert_int_equal(changepoint_find(x, 12, &r), 0);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.at[0], 6);
	assert_true(fabs(r.mean[0] - 100.1666) < 0.01);
	assert_true(fabs(r.mean[1] - 30.1666) < 0.01);
}

static void lone_outlier(void **st)
{
	/* one run far off in the middle: noise, no group of one */
	double x[10] = { 100, 100.2, 99.8, 100.1, 40, 100, 99.9, 100.2, 100, 99.8 };
	struct cp_result r;

	(void)st;
	assert_int_equal(changepoint_find(x, 10, &r), 0);
	assert_int_equal(r.nchanges, 0);
}

static void noise_floor(void **st)
{
	/* identical runs: the noise is the floor, 0.5% of the median, and
	 * a step of 0.2% is none */
	double x[8] = { 1000, 1000, 1000, 1000, 998, 998, 998, 998 };
	struct cp_result r;

	(void)st;
	assert_true(fabs(changepoint_noise(x, 8) - 5.0) < 0.01);
	assert_int_equal(changepoint_find(x, 8, &r), 0);
	assert_int_equal(r.nchanges, 0);
}

static void bad_input(void **st)
{
	double x[4] = { 1, NAN, 2, 3 };
	static double big[CP_MAX_POINTS + 1];
	struct cp_result r;

	(void)st;
	assert_int_equal(changepoint_find(x, 4, &r), -EINVAL);
	assert_int_equal(changepoint_find(big, CP_MAX_POINTS + 1, &r), -EINVAL);
	assert_int_equal(changepoint_find(x, 1, &r), 0);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(changepoint_find(x, 0, &r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(precision_recall), cmocka_unit_test(flat_noise), cmocka_unit_test(exact_step),
		cmocka_unit_test(lone_outlier), cmocka_unit_test(noise_floor), cmocka_unit_test(bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
