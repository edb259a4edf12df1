/* rfc2544's option rules: its defaults, the --sizes list, the test words,
 * and the options checked against each other and the traffic options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/rfc2544_check.h"
#include "app/trial_check.h"
#include "core/frame.h"

static char err[512];

/* The traffic options of a valid lab run (no root needed): the defaults,
 * the calibrations looked for in a directory that exists. */
static void lab_opts(struct trial_setup *to)
{
	app_trial_check_defaults(to);
	snprintf(to->req.calib_path, sizeof(to->req.calib_path), "/tmp/wr-test-calibration");
}

/* The three calls under test, err cleared first. */
static int check(struct app_rfc2544_opts *o, struct trial_setup *to, bool sizes_given)
{
	err[0] = 0;
	return app_rfc2544_check(o, to, sizes_given, err, sizeof(err));
}

static int sizes(struct app_rfc2544_opts *o, const char *s)
{
	err[0] = 0;
	return app_rfc2544_check_sizes_parse(o, s, err, sizeof(err));
}

static int words(struct app_rfc2544_opts *o, char *const *args, int nargs)
{
	err[0] = 0;
	return app_rfc2544_check_tests_parse(o, args, nargs, err, sizeof(err));
}

/* RFC 2544's goals and its seven frame sizes; no test named yet. */
static void test_defaults(void **state)
{
	static const unsigned int rfc[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	struct app_rfc2544_opts o;

	(void)state;
	memset(&o, 0xa5, sizeof(o));
	app_rfc2544_check_defaults(&o);
	assert_float_equal(o.pdr, 0.005, 1e-12);
	assert_float_equal(o.precision, 0.005, 1e-12);
	assert_int_equal(o.repeat, 1);
	assert_int_equal(o.tests, 0);
	assert_false(o.imix);
	assert_int_equal(o.nsizes, 7);
	for (unsigned int i = 0; i < 7; i++)
		assert_int_equal(o.sizes[i], rfc[i]);
}

/* A list of sizes replaces the defaults, and a later list the earlier. */
static void test_sizes_good(void **state)
{
	struct app_rfc2544_opts o;
	char list[RFC2544_MAX_SIZES * 8] = "";

	(void)state;
	app_rfc2544_check_defaults(&o);
	assert_int_equal(sizes(&o, "64,512,1518"), 0);
	assert_int_equal(o.nsizes, 3);
	assert_int_equal(o.sizes[0], 64);
	assert_int_equal(o.sizes[1], 512);
	assert_int_equal(o.sizes[2], 1518);
	assert_int_equal(sizes(&o, "128"), 0);
	assert_int_equal(o.nsizes, 1);
	assert_int_equal(o.sizes[0], 128);
	/* FRAME_MAX itself, and exactly RFC2544_MAX_SIZES entries, pass */
	snprintf(list, sizeof(list), "%d", FRAME_MAX);
	assert_int_equal(sizes(&o, list), 0);
	assert_int_equal(o.sizes[0], FRAME_MAX);
	list[0] = 0;
	for (int i = 0; i < RFC2544_MAX_SIZES; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", 64 + i);
	assert_int_equal(sizes(&o, list), 0);
	assert_int_equal(o.nsizes, RFC2544_MAX_SIZES);
	assert_int_equal(o.sizes[RFC2544_MAX_SIZES - 1], 64 + RFC2544_MAX_SIZES - 1);
}

/* Empty lists, bad items, sizes too large and too many are refused. */
static void test_sizes_bad(void **state)
{
	struct app_rfc2544_opts o;
	char list[(RFC2544_MAX_SIZES + 1) * 8] = "";

	(void)state;
	app_rfc2544_check_defaults(&o);
	assert_int_equal(sizes(&o, ""), -EINVAL);
	assert_non_null(strstr(err, "--sizes"));
	assert_int_equal(sizes(&o, ","), -EINVAL);
	assert_non_null(strstr(err, "--sizes"));
	assert_int_equal(sizes(&o, "64,x"), -EINVAL);
	assert_non_null(strstr(err, "'x'"));
	snprintf(list, sizeof(list), "64,%d", FRAME_MAX + 1);
	assert_int_equal(sizes(&o, list), -EINVAL);
	assert_true(err[0] != 0);
	list[0] = 0;
	for (int i = 0; i <= RFC2544_MAX_SIZES; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", 64 + i);
	assert_int_equal(sizes(&o, list), -EINVAL);
	assert_non_null(strstr(err, "--sizes"));
	assert_non_null(strstr(err, "at most"));
}

/* A good list does not make a later bad one pass. */
static void test_sizes_fail_after_good(void **state)
{
	struct app_rfc2544_opts o;

	(void)state;
	app_rfc2544_check_defaults(&o);
	assert_int_equal(sizes(&o, "64,512,1518"), 0);
	assert_int_equal(sizes(&o, "9999"), -EINVAL);
	assert_int_equal(sizes(&o, "64,512,1518"), 0);
	assert_int_equal(sizes(&o, ","), -EINVAL);
	assert_non_null(strstr(err, "--sizes"));
	assert_int_equal(sizes(&o, "64,512,1518"), 0);
	assert_int_equal(sizes(&o, "256,bad"), -EINVAL);
	assert_non_null(strstr(err, "'bad'"));
}

/* Each word sets its own test's bit, and the words add up. */
static void test_tests_words(void **state)
{
	struct app_rfc2544_opts o;
	char *tp[] = { "throughput" }, *lat[] = { "latency" }, *both[] = { "latency", "b2b" };

	(void)state;
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, tp, 1), 0);
	assert_int_equal(o.tests, RFC2544_THROUGHPUT);
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, lat, 1), 0);
	assert_int_equal(o.tests, RFC2544_LATENCY);
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, both, 2), 0);
	assert_int_equal(o.tests, RFC2544_LATENCY | RFC2544_B2B);
	/* every word of the table is its own bit */
	for (unsigned int k = 0; k < APP_RFC2544_NTESTS; k++) {
		char *one[] = { (char *)app_rfc2544_tests[k].arg };

		app_rfc2544_check_defaults(&o);
		assert_int_equal(words(&o, one, 1), 0);
		assert_int_equal(o.tests, app_rfc2544_tests[k].bit);
	}
	/* no words: nothing set here (check chooses throughput) */
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, NULL, 0), 0);
	assert_int_equal(o.tests, 0);
}

