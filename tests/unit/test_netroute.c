/* Default routes from /proc/net fixture trees (tests/fixtures/route). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/socket.h>

#include "os/netroute.h"

static int on(const char *tree, const char *ifname)
{
	int family = -1;

	assert_int_equal(netroute_default_on(tree, ifname, &family), 0);
	return family;
}

static void uplink(void **st)
{
	assert_int_equal(on(FIXTURES "/uplink", "eth0"), AF_INET);
	assert_int_equal(on(FIXTURES "/uplink", "lo"), 0);
	assert_int_equal(on(FIXTURES "/uplink", "eth1"), 0);
	assert_int_equal(on(FIXTURES "/uplink", "eth"), 0);	/* no prefix match */
}

static void v6only(void **st)
{
	assert_int_equal(on(FIXTURES "/v6only", "eth1"), AF_INET6);
	assert_int_equal(on(FIXTURES "/v6only", "lo"), 0);
}

static void reject(void **st)
{
	assert_int_equal(on(FIXTURES "/reject", "eth0"), 0);
	assert_int_equal(on(FIXTURES "/reject", "lo"), 0);
}

static void noipv6(void **st)
{
	assert_int_equal(on(FIXTURES "/noipv6", "wan0"), AF_INET);
	assert_int_equal(on(FIXTURES "/noipv6", "eth0"), 0);
}

static void missing(void **st)
{
	int family = -1;

	assert_int_equal(netroute_default_on(FIXTURES "/nowhere", "eth0", &family), -ENOENT);
	assert_int_equal(family, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uplink), cmocka_unit_test(v6only), cmocka_unit_test(reject),
		cmocka_unit_test(noipv6), cmocka_unit_test(missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
