/* The matrix: axes into configurations, their order and labels, and the
 * checks of its options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/matrix_plan.h"
#include "app/matrix_run.h"

static char err[512];

/* The values of an axis, as the CLI gives them: one by one. */
static void add(struct app_matrix *m, const char *name, const char *list)
{
	static char keep[64][64];
	static int n;
	char v[256], *save = NULL;
	int k = app_matrix_plan_axis(m, name);

	assert_true(k >= 0);
	snprintf(v, sizeof(v), "%s", list);
	for (char *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *s = keep[n++ % 64];

		snprintf(s, 64, "%s", tok);
		assert_int_equal(app_matrix_plan_add(m, k, s, err, sizeof(err)), 0);
	}
}

static void expansion_order(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "placement", "bound,split,free");
	add(&m, "rules", "0,1000");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 6);
	/* the first axis varies fastest */
	assert_string_equal(app_matrix_plan_value(&m, 0, 0), "bound");
	assert_string_equal(app_matrix_plan_value(&m, 1, 0), "split");
	assert_string_equal(app_matrix_plan_value(&m, 2, 0), "free");
	assert_string_equal(app_matrix_plan_value(&m, 3, 0), "bound");
	assert_string_equal(app_matrix_plan_value(&m, 0, 1), "0");
	assert_string_equal(app_matrix_plan_value(&m, 2, 1), "0");
	assert_string_equal(app_matrix_plan_value(&m, 3, 1), "1000");
	assert_null(app_matrix_plan_value(&m, 0, 2));
}

static void labels(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "placement", "bound,free");
	add(&m, "rules", "0,100");
	add(&m, "mtu", "1500");	/* one value: not in the label */
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "bound,rules=0");
	assert_string_equal(m.labels[1], "free,rules=0");
	assert_string_equal(m.labels[3], "free,rules=100");
	assert_int_equal(app_matrix_plan_labels(&m, "6.1", err, sizeof(err)), 0);
	assert_string_equal(m.labels[2], "6.1 bound,rules=100");

	/* one configuration: the label, or "matrix" */
	app_matrix_plan_init(&m);
	add(&m, "dut-cpus", "0-1");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 1);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "matrix");
	assert_int_equal(app_matrix_plan_labels(&m, "k", err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "k");

	/* the same value twice (an A/A check): told apart */
	app_matrix_plan_init(&m);
	add(&m, "rules", "0,0,10");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "rules=0");
	assert_string_equal(m.labels[1], "rules=0 (2)");
	assert_string_equal(m.labels[2], "rules=10");
}

static void dut_cpus_not_split(void **st)
{
	struct app_matrix m;

	char v01[] = "0,1", v1[] = "1";

	app_matrix_plan_init(&m);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "dut-cpus"), v01, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "dut-cpus"), v1, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 2);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "dut-cpus=0,1");
	assert_string_equal(m.labels[1], "dut-cpus=1");
}

static void bad_axes(void **st)
{
	struct app_matrix m;
	char v[] = "17";

	app_matrix_plan_init(&m);
	/* the axes by their names, not their options' */
	assert_int_equal(app_matrix_plan_axis(&m, "bogus"), -1);
	assert_int_equal(app_matrix_plan_axis(&m, "--rules"), -1);
	assert_int_equal(app_matrix_plan_axis(&m, "cmdline"), APP_MATRIX_NAXES - 1);
	/* no axis: the caller says which it has */
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), -ENOENT);
	/* too many values on one axis (the caller names it), too many
	 * configurations */
	add(&m, "rules", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
	assert_int_equal(app_matrix_plan_add(&m, 1, v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "at most 16 values");
	app_matrix_plan_init(&m);
	add(&m, "rules", "1,2,3,4,5,6,7,8,9");
	add(&m, "queues", "1,2,3,4,5,6,7,8");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "more than 64 configurations");
}

