/* The benchmarking ranges (core/addrpolicy.h) at their edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "core/addrpolicy.h"

/* The verdict for an address in text, through both entry points. */
static int in_range(const char *text)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	bool raw, sa;

	if (inet_pton(AF_INET, text, &s4.sin_addr) == 1) {
		raw = addrpolicy_ip_in_bench_range((const uint8_t *)&s4.sin_addr, false);
		sa = addrpolicy_in_bench_range((const struct sockaddr *)&s4);
	} else {
		assert_int_equal(inet_pton(AF_INET6, text, &s6.sin6_addr), 1);
		raw = addrpolicy_ip_in_bench_range(s6.sin6_addr.s6_addr, true);
		sa = addrpolicy_in_bench_range((const struct sockaddr *)&s6);
	}
	assert_int_equal(raw, sa);
	return raw;
}

static void v4_edges(void **st)
{
	assert_false(in_range("198.17.255.255"));
	assert_true(in_range("198.18.0.0"));
	assert_true(in_range("198.18.0.1"));
	assert_true(in_range("198.19.0.2"));
	assert_true(in_range("198.19.255.255"));
	assert_false(in_range("198.20.0.0"));
	assert_false(in_range("10.0.0.1"));
	assert_false(in_range("199.18.0.1"));
	assert_false(in_range("0.0.0.0"));
}

static void v6_edges(void **st)
{
	assert_false(in_range("2001:1:ffff:ffff:ffff:ffff:ffff:ffff"));
	assert_true(in_range("2001:2::"));
	assert_true(in_range("2001:2:0:1::1"));
	assert_true(in_range("2001:2:0:ffff:ffff:ffff:ffff:ffff"));
	assert_false(in_range("2001:2:1::"));
	assert_false(in_range("2001:3::"));
	assert_false(in_range("2001:db8::1"));
	assert_false(in_range("::"));
	assert_false(in_range("::1"));
	/* the IPv4 range written as IPv6 */
	assert_true(in_range("::ffff:198.18.0.1"));
	assert_true(in_range("::ffff:198.19.255.255"));
	assert_false(in_range("::ffff:198.20.0.0"));
	assert_false(in_range("::ffff:198.17.255.255"));
	/* IPv4-compatible (deprecated) and other embeddings are not mapped */
	assert_false(in_range("::198.18.0.1"));
	assert_false(in_range("64:ff9b::198.18.0.1"));
}

static void other_family(void **st)
{
	struct sockaddr sa = { .sa_family = AF_UNIX };

	assert_false(addrpolicy_in_bench_range(&sa));
}

static void refusal(void **st)
{
	char err[256];

	addrpolicy_refusal("--dst-ip", "10.0.0.1", err, sizeof(err));
	assert_non_null(strstr(err, "--dst-ip 10.0.0.1"));
	assert_non_null(strstr(err, "198.18.0.0/15"));
	assert_non_null(strstr(err, "2001:2::/48"));
	assert_non_null(strstr(err, "--allow-any-address"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(v4_edges), cmocka_unit_test(v6_edges),
		cmocka_unit_test(other_family), cmocka_unit_test(refusal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
