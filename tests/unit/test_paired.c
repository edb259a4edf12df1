#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "core/paired.h"

#define NEAR(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

/* Student's t quantiles against the printed tables (3 decimals) and the
 * normal's for a large df. */
static void test_t_quantile(void **state)
{
	(void)state;
	NEAR(paired_t_quantile(0.975, 1), 12.706, 1e-3);
	NEAR(paired_t_quantile(0.995, 1), 63.657, 1e-3);
	NEAR(paired_t_quantile(0.995, 2), 9.925, 1e-3);
	NEAR(paired_t_quantile(0.995, 4), 4.604, 1e-3);
	NEAR(paired_t_quantile(0.975, 4), 2.776, 1e-3);
	NEAR(paired_t_quantile(0.995, 30), 2.750, 1e-3);
	NEAR(paired_t_quantile(0.9995, 3), 12.924, 1e-3);
	NEAR(paired_t_quantile(0.95, 10), 1.812, 1e-3);
	NEAR(paired_t_quantile(0.995, 1000000), 2.5758, 1e-3);
	NEAR(paired_t_quantile(0.025, 4), -2.776, 1e-3);
	NEAR(paired_t_quantile(0.5, 7), 0, 1e-12);
	/* df = 1 is Cauchy: P(T <= 1) = 3/4; df = 2 has a closed form */
	NEAR(paired_t_cdf(1, 1), 0.75, 1e-12);
	NEAR(paired_t_cdf(2, 2), 0.5 + 2 / (2 * sqrt(6)), 1e-12);
	NEAR(paired_t_cdf(-2, 2) + paired_t_cdf(2, 2), 1, 1e-12);
	assert_true(isnan(paired_t_quantile(0, 3)));
	assert_true(isnan(paired_t_quantile(1, 3)));
	assert_true(isnan(paired_t_quantile(0.9, 0)));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(paired_verdict_name(PAIRED_SAME), "same");
	assert_string_equal(paired_verdict_name(PAIRED_BETTER), "better");
	assert_string_equal(paired_verdict_name(PAIRED_WORSE), "worse");
	assert_string_equal(paired_verdict_name(PAIRED_CANNOT_TELL), "cannot tell");
	assert_string_equal(paired_verdict_name(PAIRED_NONE), "");
}

static void test_edges(void **state)
{
	double a[] = { 100, 100, 100, 100 }, b[] = { 90, 90, 90, 90 };
	double an[] = { 100, NAN, 0, 100 }, bn[] = { 90, 90, 90, INFINITY };
	double a2[] = { 100, 102, 98 }, b2[] = { 100.5, 101.5, 98.2 };
	struct paired_result r;

	(void)state;
	/* fewer than two rounds */
	assert_int_equal(paired_compare(a, b, 0, -1, &r), PAIRED_NONE);
	assert_int_equal(paired_compare(a, b, 1, -1, &r), PAIRED_NONE);
	assert_int_equal(r.n, 1);
	assert_int_equal(paired_compare(NULL, b, 3, -1, &r), PAIRED_NONE);
	/* NaN, 0 and infinity drop their round: one left */
	assert_int_equal(paired_compare(an, bn, 4, -1, &r), PAIRED_NONE);
	assert_int_equal(r.n, 1);
	/* exactly equal, no noise: same, a point interval at 0 */
	assert_int_equal(paired_compare(a, a, 4, -1, &r), PAIRED_SAME);
	assert_true(r.diff_pct == 0 && r.lo_pct == 0 && r.hi_pct == 0 && r.noise_pct == 0);
	assert_true(r.drift_pct == 0);
	/* exactly 10% lower, no noise: worse, however few rounds */
	assert_int_equal(paired_compare(a, b, 2, -1, &r), PAIRED_WORSE);
	NEAR(r.diff_pct, -10, 1e-9);
	NEAR(r.lo_pct, -10, 1e-9);
	NEAR(r.hi_pct, -10, 1e-9);
	assert_int_equal(paired_compare(b, a, 4, -1, &r), PAIRED_BETTER);
	NEAR(r.diff_pct, 100.0 / 9, 1e-9);
	/* a threshold below 0 is the default: a 0.3% change with no noise is
	 * beyond zero but within 1% */
	{
		double x[] = { 100, 100 }, y[] = { 100.3, 100.3 };

		assert_int_equal(paired_compare(x, y, 2, -5, &r), PAIRED_SAME);
		assert_int_equal(paired_compare(x, y, 2, 0.2, &r), PAIRED_BETTER);
	}
	/* three rounds that disagree by about their own size: cannot tell */
	assert_int_equal(paired_compare(a2, b2, 3, -1, &r), PAIRED_CANNOT_TELL);
	assert_int_equal(r.n, 3);
	NEAR(r.level, PAIRED_LEVEL, 1e-12);
	assert_true(r.lo_pct < r.diff_pct && r.diff_pct < r.hi_pct);
	assert_true(r.left_out == -1);
	/* the host's range: A 98..102 over a median of 100 */
	NEAR(r.drift_pct, 4, 1e-9);
}

/* One round of five where the host stepped between A and B: its
 * difference stands apart, the other four decide, and it is named. */
static void test_left_out(void **state)
{
	double a[] = { 100, 109.1, 109, 108.9, 109 }, b[] = { 90, 98.1, 88.9, 98.2, 98 };
	struct paired_result r;

	(void)state;
	/* round 2 (A then B): A measured before a 9% step up, B after; all
	 * five together cannot tell */
	a[2] = 100;
	b[2] = 99.5;
	assert_int_equal(paired_compare(a, b, 5, -1, &r), PAIRED_WORSE);
	assert_int_equal(r.left_out, 2);
	assert_true(r.diff_pct < -9.5 && r.diff_pct > -10.5);
	assert_true(r.drift_pct > 8);
}

