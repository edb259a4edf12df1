/* The small text readers: a key=value line's value, first match, cut to
 * the buffer, and keys that are only a prefix of another. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/text.h"

static void kv_get(void **state)
{
	static const char t[] = "ports=2\nportsx=9\nmtu=1500\nempty=\nmtu=9000\nlast=end";
	char v[8];

	(void)state;
	assert_non_null(text_kv_get(t, "ports", v, sizeof(v)));
	assert_string_equal(v, "2");
	assert_non_null(text_kv_get(t, "mtu", v, sizeof(v)));
	assert_string_equal(v, "1500");
	assert_non_null(text_kv_get(t, "last", v, sizeof(v)));
	assert_string_equal(v, "end");
	/* "key=" is an empty value, the key alone is none */
	assert_non_null(text_kv_get(t, "empty", v, sizeof(v)));
	assert_string_equal(v, "");
	assert_null(text_kv_get("alone\n", "alone", v, sizeof(v)));
	assert_null(text_kv_get(t, "port", v, sizeof(v)));
	assert_null(text_kv_get(NULL, "ports", v, sizeof(v)));
	assert_null(text_kv_get("", "ports", v, sizeof(v)));
	assert_non_null(text_kv_get("long=123456789", "long", v, sizeof(v)));
	assert_string_equal(v, "1234567");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kv_get),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
