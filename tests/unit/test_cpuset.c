#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/cpuset.h"

static char err[256];

static void list_roundtrip(void **st)
{
	struct cpuset s;
	char buf[256];

	assert_int_equal(cpuset_parse_list("0-3,8,10-11\n", &s, err, sizeof(err)), 0);
	assert_int_equal(cpuset_count(&s), 7);
	assert_true(cpuset_has(&s, 8));
	assert_false(cpuset_has(&s, 9));
	cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,10-11");
	assert_int_equal(cpuset_nth(&s, 4), 8);
	assert_int_equal(cpuset_nth(&s, 7), -1);
	assert_int_equal(cpuset_parse_list("", &s, err, sizeof(err)), 0);
	assert_int_equal(cpuset_count(&s), 0);
	cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(cpuset_parse_list("1023", &s, err, sizeof(err)), 0);
	cpuset_format_list(&s, buf, sizeof(buf));
	assert_string_equal(buf, "1023");
}

static void list_bad(void **st)
{
	struct cpuset s;
	const char *bad[] = { "a", "1-", "3-1", "1,,2", "-1", "1024", "0-99999", "1 2", "1,", "0x1" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_true(cpuset_parse_list(bad[i], &s, err, sizeof(err)) < 0);
		assert_true(strlen(err) > 0);
	}
}

static void masks(void **st)
{
	struct cpuset s, t;
	char buf[512];

	cpuset_zero(&s);
	cpuset_add(&s, 0);
	cpuset_add(&s, 1);
	cpuset_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "00000003");
	cpuset_add(&s, 33);
	cpuset_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "00000002,00000003");
	assert_int_equal(cpuset_parse_mask(buf, &t, err, sizeof(err)), 0);
	assert_true(cpuset_equal(&s, &t));
	assert_int_equal(cpuset_parse_mask("0\n", &t, err, sizeof(err)), 0);
	assert_int_equal(cpuset_count(&t), 0);
	cpuset_zero(&s);
	cpuset_format_mask(&s, buf, sizeof(buf));
	assert_string_equal(buf, "00000000");
	assert_true(cpuset_parse_mask("zz", &t, err, sizeof(err)) < 0);
	assert_true(cpuset_parse_mask("", &t, err, sizeof(err)) < 0);
}

static void set_ops(void **st)
{
	struct cpuset a, b, d;

	cpuset_parse_list("0-3", &a, err, sizeof(err));
	cpuset_parse_list("1,3", &b, err, sizeof(err));
	cpuset_diff(&d, &a, &b);
	assert_int_equal(cpuset_count(&d), 2);
	assert_true(cpuset_has(&d, 0) && cpuset_has(&d, 2));
	assert_true(cpuset_subset(&b, &a));
	assert_false(cpuset_subset(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_roundtrip), cmocka_unit_test(list_bad),
		cmocka_unit_test(masks), cmocka_unit_test(set_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
