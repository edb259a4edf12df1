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

#include "sys/cpulat.h"

/* Two CPUs this process may run on, or skip. */
static void two_cpus(int *a, int *b)
{
	cpu_set_t s;

	*a = *b = -1;
	if (sched_getaffinity(0, sizeof(s), &s))
		skip();
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(measures_both_ways),
		cmocka_unit_test(refuses_bad_pairs),
		cmocka_unit_test(moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
