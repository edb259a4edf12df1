/* The cache-line transfer time between two CPUs, measured for real on
 * this machine, and the rule that says the host moved them. */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "os/cpulat.h"

/* Two CPUs this process may run on, or skip. */
static void two_cpus(int *a, int *b)
{
	cpu_set_t s;

	*a = *b = -1;
	assert_int_equal(sched_getaffinity(0, sizeof(s), &s), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s)) {
			if (*a < 0)
				*a = c;
			else if (*b < 0)
				*b = c;
		}
	if (*b < 0) {
		fprintf(stderr, "skipped: one CPU only, no transfer to measure\n");
		skip();
	}
}

static void measures_both_ways(void **st)
{
	char err[256] = "";
	double ab = 0, ba = 0;
	int a, b;
	cpu_set_t before, after;

	two_cpus(&a, &b);
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_int_equal(cpulat_measure(a, b, &ab, err, sizeof(err)), 0);
	assert_int_equal(cpulat_measure(b, a, &ba, err, sizeof(err)), 0);
	/* a transfer takes longer than a cycle and far less than the 200 ms
	 * bound; both directions cross the same distance */
	assert_true(ab > 1 && ab < 100000);
	assert_true(ba > 1 && ba < 100000);
	/* the caller's affinity is as it was */
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
}

static void refuses_bad_pairs(void **st)
{
	char err[256] = "";
	double ns = -1;
	int a, b;

	two_cpus(&a, &b);
	assert_int_equal(cpulat_measure(a, a, &ns, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "two different CPUs"));
	assert_int_equal(cpulat_measure(-1, a, &ns, err, sizeof(err)), -EINVAL);
	/* a CPU this process may not run on, either side */
	assert_int_equal(cpulat_measure(a, CPU_SETSIZE - 1, &ns, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not available"));
	assert_int_equal(cpulat_measure(CPU_SETSIZE - 1, a, &ns, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not available"));
	assert_true(ns == -1);
}

static void moved(void **st)
{
	/* this VM's two placements: 40-60 ns and 170-200 ns */
	assert_true(cpulat_moved(48, 185));
	assert_true(cpulat_moved(185, 48));
	assert_false(cpulat_moved(48, 62));
	assert_false(cpulat_moved(39, 58));
	assert_true(cpulat_moved(50, 100));
	assert_false(cpulat_moved(50, 99));
	/* unknown on either side: nothing to say */
	assert_false(cpulat_moved(0, 185));
	assert_false(cpulat_moved(48, 0));
}

static void texts(void **st)
{
	struct cpulat_pair p[3] = { { 0, 1, 43.24, "" }, { 0, 2, 0, "no" }, { 0, 3, 170.06, "" } };
	char buf[128], note[160];

	/* measured pairs only */
	cpulat_format(p, 3, buf, sizeof(buf));
	assert_string_equal(buf, "0-1:43.2 0-3:170.1");
	cpulat_format(p + 1, 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* a pair in both that moved, named with its figures */
	assert_true(cpulat_text_moved("0-1:43.2 0-3:170.1", "0-1:172.0 0-3:170.0", "in the baseline", note, sizeof(note)));
	assert_string_equal(note, "CPUs 0 and 1 172 ns a cache line apart (43 in the baseline)");
	assert_true(cpulat_text_moved("0-1:43.2 0-3:170.1", "0-3:60", "then", note, sizeof(note)));
	assert_string_equal(note, "CPUs 0 and 3 60 ns a cache line apart (170 then)");
	/* within 2x, in one text only, or unknown: nothing moved */
	assert_false(cpulat_text_moved("0-1:43.2", "0-1:60.0", "x", note, sizeof(note)));
	assert_false(cpulat_text_moved("0-1:43.2", "0-2:170.0", "x", note, sizeof(note)));
	assert_false(cpulat_text_moved("", "0-1:170.0", "x", note, sizeof(note)));
	assert_false(cpulat_text_moved("0-1:43.2", "", "x", note, sizeof(note)));
	assert_false(cpulat_text_moved("garbage", "0-1:170.0", "x", note, sizeof(note)));
}

static void from_first(void **st)
{
	struct cpulat_pair p[4];
	int a, b, n;

	two_cpus(&a, &b);
	n = cpulat_from_first(p, 4);
	assert_true(n >= 1 && n <= 4);
	assert_int_equal(p[0].a, a);
	assert_int_equal(p[0].b, b);
	assert_true(p[0].ns > 1 && p[0].ns < 100000);
	/* at most max pairs */
	assert_int_equal(cpulat_from_first(p, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measures_both_ways),
		cmocka_unit_test(refuses_bad_pairs),
		cmocka_unit_test(moved),
		cmocka_unit_test(texts),
		cmocka_unit_test(from_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
