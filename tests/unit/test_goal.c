/* RFC 9971 search goals (goal.h): the compact notation, its bad inputs
 * (one line each), and the presets' attributes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <errno.h>
#include <string.h>

#include "core/goal.h"

#define SEC	1000000000ULL

static char err[256];

static void test_parse_rfc_forms(void **state)
{
	struct search_goal g;
	char buf[128];

	(void)state;
	assert_int_equal(goal_parse("60f60d0l0e", &g, err, sizeof(err)), 0);
	assert_string_equal(g.name, "");
	assert_true(g.final_ns == 60 * SEC && g.sum_ns == 60 * SEC);
	assert_true(g.loss_ratio == 0 && g.exceed_ratio == 0 && g.width == 0 && g.initial_ns == 0);

	assert_int_equal(goal_parse("pdr:1f120d0.5l50e", &g, err, sizeof(err)), 0);
	assert_string_equal(g.name, "pdr");
	assert_true(g.final_ns == SEC && g.sum_ns == 120 * SEC);
	assert_float_equal(g.loss_ratio, 0.005, 1e-12);
	assert_float_equal(g.exceed_ratio, 0.5, 1e-12);

	assert_int_equal(goal_parse("x_1-a:0.5f2.5d0.01l10e1w0.25i", &g, err, sizeof(err)), 0);
	assert_true(g.final_ns == SEC / 2 && g.sum_ns == 5 * SEC / 2 && g.initial_ns == SEC / 4);
	assert_float_equal(g.width, 0.01, 1e-12);
	assert_float_equal(g.loss_ratio, 0.0001, 1e-15);
	goal_format(&g, buf, sizeof(buf));
	assert_string_equal(buf, "x_1-a:0.5f2.5d0.01l10e1w0.25i");
}

static void test_parse_bad(void **state)
{
	static const char *bad[] = {
		"", "60f60d0l", "60f60d0e0l", "60f60d0l0e0e", "60d60f0l0e", "f60d0l0e",
		"60f30d0l0e", "0f0d0l0e", "60f60d100l0e", "60f60d0l100e", "-1f60d0l0e",
		"60f60d0l0e0w", "60f60d0l0e100w", "60f60d0l0e61i", "60f60d0l0e0i",
		"1e3f1e3d0l0e", "inff60d0l0e", "60f60d0l0ex", "60x60d0l0e", ":60f60d0l0e",
		"bad name:60f60d0l0e", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:60f60d0l0e",
		"1..5f60d0l0e", ".f60d0l0e", "60f60d0l0e ", "100000f100000d0l0e",
		"0.0001f1d0l0e", "60f60d0l0e1w1w",
	};
	struct search_goal g;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(goal_parse(bad[i], &g, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
		assert_null(strchr(err, '\n'));
	}
	assert_int_equal(goal_parse(NULL, &g, err, sizeof(err)), -EINVAL);
}

static void test_presets(void **state)
{
	struct search_goal g[GOAL_MAX];
	char buf[128];

	(void)state;
	assert_int_equal(goal_preset("rfc2544", g, GOAL_MAX, err, sizeof(err)), 1);
	assert_true(g[0].final_ns == 60 * SEC && g[0].sum_ns == 60 * SEC);
	assert_true(g[0].loss_ratio == 0 && g[0].exceed_ratio == 0);

	assert_int_equal(goal_preset("tst009", g, GOAL_MAX, err, sizeof(err)), 1);
	assert_true(g[0].final_ns == 60 * SEC && g[0].sum_ns == 120 * SEC);
	assert_true(g[0].loss_ratio == 0);
	assert_float_equal(g[0].exceed_ratio, 0.5, 1e-12);

	assert_int_equal(goal_preset("csit", g, GOAL_MAX, err, sizeof(err)), 2);
	assert_string_equal(g[0].name, "ndr");
	assert_string_equal(g[1].name, "pdr");
	assert_true(g[0].final_ns == SEC && g[0].sum_ns == 21 * SEC && g[0].loss_ratio == 0);
	assert_float_equal(g[1].loss_ratio, 0.005, 1e-12);
	assert_float_equal(g[0].exceed_ratio, 0.5, 1e-12);
	assert_float_equal(g[1].width, 0.005, 1e-12);

	assert_int_equal(goal_preset("quick", g, GOAL_MAX, err, sizeof(err)), 2);
	goal_format(&g[0], buf, sizeof(buf));
	assert_string_equal(buf, "ndr:2f2d0l0e0.5w0.5i");
	assert_int_equal(goal_preset("default", g, GOAL_MAX, err, sizeof(err)), 2);
	assert_true(g[1].final_ns == 60 * SEC && g[1].initial_ns == SEC);

	assert_int_equal(goal_preset("csit", g, 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(goal_preset("nope", g, GOAL_MAX, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "rfc2544"));
}

/* RFC 9971's Trial Output: loss ratio, effective duration, forwarding
 * rate; duplicates are no loss, nothing offered is no loss. */
