/* The children's command lines (src/cli/child_args.c): a matrix's test
 * and report and a bisection's measurement, as the app asks for them, and
 * the test's words a matrix refuses before anything is built. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "app/matrix_plan.h"
#include "cli/child_args.h"
#include "cli/cli.h"

static char err[512];

/* The test's words checked as the matrix checks them: OPT_GO, or
 * OPT_EXIT with EXIT_USAGE after one line on stderr ("wirerate: matrix:
 * REASON"), whose reason is left in err; "" when it went on. */
static unsigned int repeat;

static enum opt_result check(char **test, int ntest, int ntags, bool *remote)
{
	static const char lead[] = "wirerate: matrix: ";
	int p[2], saved, status = -1;
	enum opt_result r;
	ssize_t n;

	fflush(stderr);
	assert_int_equal(pipe(p), 0);
	saved = dup(2);
	dup2(p[1], 2);
	r = child_args_matrix(test, &ntest, ntags, false, remote, &repeat, &status);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(p[1]);
	n = read(p[0], err, sizeof(err) - 1);
	close(p[0]);
	err[n > 0 ? n : 0] = '\0';
	if (r == OPT_GO) {
		assert_string_equal(err, "");
		return r;
	}
	assert_int_equal(status, EXIT_USAGE);
	/* the reason alone, as the assertions spell it */
	assert_int_equal(strncmp(err, lead, strlen(lead)), 0);
	assert_true(n > 0 && err[n - 1] == '\n');
	err[n - 1] = '\0';
	memmove(err, err + strlen(lead), strlen(err + strlen(lead)) + 1);
	return r;
}

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

/* The test's --help (or -h) is refused: the test would print its help
 * and exit 0, and the matrix would go on to build its labs. */
static void matrix_help(void **st)
{
	char *help[] = { "trial", "--rate", "1k", "--help" };
	char *h[] = { "rfc2544", "-h" };
	bool remote;

	(void)st;
	assert_int_equal(check(help, 4, 0, &remote), OPT_EXIT);
	assert_string_equal(err, "--help among the test's options: for them, see 'wirerate trial --help'");
	assert_int_equal(check(h, 2, 0, &remote), OPT_EXIT);
	assert_string_equal(err, "-h among the test's options: for them, see 'wirerate rfc2544 --help'");
}

/* The test's words before anything is built: the options the lab's
 * matrix sets refused (the test's name itself not looked at), and the
 * ones it leaves to the test passed. */
