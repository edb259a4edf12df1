/* The gate's points and verdict from a compared report model
 * (app/gate_run.c): regression, within noise, noise wider than the
 * threshold, a missing figure, a run alone. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "app/gate_run.h"
#include "store/report_db.h"

static struct report_model m;

/* A run of three trials at 100 kpps forwarding lo..hi (median med). */
static void trial_cell(struct rm_run *r, unsigned int size, double lo, double med, double hi)
{
	struct rm_cell *c = &r->cell[r->ncells++];

	memset(c, 0, sizeof(*c));
	c->size = size;
	c->have_trial = true;
	c->trials = 3;
	c->trial_offered_pps = 100000;
	c->trial_fwd_pps = med;
	c->trial_fwd_min = lo;
	c->trial_fwd_max = hi;
	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		c->round_v[k] = c->round_sd[k] = NAN;
}

static void runs(void)
{
	memset(&m, 0, sizeof(m));
	m.nruns = 2;
	m.run[0].id = 1;
	m.run[1].id = 2;
	snprintf(m.run[0].test, sizeof(m.run[0].test), "trial");
	snprintf(m.run[1].test, sizeof(m.run[1].test), "trial");
	snprintf(m.run[1].kernel, sizeof(m.run[1].kernel), "6.12.0");
	m.run[1].started = 1796686000;
}

static enum app_gate_verdict judge(double threshold, struct testpoint_set *s)
{
	enum app_gate_verdict v;

	report_db_compare(&m, threshold);
	memset(s, 0, sizeof(*s));
	assert_int_equal(app_gate_run_points(&m, threshold, s, &v), 0);
	return v;
}

static void regression(void **st)
{
	struct testpoint_set s;

	(void)st;
	runs();
	trial_cell(&m.run[0], 64, 99900, 100000, 100000);
	trial_cell(&m.run[1], 64, 24000, 25000, 26000);
	assert_int_equal(judge(5, &s), APP_GATE_REGRESSION);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.p[0].path, "wirerate.trial.forwarded.64");
	assert_int_equal(s.p[0].status, TESTPOINT_FAIL);
	assert_true(s.p[0].have_value && s.p[0].value == 25000);
	assert_string_equal(s.p[0].unit, "frames/s");
	assert_non_null(strstr(s.p[0].line, "a regression"));
	assert_string_equal(s.env.start_time, "2026-12-07T23:26:40+00:00");
	assert_string_equal(s.env.kernel, "6.12.0");
	testpoint_set_free(&s);
	/* the same change under a threshold wider than it: no regression */
	assert_int_equal(judge(90, &s), APP_GATE_OK);
	assert_int_equal(s.p[0].status, TESTPOINT_PASS);
	testpoint_set_free(&s);
}

static void same_and_too_noisy(void **st)
{
	struct testpoint_set s;

	(void)st;
	runs();
	trial_cell(&m.run[0], 64, 99900, 100000, 100000);
	trial_cell(&m.run[1], 64, 99800, 99950, 100000);
	assert_int_equal(judge(5, &s), APP_GATE_OK);
	assert_int_equal(s.p[0].status, TESTPOINT_PASS);
	testpoint_set_free(&s);
	/* the runs spread +-10%: a 5% regression could hide in them */
	runs();
	trial_cell(&m.run[0], 64, 80000, 90000, 100000);
	trial_cell(&m.run[1], 64, 80000, 88000, 100000);
	assert_int_equal(judge(5, &s), APP_GATE_UNSURE);
	assert_int_equal(s.p[0].status, TESTPOINT_UNSURE);
	assert_non_null(strstr(s.p[0].line, "wider than the threshold"));
	testpoint_set_free(&s);
}

static void missing_size_and_one_run(void **st)
{
	struct testpoint_set s;

	(void)st;
	runs();
	trial_cell(&m.run[0], 64, 99900, 100000, 100000);
	trial_cell(&m.run[0], 1518, 8000, 8100, 8126);
	trial_cell(&m.run[1], 64, 99900, 100000, 100000);
	assert_int_equal(judge(5, &s), APP_GATE_UNSURE);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.p[1].path, "wirerate.trial.forwarded.1518");
	assert_int_equal(s.p[1].status, TESTPOINT_UNSURE);
	assert_false(s.p[1].have_value);
	testpoint_set_free(&s);
	/* a run alone: measured, not judged */
	m.nruns = 1;
	memset(&s, 0, sizeof(s));
	assert_int_equal(app_gate_run_points(&m, -1, &s, NULL), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.p[0].status, TESTPOINT_DONE);
	assert_int_equal(s.p[1].status, TESTPOINT_DONE);
	testpoint_set_free(&s);
}

static void interrupted_is_no_verdict(void **st)
{
	struct testpoint_set s;

	(void)st;
	runs();
	trial_cell(&m.run[0], 64, 99900, 100000, 100000);
	trial_cell(&m.run[1], 64, 24000, 25000, 26000);
	m.run[1].interrupted = true;
	assert_int_equal(judge(5, &s), APP_GATE_UNSURE);
	assert_int_equal(s.p[0].status, TESTPOINT_ERROR);
	testpoint_set_free(&s);
}

/* An rfc2544 search's NDR: its repeats' spread and the search's width
 * are the noise. */
static void ndr_regression(void **st)
{
	struct testpoint_set s;
	struct rm_cell *c;

	(void)st;
	runs();
	snprintf(m.run[0].test, sizeof(m.run[0].test), "rfc2544 throughput");
	snprintf(m.run[1].test, sizeof(m.run[1].test), "rfc2544 throughput");
	for (unsigned int r = 0; r < 2; r++) {
		c = &m.run[r].cell[m.run[r].ncells++];
		memset(c, 0, sizeof(*c));
		c->size = 64;
		c->have_thr = true;
		c->repeats = 3;
		c->ndr_med = r ? 80000 : 100000;
		c->ndr_min = c->ndr_med - 1000;
		c->ndr_max = c->ndr_med + 1000;
		c->width_pps = 500;
		for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
			c->round_v[k] = c->round_sd[k] = NAN;
	}
	assert_int_equal(judge(5, &s), APP_GATE_REGRESSION);
	assert_string_equal(s.p[0].path, "wirerate.rfc2544.ndr.64");
	assert_int_equal(s.p[0].status, TESTPOINT_FAIL);
	testpoint_set_free(&s);
	/* 17% worse beyond the noise: under a 20% threshold it passes */
	assert_int_equal(judge(20, &s), APP_GATE_OK);
	testpoint_set_free(&s);
}

static void checks(void **st)
{
	struct app_gate_opts op = { .baseline = "a", .run = "b", .threshold_pct = 5 };
	char err[256];

	(void)st;
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), 0);
	op.kcidb.path = "/tmp/x.json";
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), -EINVAL);
	op.kcidb.origin = "ci";
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), 0);
	op.kcidb.build_id = "other:1";
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), -EINVAL);
	op.kcidb.build_id = "ci:";
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), -EINVAL);
	op.kcidb.build_id = "ci:1";
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), 0);
	op.run = NULL;
	assert_int_equal(app_gate_run_check(&op, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regression),
		cmocka_unit_test(same_and_too_noisy),
		cmocka_unit_test(missing_size_and_one_run),
		cmocka_unit_test(interrupted_is_no_verdict),
		cmocka_unit_test(ndr_regression),
		cmocka_unit_test(checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
