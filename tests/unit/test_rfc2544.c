/* The RFC 2544 procedures against a simulated DUT: a capacity C frames/s
 * and a buffer of B frames. A trial at rate R for time T sends R*T frames;
 * the DUT forwards C*T plus what its buffer absorbs. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "engine/rfc2544.h"

struct dut {
	double capacity;
	double buffer;
	unsigned int trials;
};

static int sim(void *ctx, const struct trial_cfg *t, struct trial_result *res,
	       const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct dut *d = ctx;
	double secs = t->duration_ns / 1e9;
	uint64_t tx = (uint64_t)(t->rate_pps * secs);
	double out = d->capacity * secs + d->buffer;

	memset(res, 0, sizeof(*res));
	res->ndirs = 1;
	res->dir[0].target_pps = t->rate_pps;
	res->dir[0].offered_pps = t->rate_pps;
	res->dir[0].tx = tx;
	res->dir[0].rx = out >= (double)tx ? tx : (uint64_t)out;
	res->dir[0].lost = tx - res->dir[0].rx;
	hist_reset(&res->dir[0].latency);
	hist_add_n(&res->dir[0].latency, 20000, res->dir[0].rx);
	hist_add(&res->dir[0].latency, 90000);
	d->trials++;
	(void)stop, (void)err, (void)errlen;
	return 0;
}

static void setup(struct r2544_cfg *c, struct dut *d, unsigned int tests)
{
	memset(c, 0, sizeof(*c));
	c->base.ndirs = 1;
	c->base.sizes[0] = 64;
	c->base.nsizes = 1;
	c->sizes[0] = 64;
	c->nsizes = 1;
	c->tests = tests;
	c->max_load[0] = 100000;
	c->min_load = 100;
	c->precision = 0.005;
	c->pdr_ratio = 0.005;
	c->final_ns = 2000000000ULL;
	c->initial_ns = 500000000ULL;
	c->latency_runs = 3;
	c->latency_ns = 1000000000ULL;
	c->b2b_runs = 2;
	c->b2b_max_ns = 2000000000ULL;
	c->runner = sim;
	c->runner_ctx = d;
}

static struct r2544_result res;

static void throughput(void **st)
{
	struct dut d = { .capacity = 40000, .buffer = 0 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_THROUGHPUT);
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	const struct search_bound *n = &res.row[0].thr.ndr, *p = &res.row[0].thr.pdr;

	assert_true(n->lower_valid && n->upper_valid);
	assert_true(n->lower <= 40000 && n->lower >= 40000 - 500);
	assert_true(n->upper >= 40000);
	/* PDR: loss <= 0.5% means R <= C / 0.995 */
	assert_true(p->lower >= n->lower);
	assert_true(p->lower <= 40000 / 0.995 + 1);
	assert_int_equal(res.trials_run, d.trials);
	assert_false(res.interrupted);
}

static void frame_loss_steps(void **st)
{
	struct dut d = { .capacity = 40000, .buffer = 0 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_LOSS);
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	const struct r2544_row *r = &res.row[0];

	/* 100, 90, ..., 40 (clean), 30 (clean): stop after two clean steps. */
	assert_int_equal(r->nloss, 8);
	for (unsigned int i = 0; i < r->nloss; i++)
		assert_true(fabs(r->loss[i].pct - (100.0 - 10.0 * i)) < 1e-9);
	/* (in - out) * 100 / in at 100%: 60% */
	assert_true(fabs(r->loss[0].loss_pct - 60.0) < 0.01);
	assert_true(r->loss[6].loss_pct == 0 && r->loss[7].loss_pct == 0);
	assert_true(r->loss[5].loss_pct > 0);
	assert_true(r->loss_done);
}

static void frame_loss_clean_at_once(void **st)
{
	struct dut d = { .capacity = 1e9, .buffer = 0 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_LOSS);
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	assert_int_equal(res.row[0].nloss, 2);	/* 100% and 90%, both clean */
}

static void back_to_back(void **st)
{
	/* At R = 100k with C = 40k, a burst of n frames keeps n * 0.6 in the
	 * buffer: the longest clean burst is B / 0.6. */
	struct dut d = { .capacity = 40000, .buffer = 600 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_B2B);
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	const struct r2544_row *r = &res.row[0];

	assert_int_equal(r->b2b_runs, 2);
	assert_true(r->b2b_avg <= 1000.5 && r->b2b_avg >= 1000 * 0.99);
	assert_true(fabs(r->b2b_implied_s - r->b2b_avg / 100000) < 1e-9);
	/* Corrected: the frames forwarded during the burst were never buffered:
	 * implied * (1 - T/R), with T the NDR found first (about C). */
	assert_true(r->thr.ndr.lower_valid);
	assert_true(fabs(r->b2b_corrected_s - r->b2b_implied_s * (1 - r->thr.ndr.lower / 100000)) < 1e-9);
	assert_true(r->b2b_corrected_s < r->b2b_implied_s);
	assert_true(fabs(r->b2b_corrected_s - 600.0 / 100000) < 0.0002);
}

