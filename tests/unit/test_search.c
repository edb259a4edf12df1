#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/search.h"

#define SEC	1000000000ULL
#define MAXL	1488095.0	/* 64 B at 1 Gb/s */
#define PREC	(0.005 * MAXL)
#define RATIO	0.005
#define MAXLOG	1000

static char err[256];

/* Simulated DUTs. Loads in frames/s; a trial of d ns offers load * d / 1e9
 * frames. */
enum dut_kind {
	SHARP,		/* no loss up to c, everything above c lost */
	SOFT,		/* no loss up to c, then a loss ratio growing smoothly */
	NOISY,		/* SHARP, plus 0.1% loss now and then in [lo, c] */
	DIP,		/* SHARP, plus 0.1% loss in [lo, hi] below c; forwards
			 * only fr under overload (a livelock) */
	ALLFAIL,	/* loses 1% at every load */
};

struct dut {
	enum dut_kind kind;
	double c;		/* capacity */
	double k;		/* SOFT: loss ratio = k * (x - c) / x above c */
	double lo, hi;		/* NOISY/DIP band */
	double fr;		/* DIP: forwarding rate under overload */
	double tester;		/* loads >= this are tester-limited; 0 = none */
	unsigned int hiccup;	/* this trial (1-based) alone is held up: 0 = none */
	unsigned int calls;
	uint64_t rng;
};

struct logent {
	double load;
	uint64_t dur, tx, rx;
	bool limited;
};

struct run {
	struct search_outcome o;
	struct logent log[MAXLOG];
	unsigned int n;
	unsigned int phases;
	double cap;		/* lowest load the search took as a tester limit */
};

static uint64_t rnd(struct dut *d)
{
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return d->rng * 2685821657736338717ULL;
}

static uint64_t frames(double rate, uint64_t dur)
{
	return (uint64_t)llround(rate * (double)dur / 1e9);
}

static void dut_trial(struct dut *d, double x, uint64_t dur,
		      uint64_t *tx, uint64_t *rx, bool *limited)
{
	uint64_t lost = 0;

	if (d->hiccup && ++d->calls == d->hiccup) {
		/* The generator's CPU was taken for most of this trial. */
		*limited = true;
		*tx = frames(x, dur) / 100;
		*rx = *tx;
		return;
	}
	*limited = d->tester > 0 && x >= d->tester;
	if (*limited) {
		/* The generator fell short: it managed 90% of the tester limit. */
		*tx = frames(0.9 * d->tester, dur);
		*rx = *tx;
		return;
	}
	*tx = frames(x, dur);
	switch (d->kind) {
	case SHARP:
	case NOISY:
	case DIP:
		if (x > d->c) {
			double fwd = d->kind == DIP ? d->fr : d->c;

			lost = *tx - frames(fwd, dur);
		} else if (d->kind == NOISY && x >= d->lo && rnd(d) % 2) {
			lost = *tx / 1000;
		} else if (d->kind == DIP && x >= d->lo && x <= d->hi) {
			lost = *tx / 1000;
		}
		break;
	case SOFT:
		if (x > d->c)
			lost = (uint64_t)llround((double)*tx * d->k * (x - d->c) / x);
		break;
	case ALLFAIL:
		lost = *tx / 100;
		break;
	}
	*rx = *tx - lost;
}

static struct search_cfg cfg_std(void)
{
	struct search_cfg c = {
		.min_load = 0.01 * MAXL,
		.max_load = MAXL,
		.precision = PREC,
		.pdr_ratio = RATIO,
		.final_ns = 60 * SEC,
		.initial_ns = 1 * SEC,
		.max_trials = 200,
	};
	return c;
}

static bool log_pass(const struct logent *e, int pdr)
{
	uint64_t loss = e->tx > e->rx ? e->tx - e->rx : 0;

	return pdr ? (double)loss <= RATIO * (double)e->tx : loss == 0;
}

/* An independent reading of the log at final duration for one goal: the
 * reported bounds must be the conservative ones, and a pass at or above a
 * failure must be reported as noise. */