/* "all" sets every test of the table, and only those. */
static void test_tests_all(void **state)
{
	struct app_rfc2544_opts o;
	char *all[] = { "all" };
	unsigned int bits = 0;

	(void)state;
	for (unsigned int k = 0; k < APP_RFC2544_NTESTS; k++)
		bits |= app_rfc2544_tests[k].bit;
	assert_int_equal(bits, RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_LOSS | RFC2544_B2B);
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, all, 1), 0);
	assert_int_equal(o.tests, bits);
}

/* An unknown word is refused, named in the error. */
static void test_tests_unknown(void **state)
{
	struct app_rfc2544_opts o;
	char *bad[] = { "throughput", "jitter" };

	(void)state;
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, bad, 2), -EINVAL);
	assert_string_equal(err, "unexpected argument 'jitter'");
	app_rfc2544_check_defaults(&o);
	assert_int_equal(words(&o, &bad[1], 1), -EINVAL);
	assert_string_equal(err, "unexpected argument 'jitter'");
}

/* No test named: throughput; a test named is kept. */
static void test_check_tests(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_int_equal(o.tests, RFC2544_THROUGHPUT);
	app_rfc2544_check_defaults(&o);
	o.tests = RFC2544_LATENCY;
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_int_equal(o.tests, RFC2544_LATENCY);
}

/* --sizes and --imix do not go together. */
static void test_check_imix_sizes(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	to.req.imix_set = true;
	assert_int_equal(check(&o, &to, true), -EINVAL);
	assert_non_null(strstr(err, "--sizes and --imix"));
}

/* --ipv6: the first size becomes 84 unless sizes were given. */
static void test_check_ipv6(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	to.req.ipv6 = to.req.ipv6_flag = true;
	assert_int_equal(check(&o, &to, false), 0);
	assert_int_equal(o.sizes[0], FRAME_MIN_TAGGED_V6);
	assert_int_equal(o.sizes[0], 84);
	assert_int_equal(o.sizes[1], 128);
	assert_int_equal(o.nsizes, 7);
	/* sizes given: kept as given */
	app_rfc2544_check_defaults(&o);
	assert_int_equal(sizes(&o, "64,512"), 0);
	lab_opts(&to);
	to.req.ipv6 = to.req.ipv6_flag = true;
	assert_int_equal(check(&o, &to, true), 0);
	assert_int_equal(o.sizes[0], 64);
	assert_int_equal(o.sizes[1], 512);
	assert_int_equal(o.nsizes, 2);
	/* IPv4: the defaults kept */
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_int_equal(o.sizes[0], 64);
}

/* --duration is refused: the search chooses trial lengths. */
static void test_check_duration(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	to.req.duration_set = true;
	assert_int_equal(check(&o, &to, false), -EINVAL);
	assert_non_null(strstr(err, "--trial-time"));
}

/* The traffic options' own rules apply, with 1 kpps for the rate. */
static void test_check_traffic(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	to.req.tx_if = "a";
	assert_int_equal(check(&o, &to, false), -EINVAL);
	assert_string_equal(err, "give both --tx and --rx, or neither for the lab");
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_false(to.req.rate_set);	/* the default is the plan's */
	assert_int_equal(to.plan.rate.kind, RATE_PPS);
	assert_float_equal(to.plan.rate.value, 1000, 1e-9);
	assert_true(to.plan.lab);
}

/* A clean configuration passes, and o->imix mirrors --imix. */
static void test_check_clean(void **state)
{
	struct app_rfc2544_opts o;
	struct trial_setup to;

	(void)state;
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_string_equal(err, "");
	assert_false(o.imix);
	app_rfc2544_check_defaults(&o);
	lab_opts(&to);
	to.req.imix_set = true;
	assert_int_equal(check(&o, &to, false), 0);
	assert_string_equal(err, "");
	assert_true(o.imix);
	/* cleared when --imix is not given */
	o.imix = true;
	lab_opts(&to);
	assert_int_equal(check(&o, &to, false), 0);
	assert_false(o.imix);
	/* sizes given without --imix */
	app_rfc2544_check_defaults(&o);
	assert_int_equal(sizes(&o, "64,1518"), 0);
	lab_opts(&to);
	assert_int_equal(check(&o, &to, true), 0);
	assert_false(o.imix);
	assert_int_equal(o.nsizes, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sizes_good),
		cmocka_unit_test(test_sizes_bad),
		cmocka_unit_test(test_sizes_fail_after_good),
		cmocka_unit_test(test_tests_words),
		cmocka_unit_test(test_tests_all),
		cmocka_unit_test(test_tests_unknown),
		cmocka_unit_test(test_check_tests),
		cmocka_unit_test(test_check_imix_sizes),
		cmocka_unit_test(test_check_ipv6),
		cmocka_unit_test(test_check_duration),
		cmocka_unit_test(test_check_traffic),
		cmocka_unit_test(test_check_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