static void matrix_reserved(void **st)
{
	char *ok[] = { "trial", "--rate", "1k", "--dur", "5" };
	char *prefix[] = { "trial", "--rate", "1k", "--prefix", "x-" };
	char *db[] = { "trial", "--db=/s.db" };
	char *label[] = { "trial", "--label", "L" };
	char *json[] = { "trial", "--json" };
	char *j[] = { "trial", "-j" };
	char *tx[] = { "trial", "--tx", "a" };
	char *name[] = { "--prefix", "--rate", "1k" };
	char *lab[] = { "trial", "--dut", "lab:t-", "--dut-placement", "bound" };
	bool remote = true;

	(void)st;
	assert_int_equal(check(ok, 5, 0, &remote), OPT_GO);
	assert_false(remote);
	assert_int_equal(check(prefix, 5, 0, &remote), OPT_EXIT);
	assert_string_equal(err, "--prefix is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(check(db, 2, 0, &remote), OPT_EXIT);
	assert_string_equal(err, "--db=/s.db is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(check(label, 3, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--label is the matrix's to set"));
	assert_int_equal(check(json, 2, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--json is the matrix's to set"));
	assert_int_equal(check(j, 2, 0, &remote), OPT_EXIT);
	/* the lab's matrix sets the ports */
	assert_int_equal(check(tx, 3, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--tx is the matrix's to set"));
	/* words 1 on are options; word 0 is the test's name */
	assert_int_equal(check(name, 3, 0, &remote), OPT_GO);
	/* --dut lab:...: the lab's matrix, where the DUT's options are the test's */
	assert_int_equal(check(lab, 5, 0, &remote), OPT_GO);
	assert_false(remote);
}

/* A test that names a DUT of its own (--dut ssh:... or local): remote
 * set, the ports the test's, and --dut-placement, --dut-rules and the
 * store's options the matrix's. */
static void matrix_remote_words(void **st)
{
	char *ssh[] = { "trial", "--dut", "ssh:r1", "--tx", "a", "--rx", "b", "--dst-mac", "02:00:00:00:00:01" };
	char *local[] = { "trial", "--dut=local", "--tx", "a" };
	char *placement[] = { "trial", "--dut", "ssh:r1", "--dut-placement", "bound" };
	char *rules[] = { "trial", "--dut=local", "--dut-rules=10" };
	char *db[] = { "trial", "--dut=local", "--db", "/s.db" };
	char *label[] = { "trial", "--label=x", "--dut", "local" };
	char *lab[] = { "trial", "--rate", "1k", "--dut", "lab:t-" };
	char *bare[] = { "trial", "--tx", "a", "--dut" };
	bool remote = false;

	(void)st;
	assert_false(child_args_remote(lab, 5));
	assert_false(child_args_remote(bare, 4));	/* --dut without its value */
	assert_true(child_args_remote(local, 2));
	assert_int_equal(check(ssh, 9, 0, &remote), OPT_GO);
	assert_true(remote);
	remote = false;
	assert_int_equal(check(local, 4, 0, &remote), OPT_GO);
	assert_true(remote);
	remote = false;
	assert_int_equal(check(placement, 5, 0, &remote), OPT_EXIT);
	assert_true(remote);
	assert_string_equal(err,
			    "--dut-placement is the matrix's to set, not the test's (see 'wirerate matrix --help')");
	assert_int_equal(check(rules, 3, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--dut-rules=10 is the matrix's to set"));
	assert_int_equal(check(db, 4, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--db is the matrix's to set"));
	/* the DUT named after the reserved option: still remote, still refused */
	remote = false;
	assert_int_equal(check(label, 4, 0, &remote), OPT_EXIT);
	assert_true(remote);
	assert_non_null(strstr(err, "--label=x is the matrix's to set"));
}

/* Room for what the matrix adds: ntest + 2 * ntags + 12 words at most
 * APP_MATRIX_ARGV_MAX, one more refused. */
static void matrix_room(void **st)
{
	static char *test[APP_MATRIX_ARGV_MAX];
	int n = APP_MATRIX_ARGV_MAX - 14;
	bool remote;

	(void)st;
	test[0] = "trial";
	for (int i = 1; i < APP_MATRIX_ARGV_MAX; i++)
		test[i] = "--rate";
	assert_int_equal(check(test, n, 0, &remote), OPT_GO);
	assert_int_equal(check(test, n + 1, 0, &remote), OPT_EXIT);
	assert_string_equal(err, "too many test options");
	/* each tag is two words: --tag and its value */
	assert_int_equal(check(test, n - 4, 2, &remote), OPT_GO);
	assert_int_equal(check(test, n - 3, 2, &remote), OPT_EXIT);
	assert_string_equal(err, "too many test options");
	assert_int_equal(check(test, 1, (APP_MATRIX_ARGV_MAX - 15) / 2, &remote), OPT_GO);
	assert_int_equal(check(test, 1, (APP_MATRIX_ARGV_MAX - 15) / 2 + 1, &remote), OPT_EXIT);
	/* a reserved word is said first, before the room */
	test[5] = "--db";
	assert_int_equal(check(test, n + 1, 0, &remote), OPT_EXIT);
	assert_non_null(strstr(err, "--db is the matrix's to set"));
}

/* An interleaved matrix takes the test's --repeat N as its rounds, out
 * of the test's words (both spellings); a bad N is refused, naming it;
 * with no rounds asked the words stay as they are. */
static void matrix_repeat(void **st)
{
	char *test[] = { "trial", "--rate", "1k", "--repeat", "3", "--duration", "2s" };
	char *eq[] = { "rfc2544", "throughput", "--repeat=5" };
	char *bad[] = { "trial", "--repeat", "0" };
	char *big[] = { "trial", "--repeat=17" };
	int n = 7, status = -1;
	bool remote;

	(void)st;
	assert_int_equal(child_args_matrix(test, &n, 0, true, &remote, &repeat, &status), OPT_GO);
	assert_int_equal(repeat, 3);
	assert_int_equal(n, 5);
	assert_string_equal(test[3], "--duration");
	assert_string_equal(test[4], "2s");
	n = 3;
	assert_int_equal(child_args_matrix(eq, &n, 0, true, &remote, &repeat, &status), OPT_GO);
	assert_int_equal(repeat, 5);
	assert_int_equal(n, 2);
	n = 3;
	assert_int_equal(child_args_matrix(eq, &n, 0, false, &remote, &repeat, &status), OPT_GO);
	assert_int_equal(repeat, 0);
	assert_int_equal(n, 3);
	assert_int_equal(check(bad, 3, 0, &remote), OPT_GO);	/* not taken: the test checks it */
	n = 3;
	assert_int_equal(child_args_matrix(bad, &n, 0, true, &remote, &repeat, &status), OPT_EXIT);
	assert_int_equal(status, EXIT_USAGE);
	n = 2;
	assert_int_equal(child_args_matrix(big, &n, 0, true, &remote, &repeat, &status), OPT_EXIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix_test),	   cmocka_unit_test(matrix_remote),
		cmocka_unit_test(bisect_measure),  cmocka_unit_test(report),
		cmocka_unit_test(option_names),	   cmocka_unit_test(matrix_help),
		cmocka_unit_test(matrix_reserved), cmocka_unit_test(matrix_remote_words),
		cmocka_unit_test(matrix_room),
		cmocka_unit_test(matrix_repeat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