/* A fixed-seed generator of the test's own (splitmix64), so the
 * simulations give the same counts on every machine. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_unit(struct rng *g)
{
	return (double)((rng_next(g) >> 11) + 1) / 9007199254740993.0;	/* (0, 1) */
}

static double rng_gauss(struct rng *g)
{
	return sqrt(-2 * log(rng_unit(g))) * cos(2 * M_PI * rng_unit(g));
}

#define SIM_MATRICES	1000
#define SIM_NOISE	0.01	/* each measurement: 1% gaussian */
#define SIM_STEP	0.09	/* the host's step (or drift across the matrix) */
/* The threshold the simulations judge with: three times the simulated
 * noise of one measurement, as the default 1% is five times the 0.2% of
 * a real host's back-to-back repeats (docs/confidence.md). */
#define SIM_THRESHOLD	3.0

enum sim_kind {
	SIM_STEP_IN_ROUND,	/* the step falls between A and B of a round */
	SIM_STEP_BETWEEN,	/* between two rounds */
	SIM_DRIFT,		/* a linear drift of SIM_STEP over the matrix */
	SIM_KINDS,
};

struct sim_count {
	unsigned int v[SIM_KINDS][PAIRED_CANNOT_TELL + 1];
};

/* SIM_MATRICES matrices of R rounds in ABBA order (round 0 A then B,
 * round 1 B then A, ...), B truly `effect` below A; the kinds of drift
 * take turns, each up or down at random. */
static void sim(unsigned int rounds, double effect, uint64_t seed, struct sim_count *c)
{
	struct rng g = { seed };

	*c = (struct sim_count){ 0 };
	for (unsigned int m = 0; m < SIM_MATRICES; m++) {
		enum sim_kind kind = m % SIM_KINDS;
		double a[PAIRED_MAX_ROUNDS], b[PAIRED_MAX_ROUNDS], sign = rng_next(&g) & 1 ? 1 : -1;
		unsigned int at = 0, slots = 2 * rounds;	/* the step: before slot `at` */
		struct paired_result r;

		if (kind == SIM_STEP_IN_ROUND)
			at = 2 * (unsigned int)(rng_next(&g) % rounds) + 1;
		else if (kind == SIM_STEP_BETWEEN)
			at = 2 * (unsigned int)(1 + rng_next(&g) % (rounds - 1));
		for (unsigned int slot = 0; slot < slots; slot++) {
			unsigned int i = slot / 2;
			bool is_b = (slot % 2) == (i % 2 == 0);
			double host = kind == SIM_DRIFT ? 1 + sign * SIM_STEP * slot / (slots - 1)
							: 1 + (slot >= at ? sign * SIM_STEP : 0);
			double x = host * (1 + SIM_NOISE * rng_gauss(&g));

			if (is_b)
				b[i] = x * (1 - effect);
			else
				a[i] = x;
		}
		c->v[kind][paired_compare(a, b, rounds, SIM_THRESHOLD, &r)]++;
	}
}

static unsigned int sim_total(const struct sim_count *c, enum paired_verdict v)
{
	unsigned int n = 0;

	for (int k = 0; k < SIM_KINDS; k++)
		n += c->v[k][v];
	return n;
}

static void sim_print(const char *what, unsigned int rounds, const struct sim_count *c)
{
	static const char *kinds[SIM_KINDS] = { "step in a round", "step between rounds", "linear drift" };

	for (int k = 0; k < SIM_KINDS; k++)
		printf("# %s, R=%u, %s: same %u better %u worse %u cannot tell %u\n", what, rounds, kinds[k],
		       c->v[k][PAIRED_SAME], c->v[k][PAIRED_BETTER], c->v[k][PAIRED_WORSE],
		       c->v[k][PAIRED_CANNOT_TELL]);
}

/* Two equal configurations on a drifting host: never called different.
 * Measured: R=3 and R=5, 0 of 1000 better or worse (the rest mostly
 * "cannot tell" where the host moved inside a round, else "same"). */
static void test_sim_equal(void **state)
{
	struct sim_count c;

	(void)state;
	for (unsigned int rounds = 3; rounds <= 5; rounds += 2) {
		sim(rounds, 0, 2026 + rounds, &c);
		sim_print("equal", rounds, &c);
		assert_int_equal(sim_total(&c, PAIRED_BETTER), 0);
		assert_int_equal(sim_total(&c, PAIRED_WORSE), 0);
	}
}

/* B truly 10% lower. R=5: worse in at least 95% (measured 971 of 1000:
 * all of the steps between rounds and of the drifts, 305 of the 334
 * steps inside a round). R=3 cannot promise it (measured 349 of 1000:
 * 262 of 333 steps between rounds, 87 of 333 drifts, none of the steps
 * inside a round: 3 rounds give the t interval 2 degrees of freedom, and
 * no round can be left out), but it never says better. */
static void test_sim_worse(void **state)
{
	struct sim_count c;

	(void)state;
	sim(5, 0.10, 4242, &c);
	sim_print("10% lower", 5, &c);
	assert_true(sim_total(&c, PAIRED_WORSE) >= 950);
	assert_int_equal(sim_total(&c, PAIRED_BETTER), 0);
	sim(3, 0.10, 4243, &c);
	sim_print("10% lower", 3, &c);
	assert_int_equal(sim_total(&c, PAIRED_BETTER), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantile), cmocka_unit_test(test_names),    cmocka_unit_test(test_edges),
		cmocka_unit_test(test_left_out),   cmocka_unit_test(test_sim_equal), cmocka_unit_test(test_sim_worse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
