/* An oracle for the search (search.h), written from RFC 9971's text and
 * not from src/core/search.c: the RFC's load classification (section
 * "Load Classification Logic": balancing sum, effective bad sum, effective
 * whole sum, quantile duration sum, optimistic and pessimistic) and its
 * conditional throughput (the 1 - exceed ratio quantile of the long
 * trials' loss ratios, missing time counting as total loss), applied to
 * every trial the search ran, must give the search's own relevant lower
 * and upper bounds and conditional throughput. Random goals and random
 * noisy DUTs; half the searches run one phase of full-length trials, half
 * start with trials 1/8 as long (the RFC's short trials, which can prove
 * an upper bound but never a lower one). Then searches of up to eight
 * goals sharing their trials, each goal checked on its own. Prints the
 * agreement counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/search.h"

#define SEC	1000000000ULL
#define NRUNS	400
#define MAXT	200

struct otrial { double load, dur, loss; };

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static double urand(void)	/* xorshift64*, [0, 1) */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

enum oclass { O_UPPER, O_LOWER, O_UNDECIDED };

/* RFC 9971 load classification, for one load and one goal: trials at least
 * the goal final trial duration long are long, the others short. */
static enum oclass classify(const struct otrial *t, size_t n, double load, double final_s,
			    double sum_s, double loss_goal, double exceed)
{
	double good_long = 0, bad_long = 0, good_short = 0, bad_short = 0;
	double balancing, eff_bad, eff_whole, quantile;
	bool optimistic, pessimistic;

	for (size_t i = 0; i < n; i++) {
		if (t[i].load != load)
			continue;
		bool bad = t[i].loss > loss_goal;
		if (t[i].dur >= final_s)
			*(bad ? &bad_long : &good_long) += t[i].dur;
		else
			*(bad ? &bad_short : &good_short) += t[i].dur;
	}
	balancing = good_short * exceed / (1.0 - exceed);
	eff_bad = bad_long + fmax(0.0, bad_short - balancing);
	eff_whole = fmax(good_long + eff_bad, sum_s);
	quantile = eff_whole * exceed;
	optimistic = eff_bad <= quantile;
	pessimistic = (eff_whole - good_long) <= quantile;
	if (pessimistic)
		return O_LOWER;
	return optimistic ? O_UNDECIDED : O_UPPER;
}

/* RFC 9971 conditional throughput at load (long trials only). */
static double cond_tput(const struct otrial *t, size_t n, double load, double final_s,
			double sum_s, double exceed)
{
	double lr[MAXT], du[MAXT], all = 0, remaining, q = 1.0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (t[i].load == load && t[i].dur >= final_s) {
			lr[m] = t[i].loss;
			du[m++] = t[i].dur;
			all += t[i].dur;
		}
	/* sort by loss ratio, ascending */
	for (size_t i = 1; i < m; i++)
		for (size_t k = i; k > 0 && lr[k - 1] > lr[k]; k--) {
			double a = lr[k], b = du[k];
			lr[k] = lr[k - 1]; du[k] = du[k - 1];
			lr[k - 1] = a; du[k - 1] = b;
		}
	remaining = fmax(sum_s, all) * (1.0 - exceed);
	for (size_t i = 0; i < m && remaining > 1e-9; i++) {
		q = lr[i];
		remaining -= du[i];
	}
	if (remaining > 1e-9)
		q = 1.0;
	return load * (1.0 - q);
}

/* Relevant bounds: RUB the lowest load classified upper, RLB the highest
 * load classified lower below it. Returns false where none exists. */
