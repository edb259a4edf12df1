/* The noise floor, read from the trials of a real search (core/search)
 * against simulated DUTs: a clean one, one with sporadic loss at every
 * load below a capacity cliff, and one whose loss rises smoothly with
 * load. Loss is drawn at random (Poisson), as a DUT's hiccups are. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/noisefloor.h"
#include "core/search.h"

#define SEC	1000000000ULL
#define MAXL	1000000.0
#define CAP	400000.0
#define MAXT	200

enum kind { CLEAN, SPORADIC, CONSTANT, RISING };

struct dut {
	enum kind kind;
	double ppm_lo, ppm_hi;	/* SPORADIC: each trial's ratio, uniform in this; CONSTANT: ppm_lo */
	uint64_t rng;
};

static double uni(struct dut *d)
{
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return (double)((d->rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static uint64_t poisson(struct dut *d, double lambda)
{
	if (lambda <= 0)
		return 0;
	if (lambda > 50) {
		double u1 = fmax(uni(d), 1e-300), u2 = uni(d);
		double g = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2), v = round(lambda + sqrt(lambda) * g);

		return v < 0 ? 0 : (uint64_t)v;
	}
	double l = exp(-lambda), p = 1;
	uint64_t k = 0;

	do {
		k++;
		p *= uni(d);
	} while (p > l);
	return k - 1;
}

static void trial(struct dut *d, double x, uint64_t dur, uint64_t *tx, uint64_t *rx)
{
	double ratio = 0;
	uint64_t lost;

	*tx = (uint64_t)llround(x * (double)dur / 1e9);
	switch (d->kind) {
	case CLEAN:
		break;
	case SPORADIC:
		ratio = (d->ppm_lo + (d->ppm_hi - d->ppm_lo) * uni(d)) * 1e-6;
		break;
	case CONSTANT:
		ratio = d->ppm_lo * 1e-6;
		break;
	case RISING:
		/* 1% at capacity, falling as the fourth power below it: a
		 * queue that overflows more often as it fills */
		ratio = 0.01 * pow(x / CAP, 4);
		break;
	}
	lost = poisson(d, (double)*tx * ratio);
	if (x > CAP)		/* the capacity cliff: all above it is lost */
		lost += *tx - (uint64_t)llround(CAP * (double)dur / 1e9);
	*rx = lost > *tx ? 0 : *tx - lost;
}

/* The lab's quick plan: 0.5 s then 2 s trials, 0.5% width and PDR. */
static void search_dut(struct dut *d, struct nf_result *r, struct search_outcome *o)
{
	struct search_cfg c = {
		.min_load = 100, .max_load = MAXL, .precision = 0.005 * MAXL, .pdr_ratio = 0.005,
		.final_ns = 2 * SEC, .initial_ns = SEC / 2, .max_trials = 60,
	};
	struct nf_trial t[MAXT];
	unsigned int n = 0;
	struct search *s = search_create(&c, NULL, 0);
	double load;
	uint64_t dur;

	assert_non_null(s);
	while (search_next(s, &load, &dur) && n < MAXT) {
		struct nf_trial *e = &t[n++];

		e->load = load;
		e->duration_ns = dur;
		e->limited = false;
		trial(d, load, dur, &e->tx, &e->rx);
		search_feed(s, load, dur, e->tx, e->rx, false);
	}
	search_outcome(s, o);
	search_destroy(s);
	struct nf_cfg nc = { .ref_load = o->pdr.lower_valid ? o->pdr.lower : 0,
			     .ndr = o->ndr.lower_valid ? o->ndr.lower : 0 };

	noisefloor_detect(t, n, &nc, r);
}

static void test_clean(void **state)
{
	struct search_outcome o;
	struct nf_result r;
	char buf[256];

	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct dut d = { .kind = CLEAN, .rng = seed * 7919 };

		search_dut(&d, &r, &o);
		assert_false(r.limited);
		assert_int_equal(r.lossy, 0);
		noisefloor_text(&r, buf, sizeof(buf));
		assert_string_equal(buf, "");
		/* the search found the cliff: the NDR is within 1% of it */
		assert_true(o.ndr.lower_valid && o.ndr.lower > 0.99 * CAP && o.ndr.lower <= CAP);
	}
}

/* 50-500 ppm in every trial below the cliff: flagged, and the range
 * reported overlaps the truth. Counting noise widens a trial's reading:
 * a trial that measures the ratio expects 10 frames lost or more, so its
 * reading is within about 3 standard deviations (3/sqrt(10), ~100%) of
 * its own ratio: the range stays within [25, 1000] ppm. */
static void test_sporadic(void **state)
{
	struct search_outcome o;
	struct nf_result r;
	char buf[512];

	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct dut d = { .kind = SPORADIC, .ppm_lo = 50, .ppm_hi = 500, .rng = seed * 104729 };

		search_dut(&d, &r, &o);
		assert_true(r.limited);
		assert_true(r.ppm_lo <= 500 && r.ppm_hi >= 50);
		assert_true(r.ppm_lo >= 25 && r.ppm_hi <= 1000);
		assert_true(r.ppm >= 50 && r.ppm <= 500);
		/* the PDR is the capacity; the NDR far below it */
		assert_true(o.pdr.lower_valid && o.pdr.lower > 0.99 * CAP);
		assert_true(!o.ndr.lower_valid || o.ndr.lower < 0.5 * CAP);
		assert_true(r.nloads >= NF_MIN_LOADS && r.load_lo <= 0.5 * CAP && r.load_hi <= 0.8 * o.pdr.lower);
		assert_true(r.elasticity <= NF_MAX_ELASTICITY);
		noisefloor_text(&r, buf, sizeof(buf));
		assert_non_null(strstr(buf, "NDR limited by sporadic loss of "));
		assert_non_null(strstr(buf, "use the PDR"));
	}
}

