/* Kernel threads by name from a /proc fixture tree (tests/fixtures/napi):
 * a user process that took a NAPI thread's name is never taken for one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <unistd.h>

#include "os/kthread.h"

static int cmp(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

static void napi_dut0(void **st)
{
	pid_t p[16];
	unsigned int n = kthread_find(FIXTURES, "napi/dut0-", p, 16);

	qsort(p, n, sizeof(p[0]), cmp);
	assert_int_equal(n, 2);
	assert_int_equal(p[0], 1234);
	assert_int_equal(p[1], 1240);
	n = kthread_find(FIXTURES, "napi/dut1-", p, 16);
	assert_int_equal(n, 1);
	assert_int_equal(p[0], 1300);
	assert_int_equal(kthread_find(FIXTURES, "napi/dut0-", p, 1), 1);	/* max holds */
	assert_int_equal(kthread_find(FIXTURES "/nowhere", "napi/", p, 16), 0);
}

static void impostors(void **st)
{
	assert_true(kthread_is(FIXTURES, 1234));
	assert_true(kthread_is(FIXTURES, 2) == false);	/* kthreadd's parent is 0 */
	assert_false(kthread_is(FIXTURES, 4321));	/* user process, napi name */
	assert_false(kthread_is(FIXTURES, 4323));	/* name imitating "S 2" */
	assert_false(kthread_is(FIXTURES, 4330));	/* flag, wrong parent */
	assert_false(kthread_is(FIXTURES, 4331));	/* parent 2, no flag */
	assert_false(kthread_is(FIXTURES, 4340));	/* gone */
	assert_false(kthread_is(FIXTURES, 4341));	/* cut short */
	assert_false(kthread_is(FIXTURES, 99999));
}

/* On this host: kthreadd's first child is a kernel thread, we are not. */
static void live(void **st)
{
	pid_t p[4];

	assert_false(kthread_is(NULL, getpid()));
	assert_false(kthread_is(NULL, 1));
	assert_true(kthread_find(NULL, "kworker/", p, 4) >= 1);
	assert_true(kthread_is(NULL, p[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(napi_dut0), cmocka_unit_test(impostors), cmocka_unit_test(live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