static void bounds(const struct otrial *t, size_t n, double final_s, double sum_s, double lg, double e,
		   bool *lv, double *rlb, bool *uv, double *rub)
{
	*uv = *lv = false;
	for (size_t i = 0; i < n; i++)
		if (classify(t, n, t[i].load, final_s, sum_s, lg, e) == O_UPPER && (!*uv || t[i].load < *rub)) {
			*uv = true;
			*rub = t[i].load;
		}
	for (size_t i = 0; i < n; i++)
		if (classify(t, n, t[i].load, final_s, sum_s, lg, e) == O_LOWER && (!*uv || t[i].load < *rub) &&
		    (!*lv || t[i].load > *rlb)) {
			*lv = true;
			*rlb = t[i].load;
		}
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b));
}

/* Goal (lg, e, sum_ns) of a search with c's final trials. */
static bool agree(const struct otrial *t, size_t n, const struct search_cfg *c, double lg, double e,
		  uint64_t sum_ns, const struct search_bound *b)
{
	double fs = (double)c->final_ns / SEC, ss = (double)sum_ns / SEC;
	double rlb = 0, rub = 0;
	bool lv, uv;

	bounds(t, n, fs, ss, lg, e, &lv, &rlb, &uv, &rub);
	if (lv != b->lower_valid || uv != b->upper_valid)
		return false;
	if (lv && !close_to(rlb, b->lower))
		return false;
	if (uv && !close_to(rub, b->upper))
		return false;
	if (lv && !close_to(cond_tput(t, n, rlb, fs, ss, e), b->cond_tput))
		return false;
	return true;
}

/* A DUT with capacity cap (frames/s) that loses now and then below it,
 * with probability p per trial, a random loss ratio up to pmax. */
static double dut_loss(double load, double cap, double p, double pmax)
{
	double loss = load > cap ? (load - cap) / load : 0;

	if (urand() < p)
		loss += urand() * pmax;
	return fmin(loss, 1.0);
}

static void test_oracle_agrees(void **state)
{
	unsigned int agreed = 0, sets = 0, trials = 0;

	(void)state;
	for (unsigned int run = 0; run < NRUNS; run++) {
		static const double exceeds[] = { 0, 0, 0.1, 0.25, 0.5 };
		double final_s = 1 + floor(urand() * 3);
		struct search_cfg c = {
			.min_load = 1000, .max_load = 1e6,
			.precision = 1e6 * (0.002 + 0.02 * urand()),
			.pdr_ratio = urand() < 0.5 ? 0.005 : 0,
			.final_ns = (uint64_t)final_s * SEC,
			.initial_ns = (uint64_t)final_s * SEC / (run % 2 ? 8 : 1),
			.max_trials = MAXT, .confirm = urand() < 0.3,
			.exceed_ratio = exceeds[run % 5],
			.duration_sum_ns = (uint64_t)(final_s * (1 + floor(urand() * 4))) * SEC,
		};
		double cap = run % 17 == 0 ? 2e6 : 1000 + urand() * 1e6;
		double p = run % 3 == 0 ? 0 : urand() * 0.4, pmax = urand() < 0.5 ? 0.002 : 0.05;
		struct otrial t[MAXT];
		struct search_outcome o;
		struct search *s = search_create(&c, NULL, 0);
		size_t n = 0;
		double load;
		uint64_t dur;

		assert_non_null(s);
		while (search_next(s, &load, &dur)) {
			uint64_t tx = (uint64_t)llround(load * (double)dur / SEC), rx;
			double loss = dut_loss(load, cap, p, pmax);

			assert_true(load >= c.min_load && load <= c.max_load);
			if (tx == 0)
				tx = 1;
			rx = tx - (uint64_t)llround(loss * (double)tx);
			search_feed(s, load, dur, tx, rx, false);
			t[n].load = load;
			t[n].dur = (double)dur / SEC;
			t[n].loss = (double)(tx - rx) / (double)tx;
			n++;
			assert_true(n <= MAXT);
		}
		search_outcome(s, &o);
		trials += (unsigned int)n;
		sets++;
		if (agree(t, n, &c, 0, c.exceed_ratio, c.duration_sum_ns, &o.ndr))
			agreed++;
		else
			printf("# disagree NDR run %u\n", run);
		if (c.pdr_ratio > 0) {
			sets++;
			if (agree(t, n, &c, c.pdr_ratio, c.exceed_ratio, c.duration_sum_ns, &o.pdr))
				agreed++;
			else
				printf("# disagree PDR run %u\n", run);
		}
		search_destroy(s);
	}
	printf("# oracle: %u of %u goal results agree (%u trials)\n", agreed, sets, trials);
	assert_int_equal(agreed, sets);
}