static void check_honest(const struct run *r, const struct search_cfg *c,
			 const struct search_bound *b, int pdr)
{
	double minfail = INFINITY, maxpass_below = -1, cap = INFINITY;
	bool noisy = false;
	unsigned int i;

	cap = r->cap;
	for (i = 0; i < r->n; i++) {
		const struct logent *e = &r->log[i];

		/* RFC 9971: with E = 0 a failed trial of any length bounds */
		if (!e->limited && e->load < cap &&
		    !log_pass(e, pdr) && e->load < minfail)
			minfail = e->load;
	}
	for (i = 0; i < r->n; i++) {
		const struct logent *e = &r->log[i];

		if (e->dur != c->final_ns || e->limited || e->load >= cap ||
		    !log_pass(e, pdr))
			continue;
		if (e->load >= minfail)
			noisy = true;
		else if (e->load > maxpass_below)
			maxpass_below = e->load;
	}
	assert_int_equal(b->upper_valid, isfinite(minfail));
	if (b->upper_valid)
		assert_true(b->upper == minfail);
	assert_int_equal(b->lower_valid, maxpass_below >= 0);
	if (b->lower_valid) {
		assert_true(b->lower == maxpass_below);
		assert_true(b->lower >= c->min_load && b->lower <= c->max_load);
	}
	if (b->lower_valid && b->upper_valid)
		assert_true(b->lower < b->upper);
	assert_true(b->lower <= b->upper);
	assert_int_equal(b->noisy, noisy);
	if (b->noisy)
		assert_true(b->noisy_load >= b->upper && b->noisy_load <= c->max_load);
}

/* Drive a search against a DUT the way the engine will, checking every
 * request: loads in [min, max] and below any tester limit seen, durations
 * in [initial, final], never more than max_trials. */
static void drive_with(struct search *s, struct dut *d, const struct search_cfg *c,
		       bool bisect, struct run *r)
{
	double load, load2, cap = INFINITY, again = -1;
	uint64_t dur, dur2, again_dur = 0;

	memset(r, 0, sizeof(*r));
	r->phases = search_phases(s);
	while (search_next(s, &load, &dur)) {
		struct logent *e;

		assert_true(r->n < c->max_trials && r->n < MAXLOG);
		/* Asking twice without a result gives the same trial. */
		assert_true(search_next(s, &load2, &dur2));
		assert_true(load2 == load && dur2 == dur);
		assert_true(load >= c->min_load && load <= c->max_load);
		assert_true(load < cap);
		assert_true(dur >= c->initial_ns && dur <= c->final_ns);
		/* A tester-limited trial is asked again, as it was. */
		if (again >= 0)
			assert_true(load == again && dur == again_dur);
		again = -1;
		e = &r->log[r->n++];
		e->load = load;
		e->dur = dur;
		dut_trial(d, load, dur, &e->tx, &e->rx, &e->limited);
		if (e->limited || !e->tx) {
			unsigned int k = 0;

			for (unsigned int i = 0; i < r->n; i++)
				if ((r->log[i].limited || !r->log[i].tx) && r->log[i].load == load)
					k++;
			if (bisect || k > SEARCH_TESTER_RETRIES || r->n >= c->max_trials) {
				if (load < cap)
					cap = load;
			} else {
				again = load;
				again_dur = dur;
			}
		}
		search_feed(s, load, dur, e->tx, e->rx, e->limited);
	}
	r->cap = cap;
	search_outcome(s, &r->o);
	assert_int_equal(r->o.trials, r->n);
	assert_true(r->o.trials <= c->max_trials);
	check_honest(r, c, &r->o.ndr, 0);
	if (c->pdr_ratio > 0)
		check_honest(r, c, &r->o.pdr, 1);
}

static void drive(struct dut *d, const struct search_cfg *c, bool bisect, struct run *r)
{
	struct search *s = bisect ? search_create_bisect(c, err, sizeof(err))
				  : search_create(c, err, sizeof(err));

	assert_non_null(s);
	drive_with(s, d, c, bisect, r);
	search_destroy(s);
}

