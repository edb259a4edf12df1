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

static char err[512];

static void add(struct app_matrix *m, const char *opt, const char *v)
{
	static char keep[32][64];
	static int n;
	char *s = keep[n++ % 32];

	snprintf(s, 64, "%s", v);
	assert_int_equal(app_matrix_plan_add(m, app_matrix_plan_axis(m, opt), s, err, sizeof(err)), 0);
}

static void expansion_order(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "--placement", "bound,split,free");
	add(&m, "--rules", "0,1000");
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
	add(&m, "--placement", "bound,free");
	add(&m, "--rules", "0,100");
	add(&m, "--mtu", "1500");	/* one value: not in the label */
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "bound,rules=0");
	assert_string_equal(m.labels[1], "free,rules=0");
	assert_string_equal(m.labels[3], "free,rules=100");
	assert_int_equal(app_matrix_plan_labels(&m, "6.1", err, sizeof(err)), 0);
	assert_string_equal(m.labels[2], "6.1 bound,rules=100");

	/* one configuration: the label, or "matrix" */
	app_matrix_plan_init(&m);
	add(&m, "--dut-cpus", "0-1");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 1);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "matrix");
	assert_int_equal(app_matrix_plan_labels(&m, "k", err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "k");
}

static void dut_cpus_not_split(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "--dut-cpus", "0,1");
	add(&m, "--dut-cpus", "1");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(m.nconf, 2);
	assert_int_equal(app_matrix_plan_labels(&m, NULL, err, sizeof(err)), 0);
	assert_string_equal(m.labels[0], "dut-cpus=0,1");
	assert_string_equal(m.labels[1], "dut-cpus=1");
}

static void lab_argv(void **st)
{
	struct app_matrix m;
	char *argv[2 * APP_MATRIX_NAXES + 6];

	app_matrix_plan_init(&m);
	add(&m, "--rules", "0,10");
	add(&m, "--queues", "2");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_lab_argv(&m, 1, "t-", true, argv), 9);
	const char *want[] = { "lab", "--prefix", "t-", "--rules", "10", "--queues", "2", "--no-xdp", "up" };

	for (int i = 0; i < 9; i++)
		assert_string_equal(argv[i], want[i]);
	assert_null(argv[9]);
}