/* Searches of several goals at once (search_cfg.goals: each its own loss
 * ratio, exceed ratio, duration sum and width), sharing their trials:
 * every goal's result must be what the oracle reads for that goal from
 * all the trials the search ran, whichever goal they were asked for. */
static void test_oracle_goals_share(void **state)
{
	static const double exceeds[] = { 0, 0, 0.1, 0.25, 0.5 }, losses[] = { 0, 0, 0.001, 0.005, 0.02 };
	unsigned int agreed = 0, sets = 0, trials = 0;

	(void)state;
	for (unsigned int run = 0; run < NRUNS / 2; run++) {
		double final_s = 1 + floor(urand() * 3);
		struct search_cfg c = {
			.min_load = 1000, .max_load = 1e6, .precision = 1e6 * 0.01,
			.final_ns = (uint64_t)final_s * SEC,
			.initial_ns = (uint64_t)final_s * SEC / (run % 2 ? 8 : 1),
			.max_trials = MAXT, .confirm = urand() < 0.3,
			.ngoals = 2 + (unsigned int)(urand() * (SEARCH_GOALS - 1)),
		};
		double cap = run % 17 == 0 ? 2e6 : 1000 + urand() * 1e6;
		double p = run % 3 == 0 ? 0 : urand() * 0.4, pmax = urand() < 0.5 ? 0.002 : 0.05;
		struct otrial t[MAXT];
		struct search_outcome o;
		struct search *s;
		size_t n = 0;
		double load;
		uint64_t dur;

		for (unsigned int k = 0; k < c.ngoals; k++)
			c.goals[k] = (struct search_target){
				.loss_ratio = losses[(unsigned int)(urand() * 5)],
				.exceed_ratio = exceeds[(unsigned int)(urand() * 5)],
				.duration_sum_ns = (uint64_t)(final_s * (1 + floor(urand() * 4))) * SEC,
				.precision = 1e6 * (0.002 + 0.02 * urand()),
			};
		assert_non_null(s = search_create(&c, NULL, 0));
		while (search_next(s, &load, &dur)) {
			uint64_t tx = (uint64_t)llround(load * (double)dur / SEC), rx;
			double loss = dut_loss(load, cap, p, pmax);

			assert_true(load >= c.min_load && load <= c.max_load);
			if (tx == 0)
				tx = 1;
			rx = tx - (uint64_t)llround(loss * (double)tx);
			search_feed(s, load, dur, tx, rx, false);
			t[n].load = load;
			t[n].dur = (double)dur / SEC;
			t[n].loss = (double)(tx - rx) / (double)tx;
			n++;
			assert_true(n <= MAXT);
		}
		search_outcome(s, &o);
		assert_int_equal(o.ngoals, c.ngoals);
		trials += (unsigned int)n;
		for (unsigned int k = 0; k < c.ngoals; k++) {
			const struct search_target *g = &c.goals[k];

			sets++;
			if (agree(t, n, &c, g->loss_ratio, g->exceed_ratio, g->duration_sum_ns, &o.goal[k]))
				agreed++;
			else
				printf("# disagree goal %u run %u\n", k, run);
		}
		search_destroy(s);
	}
	printf("# oracle, goals sharing trials: %u of %u goal results agree (%u trials)\n", agreed, sets, trials);
	assert_int_equal(agreed, sets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oracle_agrees),
		cmocka_unit_test(test_oracle_goals_share),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