/* A found bound: both sides measured at final duration, within precision,
 * bracketing the true value. */
static void assert_brackets(const struct search_bound *b, double truth, double prec)
{
	assert_true(b->lower_valid && b->upper_valid);
	assert_false(b->at_max);
	assert_false(b->noisy);
	assert_true(b->lower <= truth + 1);
	assert_true(b->upper > truth - 1);
	assert_true(b->upper - b->lower <= prec * (1 + 1e-9));
}

static void sharp(void **st)
{
	const double caps[] = { 0.013, 0.2, 0.5, 0.61, 0.7777, 0.9, 0.97, 0.993 };
	struct search_cfg c = cfg_std();
	static struct run r;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		struct dut d = { .kind = SHARP, .c = caps[i] * MAXL };
		double pdr = d.c / (1 - RATIO);

		drive(&d, &c, false, &r);
		assert_true(r.o.done);
		assert_brackets(&r.o.ndr, d.c, PREC);
		if (pdr < MAXL) {
			assert_brackets(&r.o.pdr, pdr, PREC);
		} else {
			/* PDR beyond max_load: it passes everything. */
			assert_true(r.o.pdr.at_max && r.o.pdr.lower == MAXL);
		}
		/* The same answer as plain bisection, in much less time. */
		{
			static struct run b;

			drive(&d, &c, true, &b);
			assert_true(b.o.done);
			/* Bisection trusts min_load unmeasured: close to it,
			 * it may end with no lower bound. */
			if (d.c > c.min_load + PREC)
				assert_brackets(&b.o.ndr, d.c, PREC);
			assert_true(r.o.total_ns * 3 < b.o.total_ns);
		}
	}
}

static void soft(void **st)
{
	const double c1s[] = { 0.3, 0.55, 0.8 }, gaps[] = { 0.02, 0.08, 0.15 };
	struct search_cfg c = cfg_std();
	static struct run r;

	for (size_t i = 0; i < 3; i++) {
		for (size_t j = 0; j < 3; j++) {
			double c1 = c1s[i] * MAXL, c2 = (c1s[i] + gaps[j]) * MAXL;
			/* loss ratio k (x - c1) / x crosses RATIO at c2 */
			struct dut d = { .kind = SOFT, .c = c1, .k = RATIO * c2 / (c2 - c1) };

			drive(&d, &c, false, &r);
			assert_true(r.o.done);
			assert_brackets(&r.o.ndr, c1, PREC);
			assert_brackets(&r.o.pdr, c2, PREC);
			assert_true(r.o.total_ns < 20 * 60 * SEC);
		}
	}
}

/* Loss comes and goes (0.1%: fails NDR, passes PDR) at random in a band
 * [c - 6p, c] just below capacity. The search keeps its bounds ordered and
 * conservative, and a load that passed above a failure (or passed and
 * failed) is reported. Without confirm that is only seen when the PDR's
 * trials pass the NDR above its failure; with confirm (each final lower
 * bound measured twice), nearly always. */
static unsigned int noisy_run(bool confirm)
{
	struct search_cfg c = cfg_std();
	static struct run r;
	unsigned int seen = 0;

	c.confirm = confirm;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct dut d = { .kind = NOISY, .c = 0.6 * MAXL, .lo = 0.6 * MAXL - 6 * PREC,
				 .rng = 0x9E3779B97F4A7C15ULL * seed };

		drive(&d, &c, false, &r);
		assert_true(r.o.done);
		/* Conservative NDR: at or below the band's top, not below
		 * its bottom by more than precision. */
		assert_true(r.o.ndr.lower_valid && r.o.ndr.upper_valid);
		assert_true(r.o.ndr.lower <= d.c);
		assert_true(r.o.ndr.lower >= d.lo - PREC - 1);
		assert_true(r.o.ndr.upper - r.o.ndr.lower <= PREC * (1 + 1e-9));
		if (r.o.ndr.noisy) {
			seen++;
			assert_true(r.o.ndr.noisy_load >= d.lo && r.o.ndr.noisy_load <= d.c);
		}
		/* The PDR does not see the noise (0.1% < 0.5%). */
		assert_brackets(&r.o.pdr, d.c / (1 - RATIO), PREC);
		assert_true(r.n < 40);
		assert_true(r.o.total_ns < 15 * 60 * SEC);
	}
	return seen;
}

