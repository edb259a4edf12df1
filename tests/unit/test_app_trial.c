/* A trial run's policy: the trial id of each repeat, the loss and the
 * median over the repeats, the headline, the plan's length, the run's
 * stored status, a stop before the first repeat, and the traffic
 * options' rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "app/trial_check.h"
#include "app/trial_run.h"
#include "core/ns.h"

static void test_next_id(void **state)
{
	(void)state;
	assert_int_equal(app_trial_run_next_id(1), 2);
	assert_int_equal(app_trial_run_next_id(0x7ffe), 0x7fff);
	/* past the 15 bits: round to 1, never 0 */
	assert_int_equal(app_trial_run_next_id(0x7fff), 1);
	assert_int_equal(app_trial_run_next_id(0xffff), 1);
}

static void test_loss_pct(void **state)
{
	struct trial_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_true(app_trial_run_loss_pct(&r) == 0);
	r.ndirs = 2;
	r.dir[0].tx = 1000, r.dir[0].rx = 900;
	r.dir[1].tx = 1000, r.dir[1].rx = 1000;
	assert_float_equal(app_trial_run_loss_pct(&r), 5.0, 1e-9);
	/* duplicates never make a negative loss */
	r.dir[0].rx = 1200;
	assert_true(app_trial_run_loss_pct(&r) == 0);
}

static void test_median_repeat(void **state)
{
	const double fwd[] = { 100, 300, 200, 200 };

	(void)state;
	assert_int_equal(app_trial_run_median_repeat(fwd, 4, 200), 2);
	assert_int_equal(app_trial_run_median_repeat(fwd, 1, 200), 0);
	assert_int_equal(app_trial_run_median_repeat(fwd, 0, 0), 0);
	assert_int_equal(app_trial_run_median_repeat(fwd, 2, 290), 1);
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
	app_trial_run_summarize(&run, 10000, &s, buf, sizeof(buf));
	assert_string_equal(buf, "rx 9.9k f/s of 10k offered, loss 1.000%");
	assert_float_equal(s.median, 9900, 1e-9);
	assert_float_equal(s.loss_mean, 1, 1e-9);

	run.done = 3;
	run.fwd[1] = 9000, run.fwd[2] = 9950;
	run.loss_sum = 3;
	run.tester_limited = true;
	app_trial_run_summarize(&run, 10000, &s, buf, sizeof(buf));
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
	assert_float_equal(app_trial_run_planned_s(&cfg, 1), 13, 1e-9);
	assert_float_equal(app_trial_run_planned_s(&cfg, 3), 39, 1e-9);
	assert_true(app_trial_run_planned_s(&cfg, 3) >= APP_TRIAL_PLAN_SHOWN_S);
}

/* The word the run's row ends with: a stop first, then any failure or no
 * repeat done. */
static void test_status(void **state)
{
	struct app_trial_run run = { .repeat = 2 };

	(void)state;
	assert_string_equal(app_trial_run_status(&run), "failed");
	run.done = 2;
	assert_string_equal(app_trial_run_status(&run), "complete");
	run.fail = APP_TRIAL_FAIL_HOOK;
	assert_string_equal(app_trial_run_status(&run), "failed");
	run.interrupted = true;
	assert_string_equal(app_trial_run_status(&run), "interrupted");
	run.fail = APP_TRIAL_FAIL_NONE;
	run.done = 0;
	assert_string_equal(app_trial_run_status(&run), "interrupted");
}

static int hook_calls;

static void hook_quiet(void *ctx)
{
	(void)ctx;
	hook_calls++;
}

static int hook_repeat(void *ctx, const struct app_trial_run *run, unsigned int i)
{
	(void)ctx, (void)run, (void)i;
	hook_calls++;
	return 0;
}

static const struct app_trial_hooks hooks = { .quiet = hook_quiet, .repeat = hook_repeat };

/* A stop before the first repeat: nothing runs, the run is interrupted. */
static void test_stopped_first(void **state)
{
	static struct app_trial_job j;
	struct trial_result res[2];
	struct cpucost_result cr[2];
	volatile sig_atomic_t stop = 1;

	(void)state;
	j.h = &hooks;
	j.run = (struct app_trial_run){ .repeat = 2, .stop = &stop, .res = res, .cr = cr };
	j.to.plan.cfg.trial_id = 7;
	assert_int_equal(app_trial_run_repeats(&j), 0);
	assert_true(j.run.interrupted);
	assert_int_equal(j.run.done, 0);
	assert_int_equal(j.run.fail, APP_TRIAL_FAIL_NONE);
	assert_int_equal(hook_calls, 0);
	assert_int_equal(j.to.plan.cfg.trial_id, 7);
	assert_null(j.to.plan.cfg.cost);
}

/* o with the options set by fill, checked: its error, or "" when it
 * passes. The calibrations are looked for in a directory that exists. */