/* A fixed 200 ppm (as the lab's numgen rule drops): the range holds it. */
static void test_constant(void **state)
{
	struct search_outcome o;
	struct nf_result r;

	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct dut d = { .kind = CONSTANT, .ppm_lo = 200, .rng = seed * 15485863 };

		search_dut(&d, &r, &o);
		assert_true(r.limited);
		assert_true(r.ppm_lo <= 200 && r.ppm_hi >= 200);
		/* pooled over some 100k frames or more: 20 lost or more, so
		 * within 50% of the truth even at 3 standard deviations */
		assert_true(fabs(r.ppm - 200) < 100);
	}
}

/* Loss that rises with load is capacity, not noise: never flagged,
 * though it starts far below the PDR. */
static void test_rising(void **state)
{
	struct search_outcome o;
	struct nf_result r;

	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct dut d = { .kind = RISING, .rng = seed * 32452843 };

		search_dut(&d, &r, &o);
		assert_false(r.limited);
		assert_true(r.lossy > 0);
		if (!isnan(r.elasticity))
			assert_true(r.elasticity > NF_MAX_ELASTICITY);
	}
}

/* Hand-made trials: too few, tester-limited ones, no reference. */
static void test_edges(void **state)
{
	struct nf_trial t[] = {
		{ 100000, SEC, 100000, 99980, false },
		{ 50000, SEC, 50000, 49990, false },
		{ 20000, SEC, 20000, 19996, false },
		{ 10000, SEC, 10000, 9998, false },
		{ 600000, SEC, 600000, 400000, false },	/* the cliff */
		{ 300000, SEC, 300000, 100, true },	/* tester-limited: ignored */
	};
	struct nf_cfg c = { 0 };
	struct nf_result r;

	(void)state;
	noisefloor_detect(t, 0, &c, &r);
	assert_false(r.limited);
	/* 200 ppm at four loads from 10k to 100k, reference from the trials
	 * (the highest losing under 0.5%: 100k) */
	noisefloor_detect(t, 6, &c, &r);
	assert_true(r.ref_load == 100000);
	/* only 10k..80k are in the region (0.8 * 100k): 3 trials */
	assert_int_equal(r.trials, 3);
	assert_true(r.ppm > 199 && r.ppm < 201);
	/* an NDR at the reference is not limited by anything below it */
	c.ref_load = 60000;
	c.ndr = 59000;
	noisefloor_detect(t, 6, &c, &r);
	assert_false(r.limited);
	c.ref_load = 500000;
	c.ndr = 0;
	noisefloor_detect(t, 6, &c, &r);
	assert_true(r.limited);
	assert_true(r.ppm == 200 && r.ppm_lo < 200 && r.ppm_hi > 200 && r.nloads == 4);
	assert_true(r.load_lo == 10000 && r.load_hi == 100000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_sporadic),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_rising),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