static void noisy(void **st)
{
	unsigned int plain = noisy_run(false), confirmed = noisy_run(true);

	assert_true(plain >= 4);
	assert_true(confirmed >= 15);
	assert_true(confirmed > plain);
}

/* Non-monotonic: 0.1% loss in a dip [c - 5p, c - 2p], none in
 * [c - 2p, c]; under overload the DUT forwards only a rate inside the dip,
 * so the forwarding-rate hint lands there. The NDR must not be reported
 * above a load that failed, and the pass above the dip is reported. */
static void non_monotonic(void **st)
{
	struct search_cfg c = cfg_std();
	static struct run r;
	const double cs[] = { 0.4, 0.6, 0.85 };

	for (size_t i = 0; i < 3; i++) {
		struct dut d = { .kind = DIP, .c = cs[i] * MAXL };

		d.lo = d.c - 5 * PREC;
		d.hi = d.c - 2 * PREC;
		d.fr = d.c - 3.5 * PREC;
		drive(&d, &c, false, &r);
		assert_true(r.o.ndr.lower_valid && r.o.ndr.upper_valid);
		assert_true(r.o.ndr.noisy || r.o.ndr.lower < d.lo);
		assert_true(r.o.ndr.lower < d.lo);
		assert_true(r.o.ndr.lower >= d.lo - PREC - 1);
		assert_true(r.o.ndr.noisy);
		assert_true(r.o.ndr.noisy_load > d.hi && r.o.ndr.noisy_load <= d.c);
	}
}

/* Passes everything: one short trial at max_load, one to confirm it. */
static void at_max(void **st)
{
	struct search_cfg c = cfg_std();
	struct dut d = { .kind = SHARP, .c = 2 * MAXL };
	static struct run r;

	drive(&d, &c, false, &r);
	assert_true(r.o.done);
	assert_true(r.n <= 3);
	assert_true(r.log[r.n - 1].load == MAXL && r.log[r.n - 1].dur == c.final_ns);
	assert_true(r.o.ndr.at_max && r.o.pdr.at_max);
	assert_true(r.o.ndr.lower_valid && r.o.ndr.lower == MAXL);
	assert_false(r.o.ndr.upper_valid);
	assert_true(r.o.ndr.upper == MAXL);
	assert_false(r.o.ndr.tester_capped);
	assert_true(r.o.total_ns <= 62 * SEC);
}

/* The tester cannot offer T < C honestly: the result is "at least" a load
 * below T, never a DUT failure. */
static void tester_limited(void **st)
{
	struct search_cfg c = cfg_std();
	const double ts[] = { 0.3, 0.7, 0.95 };
	static struct run r;

	for (size_t i = 0; i < 3; i++) {
		struct dut d = { .kind = SHARP, .c = 0.98 * MAXL, .tester = ts[i] * MAXL };

		drive(&d, &c, false, &r);
		assert_true(r.o.done);
		for (int g = 0; g < 2; g++) {
			const struct search_bound *b = g ? &r.o.pdr : &r.o.ndr;

			assert_true(b->tester_capped);
			assert_true(b->at_max);
			assert_false(b->upper_valid);
			assert_true(b->lower_valid);
			assert_true(b->lower < d.tester);
			/* The tester managed 90% of T: that is the ceiling. */
			assert_true(b->lower >= 0.9 * d.tester - 1);
			assert_true(b->upper < d.tester);
		}
		assert_true(r.o.ceiling < d.tester);
		assert_true(r.n <= 4);
	}
	/* A limit between NDR and max: the DUT's own failure still counts. */
	{
		struct dut d = { .kind = SHARP, .c = 0.5 * MAXL, .tester = 0.8 * MAXL };

		drive(&d, &c, false, &r);
		assert_true(r.o.done);
		assert_brackets(&r.o.ndr, d.c, PREC);
		assert_false(r.o.ndr.tester_capped);
	}
	/* Limited even at min_load: nothing can be said. */
	{
		struct dut d = { .kind = SHARP, .c = 0.5 * MAXL, .tester = 0.001 * MAXL };

		drive(&d, &c, false, &r);
		assert_false(r.o.done);
		assert_false(r.o.ndr.lower_valid || r.o.ndr.upper_valid);
		assert_true(r.o.ndr.tester_capped);
		assert_true(r.n <= 2 * (1 + SEARCH_TESTER_RETRIES));
	}
}