static void latency_at_ndr(void **st)
{
	struct dut d = { .capacity = 40000, .buffer = 0 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_LATENCY);
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	const struct r2544_row *r = &res.row[0];

	assert_true(r->lat_done);
	assert_int_equal(r->lat_runs, 3);
	assert_true(r->lat_load == r->thr.ndr.lower);
	assert_true(r->lat_min >= 19800 && r->lat_min <= 20200);
	assert_true(r->lat_max >= 89000);
	assert_true(r->lat_median >= 19800 && r->lat_median <= 20200);
}

static volatile sig_atomic_t stop_now = 1;

static void stop_marks_incomplete(void **st)
{
	struct dut d = { .capacity = 40000, .buffer = 0 };
	struct r2544_cfg c;
	char err[256];

	setup(&c, &d, R2544_THROUGHPUT);
	c.settle_ns = 1;	/* the stop is seen before the second trial */
	assert_int_equal(r2544_run(&c, &res, &stop_now, NULL, NULL, err, sizeof(err)), 0);
	assert_true(res.interrupted);
	assert_true(res.trials_run <= 1);
}

/* A DUT whose capacity changes from one search to the next: a search
 * starts with a short trial at the max load, and that is when it moves. */
struct noisy {
	struct dut d;
	double caps[4];
	unsigned int trials_seen, rows_seen, searches;
	unsigned int last_repeat, started;
	bool fail_hook;
};

static int on_trial(void *ctx, const struct r2544_trial *t, char *err, size_t errlen)
{
	struct noisy *n = ctx;

	n->trials_seen++;
	assert_true(t->repeat >= n->last_repeat);	/* repeats come in order */
	if (t->repeat != n->last_repeat || n->trials_seen == 1)
		n->searches++;
	n->last_repeat = t->repeat;
	if (n->fail_hook) {
		snprintf(err, errlen, "disk full");
		return -ENOSPC;
	}
	return 0;
}

static int on_row(void *ctx, const struct r2544_row *row, char *err, size_t errlen)
{
	struct noisy *n = ctx;

	n->rows_seen++;
	(void)row, (void)err, (void)errlen;
	return 0;
}

static int sim_noisy(void *ctx, const struct trial_cfg *t, struct trial_result *out,
		     const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct noisy *n = ctx;

	if (t->rate_pps == 100000 && t->duration_ns == 500000000ULL)
		n->d.capacity = n->caps[n->started++ % 4];
	return sim(&n->d, t, out, stop, err, errlen);
}

static void repeat_median_spread(void **st)
{
	struct noisy n = { .caps = { 40000, 30000, 36000, 40000 } };
	struct r2544_cfg c;
	char err[256];

	n.d.capacity = n.caps[0];
	setup(&c, &n.d, R2544_THROUGHPUT);
	c.runner = sim_noisy;
	c.runner_ctx = &n;
	c.repeats = 3;
	c.on_trial = on_trial;
	c.on_row = on_row;
	c.hook_ctx = &n;
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), 0);
	const struct r2544_row *row = &res.row[0];

	assert_int_equal(row->nrep, 3);
	assert_int_equal(row->ndr_valid, 3);
	assert_int_equal(n.searches, 3);
	assert_int_equal(n.trials_seen, res.trials_run);	/* every trial, once */
	assert_int_equal(n.rows_seen, 1);
	assert_true(row->ndr_min <= row->ndr_med && row->ndr_med <= row->ndr_max);
	for (unsigned int i = 0; i < 3; i++) {
		assert_true(row->rep[i].ndr.lower_valid);
		assert_true(row->rep[i].ndr.lower >= row->ndr_min && row->rep[i].ndr.lower <= row->ndr_max);
	}
	/* The row's own outcome is the median search. */
	assert_true(row->thr.ndr.lower == row->ndr_med);
	/* 40000, 30000, 36000: each search finds its own capacity. */
	assert_int_equal(n.started, 3);
	assert_true(row->ndr_min >= 30000 - 500 && row->ndr_min <= 30000);
	assert_true(row->ndr_med >= 36000 - 500 && row->ndr_med <= 36000);
	assert_true(row->ndr_max >= 40000 - 500 && row->ndr_max <= 40000);
}

static void hook_error_stops(void **st)
{
	struct noisy n = { .caps = { 40000, 40000, 40000, 40000 }, .fail_hook = true };
	struct r2544_cfg c;
	char err[256] = "";

	n.d.capacity = 40000;
	setup(&c, &n.d, R2544_THROUGHPUT);
	c.runner = sim_noisy;
	c.runner_ctx = &n;
	c.on_trial = on_trial;
	c.hook_ctx = &n;
	assert_int_equal(r2544_run(&c, &res, NULL, NULL, NULL, err, sizeof(err)), -ENOSPC);
	assert_int_equal(n.trials_seen, 1);
	assert_string_equal(err, "disk full");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(throughput), cmocka_unit_test(frame_loss_steps),
		cmocka_unit_test(frame_loss_clean_at_once), cmocka_unit_test(back_to_back),
		cmocka_unit_test(latency_at_ndr), cmocka_unit_test(stop_marks_incomplete),
		cmocka_unit_test(repeat_median_spread), cmocka_unit_test(hook_error_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
