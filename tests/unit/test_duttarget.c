#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/duttarget.h"

static char err[256];

static void forms(void **st)
{
	struct dut_target t = { 0 };
	char name[300];

	assert_int_equal(duttarget_parse("lab", &t, err, sizeof(err)), 0);
	assert_int_equal(t.kind, DUT_LAB);
	assert_string_equal(t.prefix, "wr-");
	assert_int_equal(duttarget_parse("lab:t1-", &t, err, sizeof(err)), 0);
	assert_string_equal(t.prefix, "t1-");
	duttarget_name(&t, name, sizeof(name));
	assert_string_equal(name, "lab t1-");
	assert_int_equal(duttarget_parse("local", &t, err, sizeof(err)), 0);
	assert_int_equal(t.kind, DUT_LOCAL);
	assert_int_equal(duttarget_parse("ssh:router1", &t, err, sizeof(err)), 0);
	assert_int_equal(t.kind, DUT_SSH);
	assert_string_equal(t.host, "router1");
	assert_string_equal(t.user, "");
	assert_int_equal(t.port, 0);
	assert_int_equal(duttarget_parse("ssh:qa@198.18.9.1:2222", &t, err, sizeof(err)), 0);
	assert_string_equal(t.user, "qa");
	assert_string_equal(t.host, "198.18.9.1");
	assert_int_equal(t.port, 2222);
	duttarget_name(&t, name, sizeof(name));
	assert_string_equal(name, "ssh:qa@198.18.9.1:2222");
	assert_int_equal(duttarget_parse("ssh:2001:2::9", &t, err, sizeof(err)), 0);
	assert_string_equal(t.host, "2001:2::9");
	assert_int_equal(t.port, 0);
	assert_int_equal(duttarget_parse("ssh:root@[2001:2::9]:22", &t, err, sizeof(err)), 0);
	assert_string_equal(t.host, "2001:2::9");
	assert_int_equal(t.port, 22);
	/* a parse resets what an earlier one set */
	assert_int_equal(duttarget_parse("ssh:b", &t, err, sizeof(err)), 0);
	assert_string_equal(t.user, "");
	assert_int_equal(t.port, 0);
}

static void refused(void **st)
{
	struct dut_target t;
	char longhost[400];
	const char *bad[] = { "", "ssh:", "ssh:@h", "ssh:u@", "ssh:h:0", "ssh:h:65536", "ssh:h:x",
			      "ssh:-oProxyCommand=x", "ssh:h;reboot", "ssh:h 1", "ssh:u@-h", "ssh:[::1",
			      "ssh:[::1]x", "lab:", "lab:0123456789012345678901234", "telnet:h",
			      "LOCAL", "ssh:a b@h", "ssh:$(id)" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(duttarget_parse(bad[i], &t, err, sizeof(err)), -22);
		assert_non_null(strstr(err, "--dut"));
		assert_null(strchr(err, '\n'));
	}
	memset(longhost, 'a', sizeof(longhost) - 1);
	longhost[sizeof(longhost) - 1] = 0;
	memcpy(longhost, "ssh:", 4);
	assert_int_equal(duttarget_parse(longhost, &t, err, sizeof(err)), -22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forms),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