static void long_label_refused(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "shape", "100000000kpps,200000000kpps");
	add(&m, "rules", "1000000,2000000");
	add(&m, "mtu", "1500,9000");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(&m, "a-forty-character-label-for-this-matrix!", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the label of configuration 1 would be longer than 63 characters"));
}

/* What a configuration sets of the lab: its value, and "none" of the
 * kernel's command line as nothing (the lab's default). */
static void settings(void **st)
{
	struct app_matrix m;
	char a[] = "maxcpus=1", none[] = "none";
	int k;

	(void)st;
	app_matrix_plan_init(&m);
	add(&m, "rules", "0,10");
	add(&m, "queues", "2");
	k = app_matrix_plan_axis(&m, "cmdline");
	assert_int_equal(app_matrix_plan_add(&m, k, a, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_add(&m, k, none, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 4);
	assert_string_equal(app_matrix_plan_setting(&m, 1, app_matrix_plan_axis(&m, "rules")), "10");
	assert_string_equal(app_matrix_plan_setting(&m, 3, app_matrix_plan_axis(&m, "queues")), "2");
	assert_null(app_matrix_plan_setting(&m, 0, app_matrix_plan_axis(&m, "mtu")));
	assert_string_equal(app_matrix_plan_setting(&m, 1, k), "maxcpus=1");
	assert_null(app_matrix_plan_setting(&m, 2, k));
	/* the label still tells it apart */
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[2], "rules=0,cmdline=none");
	/* "none" is the command line's only */
	char n2[] = "none";

	app_matrix_plan_init(&m);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "dut-cpus"), n2, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_string_equal(app_matrix_plan_setting(&m, 0, 2), "none");
}

/* A DUT of its own: placement and rules only, which its test is asked to
 * apply; the lab's prefix not given to it. */
static void remote_dut(void **st)
{
	char *test[] = { "trial", "--rate", "1k" };
	const char *tags[] = { "x", "y" };
	struct app_matrix m;
	struct app_matrix_run r;
	struct app_child what;
	int k;

	(void)st;
	app_matrix_plan_init(&m);
	add(&m, "placement", "bound,free");
	add(&m, "rules", "0,10");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_remote(&m, &k), 0);
	assert_int_equal(app_matrix_plan_labels(&m, "L", err, sizeof(err)), 0);
	r = (struct app_matrix_run){ .m = &m, .prefix = "t-", .remote = true, .test = test, .ntest = 3, .tags = tags,
				     .ntags = 2, .db_path = "/d", .mtag = "matrix-1" };
	app_matrix_run_test(&r, 3, 2, &what);	/* the first axis varies fastest */
	assert_int_equal(what.cmd, APP_CHILD_TEST);
	assert_ptr_equal(what.words, test);
	assert_int_equal(what.nwords, 3);
	assert_null(what.prefix);
	assert_string_equal(what.label, "L free,rules=10");
	assert_int_equal(what.ntags, 3);
	assert_string_equal(what.tags[0], "matrix-1");
	assert_string_equal(what.tags[2], "y");
	assert_string_equal(what.db, "/d");
	assert_string_equal(what.placement, "free");
	assert_string_equal(what.rules, "10");
	assert_int_equal(what.repeat, 0);
	assert_int_equal(what.round, 2);
	/* the lab's: its prefix, no DUT settings */
	r.remote = false;
	app_matrix_run_test(&r, 0, 0, &what);
	assert_string_equal(what.prefix, "t-");
	assert_null(what.placement);
	assert_null(what.rules);
	/* another axis is the lab's */
	add(&m, "mtu", "1500");
	assert_int_equal(app_matrix_plan_check_remote(&m, &k), -EINVAL);
	assert_int_equal(k, app_matrix_plan_axis(&m, "mtu"));
}

/* The tests' order: rounds of every configuration, alternating (A B C,
 * C B A, ...) or shuffled from a seed (the same seed, the same order;
 * every round a permutation); one round or back to back: each once, then
 * the first again as the drift check; too many refused. */