/* One trial held up (the generator sent 1% of its frames, as when the
 * host takes its CPU) is run again, not taken as the tester's limit: the
 * search still brackets the DUT, and the ceiling stays where it was. A
 * hold-up anywhere in the search, NDR and PDR alike. */
static void tester_hiccup(void **st)
{
	static struct run r;

	for (unsigned int h = 1; h <= 12; h++) {
		struct search_cfg c = cfg_std();
		struct dut d = { .kind = SOFT, .c = 0.4 * MAXL, .k = 0.05, .hiccup = h };

		drive(&d, &c, false, &r);
		assert_true(r.o.done);
		assert_int_equal(r.o.tester_retries, 1);
		assert_true(r.log[h - 1].limited);
		assert_true(r.log[h].load == r.log[h - 1].load && r.log[h].dur == r.log[h - 1].dur);
		assert_brackets(&r.o.ndr, d.c, PREC);
		assert_false(r.o.ndr.tester_capped || r.o.pdr.tester_capped);
		assert_true(r.o.ceiling == c.max_load);
	}
}

static void bad_cfg(void **st)
{
	struct search_cfg c;
	struct search *s;

	for (int i = 0; i < 12; i++) {
		c = cfg_std();
		switch (i) {
		case 0: c.min_load = c.max_load; break;
		case 1: c.min_load = 2 * c.max_load; break;
		case 2: c.precision = 0; break;
		case 3: c.precision = -1; break;
		case 4: c.pdr_ratio = -0.001; break;
		case 5: c.pdr_ratio = 1; break;
		case 6: c.final_ns = 0; break;
		case 7: c.initial_ns = c.final_ns + 1; break;
		case 8: c.initial_ns = 0; break;
		case 9: c.max_trials = 0; break;
		case 10: c.max_load = NAN; break;
		case 11: c.min_load = 0; break;
		}
		err[0] = 0;
		s = search_create(&c, err, sizeof(err));
		assert_null(s);
		assert_true(strlen(err) > 10);
		assert_non_null(strstr(err, "search"));
		err[0] = 0;
		assert_null(search_create_bisect(&c, err, sizeof(err)));
		assert_true(strlen(err) > 10);
	}
	c = cfg_std();
	c.initial_ns = c.final_ns;
	s = search_create(&c, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(search_phases(s), 1);
	search_destroy(s);
	search_destroy(NULL);
}

/* The plan: geometric durations, halving widths, final = cfg. */
static void phases(void **st)
{
	struct search_cfg c = cfg_std();
	struct search *s = search_create(&c, err, sizeof(err));
	uint64_t d, prev = 0;
	double w, prevw = INFINITY;
	unsigned int n = search_phases(s);

	assert_true(n >= 3 && n <= 5);
	for (unsigned int i = 0; i < n; i++) {
		search_phase(s, i, &d, &w);
		assert_true(d > prev && w < prevw);
		if (i == 0)
			assert_true(d == c.initial_ns && w == PREC * (1 << (n - 1)));
		prev = d;
		prevw = w;
	}
	assert_true(d == c.final_ns && w == PREC);
	search_destroy(s);
}

/* Many DUTs and configs, tight and loose trial caps: every request in
 * range (checked in drive), never more than max_trials, always ends. */
static void bounds_and_caps(void **st)
{
	const unsigned int caps[] = { 1, 2, 5, 13, 200 };
	const enum dut_kind kinds[] = { SHARP, SOFT, NOISY, DIP, ALLFAIL };
	static struct run r;
	struct dut rng = { .rng = 42 };

	for (size_t k = 0; k < 5; k++) {
		for (size_t m = 0; m < 5; m++) {
			for (int rep = 0; rep < 8; rep++) {
				struct search_cfg c = cfg_std();
				double cap = (double)(rnd(&rng) % 1000) / 1000;
				struct dut d = { .kind = kinds[k], .c = cap * MAXL,
						 .lo = (cap - 0.02) * MAXL, .hi = (cap - 0.01) * MAXL,
						 .fr = (cap - 0.015) * MAXL, .k = 0.02,
						 .rng = rnd(&rng) | 1 };

				c.max_trials = caps[m];
				c.min_load = 0.001 * MAXL * (1 + rep);
				c.precision = PREC * (1 + rep % 3);
				c.pdr_ratio = rep % 4 ? RATIO : 0;
				c.initial_ns = rep % 2 ? SEC : 10 * SEC;
				if (rep == 7)
					d.tester = (cap + 0.01) * MAXL;
				drive(&d, &c, rep % 5 == 4, &r);
				if (r.o.done || caps[m] >= 200)
					continue;
				assert_int_equal(r.n, caps[m]);
			}
		}
	}
}

/* A DUT that fails even at min_load: no lower bound, upper = min_load. */
static void all_fail(void **st)
{
	struct search_cfg c = cfg_std();
	struct dut d = { .kind = ALLFAIL };
	static struct run r;

	drive(&d, &c, false, &r);
	assert_true(r.o.done);
	assert_false(r.o.ndr.lower_valid || r.o.pdr.lower_valid);
	assert_true(r.o.ndr.upper_valid && r.o.ndr.upper == c.min_load);
	assert_true(r.n < 20);
}

/* pdr_ratio 0: NDR only, PDR reads the same. Same inputs, same outcome. */
static void ndr_only_and_deterministic(void **st)
{
	struct search_cfg c = cfg_std();
	struct dut d = { .kind = SOFT, .c = 0.4 * MAXL, .k = 0.05 };
	static struct run r, r2;

	c.pdr_ratio = 0;
	drive(&d, &c, false, &r);
	assert_true(r.o.done);
	assert_brackets(&r.o.ndr, d.c, PREC);
	assert_memory_equal(&r.o.ndr, &r.o.pdr, sizeof(r.o.ndr));
	drive(&d, &c, false, &r2);
	assert_int_equal(r.n, r2.n);
	assert_memory_equal(r.log, r2.log, r.n * sizeof(r.log[0]));
}

/* max_trials hit: done is false, the lower bound still only trusts final
 * trials, and feeding beyond the cap is ignored. */
static void trial_cap(void **st)
{
	struct search_cfg c = cfg_std();
	struct dut d = { .kind = SHARP, .c = 0.5 * MAXL };
	static struct run r;
	struct search *s;

	c.max_trials = 4;
	s = search_create(&c, err, sizeof(err));
	drive_with(s, &d, &c, false, &r);
	assert_false(r.o.done);
	assert_int_equal(r.n, 4);
	/* Four short trials: no lower bound yet (only full-length trials
	 * prove one); a short failure may prove an upper one (RFC 9971). */
	assert_false(r.o.ndr.lower_valid);
	search_feed(s, 1000, SEC, 1000, 1000, false);
	search_outcome(s, &r.o);
	assert_int_equal(r.o.trials, 4);
	search_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sharp),
		cmocka_unit_test(soft),
		cmocka_unit_test(noisy),
		cmocka_unit_test(non_monotonic),
		cmocka_unit_test(at_max),
		cmocka_unit_test(tester_limited),
		cmocka_unit_test(tester_hiccup),
		cmocka_unit_test(bad_cfg),
		cmocka_unit_test(phases),
		cmocka_unit_test(bounds_and_caps),
		cmocka_unit_test(all_fail),
		cmocka_unit_test(ndr_only_and_deterministic),
		cmocka_unit_test(trial_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
