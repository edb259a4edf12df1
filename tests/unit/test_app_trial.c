/* A trial run's policy: the trial id of each repeat, the loss and the
 * median over the repeats, the headline, the plan's length, and a stop
 * before the first repeat. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "app/trialrun.h"
#include "core/timeconst.h"

static void test_next_id(void **state)
{
	(void)state;
	assert_int_equal(app_trial_next_id(1), 2);
	assert_int_equal(app_trial_next_id(0x7ffe), 0x7fff);
	/* past the 15 bits: round to 1, never 0 */
	assert_int_equal(app_trial_next_id(0x7fff), 1);
	assert_int_equal(app_trial_next_id(0xffff), 1);
}

static void test_loss_pct(void **state)
{
	struct trial_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_true(app_trial_loss_pct(&r) == 0);
	r.ndirs = 2;
	r.dir[0].tx = 1000, r.dir[0].rx = 900;
	r.dir[1].tx = 1000, r.dir[1].rx = 1000;
	assert_float_equal(app_trial_loss_pct(&r), 5.0, 1e-9);
	/* duplicates never make a negative loss */
	r.dir[0].rx = 1200;
	assert_true(app_trial_loss_pct(&r) == 0);
}

static void test_median_repeat(void **state)
{
	const double fwd[] = { 100, 300, 200, 200 };

	(void)state;
	assert_int_equal(app_trial_median_repeat(fwd, 4, 200), 2);
	assert_int_equal(app_trial_median_repeat(fwd, 1, 200), 0);
	assert_int_equal(app_trial_median_repeat(fwd, 0, 0), 0);
	assert_int_equal(app_trial_median_repeat(fwd, 2, 290), 1);
}

static void test_summarize(void **state)
{
	struct app_trial_run run = { .repeat = 3 };
	struct app_trial_summary s;
	char buf[160];

	(void)state;
	run.done = 1;
	run.fwd[0] = 9900;
	run.loss_sum = 1;
	app_trial_summarize(&run, 10000, &s, buf, sizeof(buf));
	assert_string_equal(buf, "rx 9.9k f/s of 10k offered, loss 1.000%");
	assert_float_equal(s.median, 9900, 1e-9);
	assert_float_equal(s.loss_mean, 1, 1e-9);

	run.done = 3;
	run.fwd[1] = 9000, run.fwd[2] = 9950;
	run.loss_sum = 3;
	run.tester_limited = true;
	app_trial_summarize(&run, 10000, &s, buf, sizeof(buf));
	assert_string_equal(buf, "rx 9.9k f/s of 10k offered (median of 3, 9k..9.95k), loss 1.000% (mean), "
			    "tester-limited");
	assert_float_equal(s.lo, 9000, 1e-9);
	assert_float_equal(s.hi, 9950, 1e-9);
	assert_int_equal(s.median_repeat, 0);
	/* the repeats' own order is kept: the median's sort is a copy */
	assert_float_equal(run.fwd[1], 9000, 1e-9);
}

static void test_planned(void **state)
{
	struct trial_cfg cfg;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.duration_ns = 10 * NSEC_PER_SEC;
	cfg.learn_wait_ns = NSEC_PER_SEC;
	cfg.drain_ns = 2 * NSEC_PER_SEC;
	assert_float_equal(app_trial_planned_s(&cfg, 1), 13, 1e-9);
	assert_float_equal(app_trial_planned_s(&cfg, 3), 39, 1e-9);
	assert_true(app_trial_planned_s(&cfg, 3) >= APP_TRIAL_PLAN_SHOWN_S);
}

static int hook_calls;

static int hook(void *ctx, unsigned int i, const char *warn)
{
	(void)ctx, (void)i, (void)warn;
	hook_calls++;
	return 0;
}

/* A stop before the first repeat: nothing runs, the run is interrupted. */
static void test_stopped_first(void **state)
{
	static struct trialopt to;
	struct storeopt so;
	struct trial_result res[2];
	struct cpucost_result cr[2];
	volatile sig_atomic_t stop = 1;
	struct app_trial_run run = { .repeat = 2, .stop = &stop, .after_each = hook, .res = res, .cr = cr };

	(void)state;
	memset(&so, 0, sizeof(so));
	to.cfg.trial_id = 7;
	assert_int_equal(app_trial_repeats(&to, &so, &run), 0);
	assert_true(run.interrupted);
	assert_int_equal(run.done, 0);
	assert_int_equal(run.fail, APP_TRIAL_FAIL_NONE);
	assert_int_equal(hook_calls, 0);
	assert_int_equal(to.cfg.trial_id, 7);
	assert_null(to.cfg.cost);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_id),
		cmocka_unit_test(test_loss_pct),
		cmocka_unit_test(test_median_repeat),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_planned),
		cmocka_unit_test(test_stopped_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