static void bad_axes(void **st)
{
	struct app_matrix m;
	char v[64];

	app_matrix_plan_init(&m);
	assert_int_equal(app_matrix_plan_axis(&m, "--bogus"), -1);
	snprintf(v, sizeof(v), "bound,,free");
	assert_int_equal(app_matrix_plan_add(&m, 0, v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--placement 'bound,,free': give values separated by single commas");
	snprintf(v, sizeof(v), "0,");
	assert_int_equal(app_matrix_plan_add(&m, 1, v, err, sizeof(err)), -EINVAL);
	assert_null(strchr(err, '\n'));
	/* no axis */
	app_matrix_plan_init(&m);
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give at least one axis"));
	/* too many values on one axis, too many configurations */
	snprintf(v, sizeof(v), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
	assert_int_equal(app_matrix_plan_add(&m, 1, v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--rules: at most 16 values");
	app_matrix_plan_init(&m);
	add(&m, "--rules", "1,2,3,4,5,6,7,8,9");
	add(&m, "--queues", "1,2,3,4,5,6,7,8");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "more than 64 configurations");
}

static void long_label_refused(void **st)
{
	struct app_matrix m;

	app_matrix_plan_init(&m);
	add(&m, "--shape", "100000000kpps,200000000kpps");
	add(&m, "--rules", "1000000,2000000");
	add(&m, "--mtu", "1500,9000");
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(&m, "a-forty-character-label-for-this-matrix!", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the label of configuration 1 would be longer than 63 characters"));
}

static void reserved(void **st)
{
	assert_true(app_matrix_plan_reserved("--prefix", false));
	assert_true(app_matrix_plan_reserved("--db=x", false));
	assert_false(app_matrix_plan_reserved("--js", false));	/* names are exact: the test refuses it */
	assert_true(app_matrix_plan_reserved("-j", false));
	assert_false(app_matrix_plan_reserved("--rate", false));
	assert_false(app_matrix_plan_reserved("--dbx", false));
	assert_false(app_matrix_plan_reserved("--d", false));
	assert_false(app_matrix_plan_reserved("--dut", true));	/* not --dut-placement */
	assert_false(app_matrix_plan_reserved("--ra", false));
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

static void test_argv(void **st)
{
	char *test[] = { "trial", "--rate", "1kpps" };
	const char *tags[] = { "x" };
	char *argv[APP_MATRIX_ARGV_MAX];
	const char *want[] = { "wirerate", "trial", "--rate", "1kpps", "--prefix", "t-", "--label", "L", "--tag",
			       "matrix-1", "--tag", "x", "--db", "/d", NULL };

	app_matrix_plan_test_argv(argv, test, 3, "t-", "L", "matrix-1", tags, 1, "/d");
	for (int i = 0; want[i]; i++)
		assert_string_equal(argv[i], want[i]);
	assert_null(argv[14]);
}

/* A DUT of its own: its test names the DUT and ports; the matrix sets
 * what the agent applies, and only the axes a real box has. */
static void remote_dut(void **st)
{
	char *lab[] = { "trial", "--rate", "1k", "--dut", "lab:t-" };
	char *ssh[] = { "trial", "--tx", "a", "--dut", "ssh:r1" };
	char *local[] = { "trial", "--dut=local" };
	char *test[] = { "trial", "--rate", "1k" };
	char pl[] = "bound,free", ru[] = "0,10", mtu[] = "1500";
	struct app_matrix m;
	char *argv[APP_MATRIX_ARGV_MAX];
	const char *want[] = { "wirerate", "trial", "--rate", "1k", "--label", "L", "--tag", "t", "--db", "/d",
			       "--dut-placement", "free", "--dut-rules", "10", NULL };

	assert_false(app_matrix_plan_remote_dut(lab, 5));
	assert_true(app_matrix_plan_remote_dut(ssh, 5));
	assert_true(app_matrix_plan_remote_dut(local, 2));
	assert_false(app_matrix_plan_remote_dut(ssh, 4));	/* --dut without its value */
	assert_false(app_matrix_plan_reserved("--tx", true));
	assert_false(app_matrix_plan_reserved("--dst-mac", true));
	assert_true(app_matrix_plan_reserved("--dut-placement", true));
	assert_true(app_matrix_plan_reserved("--dut-rules=4", true));
	assert_true(app_matrix_plan_reserved("--prefix", true));
	app_matrix_plan_init(&m);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "--placement"), pl, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "--rules"), ru, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_count(&m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_remote(&m, err, sizeof(err)), 0);
	app_matrix_plan_test_argv(argv, test, 3, NULL, "L", "t", NULL, 0, "/d");
	app_matrix_plan_dut_argv(&m, 3, argv);	/* the first axis varies fastest */
	for (int i = 0; want[i]; i++)
		assert_string_equal(argv[i], want[i]);
	assert_null(argv[14]);
	assert_int_equal(app_matrix_plan_add(&m, app_matrix_plan_axis(&m, "--mtu"), mtu, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_remote(&m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--mtu"));
}

/* The report over the configurations' runs: their ids in order, the
 * store, and --html and --fail-on-regression passed on when given. */
static void report_argv(void **st)
{
	char *argv[APP_MATRIX_REPORT_ARGV], ids[APP_MATRIX_MAX][24];
	const int64_t runs[] = { 7, 12, 30 };
	const char *want[] = { "wirerate", "--json", "report", "7", "12", "30", "--db", "/s.db", "--html", "r.html",
			       "--fail-on-regression", "5", NULL };

	(void)st;
	app_matrix_plan_report_argv(argv, ids, runs, 3, true, "/s.db", "r.html", "5");
	for (int k = 0; want[k]; k++)
		assert_string_equal(argv[k], want[k]);
	assert_null(argv[12]);
	app_matrix_plan_report_argv(argv, ids, runs, 1, false, "/s.db", NULL, NULL);
	assert_string_equal(argv[1], "report");
	assert_string_equal(argv[2], "7");
	assert_string_equal(argv[4], "/s.db");
	assert_null(argv[5]);
}

/* The test's --help (or -h) is refused: the test would print its help
 * and exit 0, and the matrix would go on to build its labs. */
static void check_test_help(void **st)
{
	char *help[] = { "trial", "--rate", "1k", "--help" };
	char *h[] = { "rfc2544", "-h" };
	bool remote;

	(void)st;
	assert_int_equal(app_matrix_plan_check_test(help, 4, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--help among the test's options: for them, see 'wirerate trial --help'");
	assert_int_equal(app_matrix_plan_check_test(h, 2, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-h among the test's options: for them, see 'wirerate rfc2544 --help'");
}

/* The test's words before anything is built: the options the lab's
 * matrix sets refused (the test's name itself not looked at), and the
 * ones it leaves to the test passed. */
static void check_test_reserved(void **st)
{
	char *ok[] = { "trial", "--rate", "1k", "--dur", "5" };
	char *prefix[] = { "trial", "--rate", "1k", "--prefix", "x-" };
	char *db[] = { "trial", "--db=/s.db" };
	char *label[] = { "trial", "--label", "L" };
	char *json[] = { "trial", "--json" };
	char *tx[] = { "trial", "--tx", "a" };
	char *name[] = { "--prefix", "--rate", "1k" };
	char *lab[] = { "trial", "--dut", "lab:t-", "--dut-placement", "bound" };
	bool remote = true;

	(void)st;
	assert_int_equal(app_matrix_plan_check_test(ok, 5, 0, &remote, err, sizeof(err)), 0);
	assert_false(remote);
	assert_int_equal(app_matrix_plan_check_test(prefix, 5, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--prefix is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(app_matrix_plan_check_test(db, 2, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--db=/s.db is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(app_matrix_plan_check_test(label, 3, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--label is the matrix's to set"));
	assert_int_equal(app_matrix_plan_check_test(json, 2, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--json is the matrix's to set"));
	/* the lab's matrix sets the ports */
	assert_int_equal(app_matrix_plan_check_test(tx, 3, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--tx is the matrix's to set"));
	/* words 1 on are options; word 0 is the test's name */
	assert_int_equal(app_matrix_plan_check_test(name, 3, 0, &remote, err, sizeof(err)), 0);
	/* --dut lab:...: the lab's matrix, where the DUT's options are the test's */
	assert_int_equal(app_matrix_plan_check_test(lab, 5, 0, &remote, err, sizeof(err)), 0);
	assert_false(remote);
}

/* A test that names a DUT of its own (--dut ssh:... or local): remote
 * set, the ports the test's, and --dut-placement, --dut-rules and the
 * store's options the matrix's. */
static void check_test_remote(void **st)
{
	char *ssh[] = { "trial", "--dut", "ssh:r1", "--tx", "a", "--rx", "b", "--dst-mac", "02:00:00:00:00:01" };
	char *local[] = { "trial", "--dut=local", "--tx", "a" };
	char *placement[] = { "trial", "--dut", "ssh:r1", "--dut-placement", "bound" };
	char *rules[] = { "trial", "--dut=local", "--dut-rules=10" };
	char *db[] = { "trial", "--dut=local", "--db", "/s.db" };
	char *label[] = { "trial", "--label=x", "--dut", "local" };
	bool remote = false;

	(void)st;
	assert_int_equal(app_matrix_plan_check_test(ssh, 9, 0, &remote, err, sizeof(err)), 0);
	assert_true(remote);
	remote = false;
	assert_int_equal(app_matrix_plan_check_test(local, 4, 0, &remote, err, sizeof(err)), 0);
	assert_true(remote);
	remote = false;
	assert_int_equal(app_matrix_plan_check_test(placement, 5, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_true(remote);
	assert_string_equal(err,
			    "--dut-placement is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(app_matrix_plan_check_test(rules, 3, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--dut-rules=10 is the matrix's to set"));
	assert_int_equal(app_matrix_plan_check_test(db, 4, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--db is the matrix's to set"));
	/* the DUT named after the reserved option: still remote, still refused */
	remote = false;
	assert_int_equal(app_matrix_plan_check_test(label, 4, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_true(remote);
	assert_non_null(strstr(err, "--label=x is the matrix's to set"));
}

/* Room for what the matrix adds: ntest + 2 * ntags + 12 words at most
 * APP_MATRIX_ARGV_MAX, one more refused. */
static void check_test_room(void **st)
{
	static char *test[APP_MATRIX_ARGV_MAX];
	int n = APP_MATRIX_ARGV_MAX - 12;
	bool remote;

	(void)st;
	test[0] = "trial";
	for (int i = 1; i < APP_MATRIX_ARGV_MAX; i++)
		test[i] = "--rate";
	assert_int_equal(app_matrix_plan_check_test(test, n, 0, &remote, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_test(test, n + 1, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "too many test options");
	/* each tag is two words: --tag and its value */
	assert_int_equal(app_matrix_plan_check_test(test, n - 4, 2, &remote, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_check_test(test, n - 3, 2, &remote, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "too many test options");
	assert_int_equal(app_matrix_plan_check_test(test, 1, (APP_MATRIX_ARGV_MAX - 13) / 2, &remote, err, sizeof(err)),
			 0);
	assert_int_equal(app_matrix_plan_check_test(test, 1, (APP_MATRIX_ARGV_MAX - 13) / 2 + 1, &remote, err,
					       sizeof(err)), -EINVAL);
	/* a reserved word is said first, before the room */
	test[5] = "--db";
	assert_int_equal(app_matrix_plan_check_test(test, n + 1, 0, &remote, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--db is the matrix's to set"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(expansion_order), cmocka_unit_test(labels),
		cmocka_unit_test(dut_cpus_not_split), cmocka_unit_test(lab_argv),
		cmocka_unit_test(bad_axes),	   cmocka_unit_test(long_label_refused),
		cmocka_unit_test(reserved),	   cmocka_unit_test(own_options),
		cmocka_unit_test(test_argv),	   cmocka_unit_test(remote_dut),
		cmocka_unit_test(report_argv),	   cmocka_unit_test(check_test_reserved),
		cmocka_unit_test(check_test_remote), cmocka_unit_test(check_test_room),
		cmocka_unit_test(check_test_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
