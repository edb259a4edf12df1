/* The children's command lines (src/cli/child_args.c): a matrix's test
 * and report and a bisection's measurement, as the app asks for them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/child_args.h"

static void same(char **argv, const char *const *want)
{
	int i;

	assert_non_null(argv);
	for (i = 0; want[i]; i++) {
		assert_non_null(argv[i]);
		assert_string_equal(argv[i], want[i]);
	}
	assert_null(argv[i]);
	free(argv);
}

/* A matrix's test in the lab: its words, then the lab, label, tags and
 * store the matrix gives it. */
static void matrix_test(void **st)
{
	char *test[] = { "trial", "--rate", "1kpps" };
	struct app_child what = { .cmd = APP_CHILD_TEST, .words = test, .nwords = 3, .prefix = "t-", .label = "L",
				  .tags = { "matrix-1", "x" }, .ntags = 2, .db = "/d" };
	const char *want[] = { "wirerate", "trial", "--rate", "1kpps", "--prefix", "t-", "--label", "L", "--tag",
			       "matrix-1", "--tag", "x", "--db", "/d", NULL };

	(void)st;
	same(child_args_build(NULL, &what), want);
}

/* A DUT of its own: no lab; the placement and rules its agent applies. */
static void matrix_remote(void **st)
{
	char *test[] = { "trial", "--rate", "1k" };
	struct app_child what = { .cmd = APP_CHILD_TEST, .words = test, .nwords = 3, .label = "L", .tags = { "t" },
				  .ntags = 1, .db = "/d", .placement = "free", .rules = "10" };
	const char *want[] = { "wirerate", "trial", "--rate", "1k", "--label", "L", "--tag", "t", "--db", "/d",
			       "--dut-placement", "free", "--dut-rules", "10", NULL };

	(void)st;
	same(child_args_build(NULL, &what), want);
}

/* A bisection's measurement: the lab's prefix unless the words give one,
 * the repeats, its label, three tags, the store. */
static void bisect_measure(void **st)
{
	char *test[] = { "trial", "--rate", "1k" };
	char *own[] = { "trial", "--prefix=p-", "--rate", "1k" };
	struct app_child what = { .cmd = APP_CHILD_TEST, .words = test, .nwords = 3, .prefix = "wr-", .repeat = 3,
				  .label = "bisect 1/abc", .tags = { "bisect:4", "bisect-step:4:1", "bisect-candidate:x" },
				  .ntags = 3, .db = "/s.db" };
	const char *want[] = { "wirerate", "trial", "--rate", "1k", "--prefix", "wr-", "--repeat", "3", "--label",
			       "bisect 1/abc", "--tag", "bisect:4", "--tag", "bisect-step:4:1", "--tag",
			       "bisect-candidate:x", "--db", "/s.db", NULL };
	const char *check[] = { "wirerate", "trial", "--prefix=p-", "--rate", "1k", "--repeat", "16", NULL };

	(void)st;
	same(child_args_build(NULL, &what), want);
	what = (struct app_child){ .cmd = APP_CHILD_TEST, .words = own, .nwords = 4, .prefix = "wr-", .repeat = 16 };
	same(child_args_build(NULL, &what), check);
}

/* The report over stored runs: their ids in order, the store, and
 * --html and --fail-on-regression when given; --json before the command. */
static void report(void **st)
{
	const int64_t runs[] = { 7, 12, 30 };
	struct app_child what = { .cmd = APP_CHILD_REPORT, .json = true, .runs = runs, .nruns = 3, .db = "/s.db",
				  .html = "r.html", .fail_pct = "5" };
	const char *want[] = { "wirerate", "--json", "report", "7", "12", "30", "--db", "/s.db", "--html", "r.html",
			       "--fail-on-regression", "5", NULL };
	const char *one[] = { "wirerate", "report", "7", "--db", "/s.db", NULL };

	(void)st;
	same(child_args_build(NULL, &what), want);
	what = (struct app_child){ .cmd = APP_CHILD_REPORT, .runs = runs, .nruns = 1, .db = "/s.db" };
	same(child_args_build(NULL, &what), one);
}

static void option_names(void **st)
{
	(void)st;
	assert_true(child_args_is("--prefix", "--prefix"));
	assert_true(child_args_is("--db=x", "--db"));
	assert_false(child_args_is("--js", "--json"));	/* names are exact: the test refuses it */
	assert_true(child_args_is("-j", "-j"));
	assert_false(child_args_is("--dbx", "--db"));
	assert_false(child_args_is("--d", "--db"));
	assert_false(child_args_is("--dut", "--dut-placement"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix_test),	  cmocka_unit_test(matrix_remote),
		cmocka_unit_test(bisect_measure), cmocka_unit_test(report),
		cmocka_unit_test(option_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