static void test_trial_output(void **st)
{
	struct trial_output t;

	(void)st;
	goal_trial_output(40000, 2000000000, 80000, 60000, &t);
	assert_true(fabs(t.loss_ratio - 0.25) < 1e-12 && t.effective_s == 2 && fabs(t.forwarding_rate - 30000) < 1e-6);
	goal_trial_output(1000, 500000000, 500, 501, &t);
	assert_true(t.loss_ratio == 0 && t.effective_s == 0.5 && t.forwarding_rate == 1000);
	goal_trial_output(1000, 1000000000, 0, 0, &t);
	assert_true(t.loss_ratio == 0);
}

/* goal_tolerates: "more tolerant" as goal.h defines it. */
static void test_tolerates(void **st)
{
	static const struct {
		const char *b, *a;
		bool yes;
	} c[] = {
		{ "2f2d0l0e", "2f2d0l0e", true },		/* a goal tolerates itself */
		{ "2f2d0.5l0e", "2f2d0l0e", true },		/* pdr tolerates ndr */
		{ "2f2d0l0e", "2f2d0.5l0e", false },
		{ "2f4d0l50e", "2f2d0l0e", true },		/* make demo's tolerant: 2 s good, 2 s bad */
		{ "2f4d0l50e", "2f2d0.5l0e", false },		/* a lower loss ratio than pdr's */
		{ "2f6d0l50e", "2f2d0l0e", false },		/* needs 3 s of good time, ndr 2 s */
		{ "60f120d0l50e", "60f60d0l0e", true },		/* tst009 tolerates rfc2544 */
		{ "1f21d0l50e", "1f1d0l0e", false },		/* csit needs 10.5 s good */
		{ "1f21d0l50e", "1f21d0l50e0.5w", true },	/* width plays no part */
		{ "1f12d0l60e", "1f21d0l50e", false },		/* bears 7.2 s of bad time, 10.5 asked */
		{ "1f21d0.5l50e", "1f21d0l50e", true },		/* csit's pdr, its ndr */
		{ "1f2d0l0e", "2f2d0l0e", true },		/* shorter trials, stricter goal E 0 */
		{ "1f2d0l50e", "2f4d0l50e", false },		/* shorter trials, E > 0: can be stricter */
		{ "4f4d0l0e", "2f2d0l0e", false },		/* longer trials */
	};

	(void)st;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct search_goal a, b;

		assert_int_equal(goal_parse(c[i].a, &a, err, sizeof(err)), 0);
		assert_int_equal(goal_parse(c[i].b, &b, err, sizeof(err)), 0);
		if (goal_tolerates(&b, &a) != c[i].yes)
			fail_msg("%s tolerates %s: expected %s", c[i].b, c[i].a, c[i].yes ? "yes" : "no");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_rfc_forms),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_trial_output),
		cmocka_unit_test(test_tolerates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