static const char *checked(struct trial_setup *o, const char *default_rate)
{
	static char err[512];

	err[0] = 0;
	snprintf(o->req.calib_path, sizeof(o->req.calib_path), "/tmp/wr-test-calibration");
	if (app_trial_check(o, default_rate, err, sizeof(err)))
		assert_true(err[0] != 0);
	else
		assert_string_equal(err, "");
	return err;
}

/* The traffic options' rules: which go together, the port pairs and the
 * lists that go with them, and what follows when they pass. */
static void test_check(void **state)
{
	struct trial_setup o;

	(void)state;
	/* nothing but a rate: the lab, the benchmarking addresses, a trial id */
	app_trial_check_defaults(&o);
	assert_string_equal(checked(&o, "1kpps"), "");
	assert_true(o.plan.lab);
	/* the default rate is the plan's; the request stays as given */
	assert_int_equal(o.plan.rate.kind, RATE_PPS);
	assert_true(o.plan.rate.value == 1000);
	assert_false(o.req.rate_set);
	assert_int_equal(o.plan.nports, 1);
	assert_int_not_equal(o.plan.cfg.trial_id, 0);
	assert_true(o.plan.cfg.trial_id < 0x8000);
	assert_int_equal(o.plan.cfg.learn_frames, 1);
	app_trial_check_defaults(&o);
	assert_string_equal(checked(&o, NULL), "--rate is required (e.g. --rate 100kpps)");
	/* options that go together, and those that do not */
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a";
	assert_string_equal(checked(&o, NULL), "give both --tx and --rx, or neither for the lab");
	app_trial_check_defaults(&o);
	o.req.rate_set = o.req.size_set = o.req.imix_set = true;
	assert_string_equal(checked(&o, NULL), "--size and --imix: one frame size or a mix, not both");
	app_trial_check_defaults(&o);
	o.req.rate_set = o.req.src_set = true;
	assert_string_equal(checked(&o, NULL),
			    "--src-ip applies to --tx/--rx ports only (the lab's addresses and MACs are fixed)");
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.dut_t = (struct dut_target){ .given = true, .kind = DUT_LOCAL };
	assert_string_equal(checked(&o, NULL), "--dut local: give the tester's ports cabled to it with --tx and --rx");
	/* IPv6 without addresses: the benchmarking range's, and the smallest
	 * frame that holds the tag */
	app_trial_check_defaults(&o);
	o.req.rate_set = o.req.ipv6 = true;
	assert_string_equal(checked(&o, NULL), "");
	assert_int_equal(o.plan.src_ip[0], 0x20);
	assert_int_equal(o.plan.src_ip[3], 0x02);
	assert_int_equal(o.plan.cfg.sizes[0], FRAME_MIN_TAGGED_V6);
}

static void test_check_ports(void **state)
{
	struct trial_setup o;

	(void)state;
	/* two pairs: each its own ports, one address for all */
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a,b";
	o.req.rx_if = "c,d";
	assert_string_equal(checked(&o, NULL), "");
	assert_false(o.plan.lab);
	assert_int_equal(o.plan.nports, 2);
	assert_string_equal(o.plan.port[1].tx_if, "b");
	assert_string_equal(o.plan.port[1].rx_if, "d");
	assert_string_equal(o.plan.tx_if, "a");
	assert_memory_equal(o.plan.port[1].dst_ip, o.plan.dst_ip, 16);
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a,b";
	o.req.rx_if = "c";
	assert_string_equal(checked(&o, NULL), "--tx names 2 ports and --rx 1: give one --rx port for each --tx port");
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a,,b";
	o.req.rx_if = "c";
	assert_string_equal(checked(&o, NULL), "--tx 'a,,b': an empty item in the list");
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a,b";
	o.req.rx_if = "c,d";
	o.req.dst_mac_set = true;
	o.req.ndst_mac = 1;
	assert_string_equal(checked(&o, NULL), "--dst-mac gives 1 MAC for 2 port pairs: give one for each (each DUT "
			    "port has its own)");
	/* an address outside the benchmarking ranges is refused */
	app_trial_check_defaults(&o);
	o.req.rate_set = o.req.dst_set = true;
	o.req.tx_if = "a";
	o.req.rx_if = "b";
	memcpy(o.req.dst_ip, (uint8_t[]){ 192, 0, 2, 1 }, 4);
	assert_non_null(strstr(checked(&o, NULL), "--dst-ip 192.0.2.1"));
	o.req.allow_any = true;
	assert_string_equal(checked(&o, NULL), "");
	/* a next hop needs the tester's own address on its subnet */
	app_trial_check_defaults(&o);
	o.req.rate_set = true;
	o.req.tx_if = "a";
	o.req.rx_if = "b";
	o.req.nh[0] = (struct trial_nexthop){ .set = true, .ip = { 198, 18, 0, 2 } };
	assert_non_null(strstr(checked(&o, NULL), "--next-hop needs --src-ip"));
	o.req.src_set = true;
	assert_string_equal(checked(&o, NULL), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_id),
		cmocka_unit_test(test_loss_pct),
		cmocka_unit_test(test_median_repeat),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_planned),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_stopped_first),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_check_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