static void schedule(void **st)
{
	struct app_matrix_step s[APP_MATRIX_RUNS_MAX], t[APP_MATRIX_RUNS_MAX];
	int n;

	(void)st;
	n = app_matrix_plan_schedule(3, 3, true, APP_MATRIX_ALTERNATE, 0, s, APP_MATRIX_RUNS_MAX, err, sizeof(err));
	assert_int_equal(n, 9);
	for (int k = 0; k < 9; k++) {
		assert_int_equal(s[k].round, k / 3 + 1);
		assert_int_equal(s[k].conf, (k / 3) % 2 ? 2 - k % 3 : k % 3);
		assert_false(s[k].drift_check);
	}
	n = app_matrix_plan_schedule(4, 5, true, APP_MATRIX_SHUFFLE, 99, s, APP_MATRIX_RUNS_MAX, err, sizeof(err));
	assert_int_equal(n, 20);
	assert_int_equal(app_matrix_plan_schedule(4, 5, true, APP_MATRIX_SHUFFLE, 99, t, APP_MATRIX_RUNS_MAX, err,
						  sizeof(err)), 20);
	assert_memory_equal(s, t, 20 * sizeof(*s));
	bool moved = false;

	for (int r = 0; r < 5; r++) {
		unsigned int seen = 0;

		for (int k = 0; k < 4; k++) {
			assert_int_equal(s[r * 4 + k].round, r + 1);
			seen |= 1u << s[r * 4 + k].conf;
			moved |= s[r * 4 + k].conf != k;
		}
		assert_int_equal(seen, 0xf);
	}
	assert_true(moved);
	/* one round, or back to back: the drift check last */
	for (int inter = 0; inter < 2; inter++) {
		n = app_matrix_plan_schedule(2, inter ? 1 : 4, inter, APP_MATRIX_ALTERNATE, 0, s, APP_MATRIX_RUNS_MAX,
					     err, sizeof(err));
		assert_int_equal(n, 3);
		assert_int_equal(s[0].conf, 0);
		assert_int_equal(s[1].conf, 1);
		assert_int_equal(s[2].conf, 0);
		assert_int_equal(s[2].round, 2);
		assert_true(s[2].drift_check);
	}
	/* one configuration: nothing to drift against */
	assert_int_equal(app_matrix_plan_schedule(1, 1, true, APP_MATRIX_ALTERNATE, 0, s, 8, err, sizeof(err)), 1);
	assert_int_equal(app_matrix_plan_schedule(64, 5, true, APP_MATRIX_ALTERNATE, 0, s, APP_MATRIX_RUNS_MAX, err,
						  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "64 configurations x 5 rounds"));
}

static void own_options(void **st)
{
	const char *tags[] = { "ok", "" };

	assert_int_equal(app_matrix_plan_check_own("k", tags, 1, NULL, NULL, "5", err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_own("", NULL, 0, NULL, NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "1 to 40 characters"));
	assert_int_equal(app_matrix_plan_check_own("a\tb", NULL, 0, NULL, NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--label: no control characters");
	assert_int_equal(app_matrix_plan_check_own(NULL, tags, 2, NULL, NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(app_matrix_plan_check_own(NULL, NULL, 0, "", NULL, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--db: give a file name");
	assert_int_equal(app_matrix_plan_check_own(NULL, NULL, 0, NULL, "/nonexistent-dir/r.html", NULL, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(app_matrix_plan_check_own(NULL, NULL, 0, NULL, NULL, "-1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--fail-on-regression '-1': give a percentage, 0 or more");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expansion_order), cmocka_unit_test(labels),
		cmocka_unit_test(dut_cpus_not_split), cmocka_unit_test(bad_axes),
		cmocka_unit_test(long_label_refused), cmocka_unit_test(settings),
		cmocka_unit_test(remote_dut),	   cmocka_unit_test(own_options), cmocka_unit_test(schedule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
