/* The selftests' net.config and environment: core/topology.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "core/topology.h"

static int parse(const char *text, const char *const *env, struct topology *t, char *err)
{
	return topology_parse(text, env, "net.config", t, err, 256);
}

static void test_file_quotes_comments(void **state)
{
	struct topology t;
	char err[256];
	(void)state;
	const char *text = "# a NIC pair\n"
			   "NETIF=eth1   # the DUT's port\n"
			   "LOCAL_V4=\"198.18.0.1\"\n"
			   "export REMOTE_V4='198.18.0.2'\n"
			   "\n"
			   "LOCAL_V6=2001:2::1\r\n"
			   "REMOTE_V6=\"2001:2::2\"\n"
			   "REMOTE_TYPE=ssh\n"
			   "REMOTE_ARGS=root@dut\n"
			   "SOME_OTHER_TEST=\"x y # z\"\n";

	assert_int_equal(parse(text, NULL, &t, err), 0);
	assert_string_equal(t.netif, "eth1");
	assert_string_equal(t.local_v4, "198.18.0.1");
	assert_string_equal(t.remote_v4, "198.18.0.2");
	assert_string_equal(t.local_v6, "2001:2::1");
	assert_string_equal(t.remote_v6, "2001:2::2");
	assert_int_equal(t.remote_type, TOPOLOGY_SSH);
	assert_string_equal(t.remote_args, "root@dut");
}

static void test_env_and_file_wins(void **state)
{
	struct topology t;
	char err[256];
	(void)state;
	const char *env[] = { "NETIF=veth0", "LOCAL_V4=198.18.0.1", "REMOTE_V4=198.18.0.2", "REMOTE_TYPE=netns",
			      "REMOTE_ARGS=peer", "PATH=/bin", NULL };

	assert_int_equal(parse(NULL, env, &t, err), 0);
	assert_string_equal(t.netif, "veth0");
	assert_int_equal(t.remote_type, TOPOLOGY_NETNS);
	assert_string_equal(t.remote_args, "peer");
	assert_string_equal(t.local_v6, "");
	/* the file's values win */
	assert_int_equal(parse("NETIF=veth9\n", env, &t, err), 0);
	assert_string_equal(t.netif, "veth9");
}

static void bad(const char *text, const char *want)
{
	struct topology t;
	char err[256] = "";

	assert_int_equal(parse(text, NULL, &t, err), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s', want '%s'", text, err, want);
	assert_null(strchr(err, '\n'));
}

static void test_bad(void **state)
{
	(void)state;
	bad("LOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_TYPE=netns\nREMOTE_ARGS=p\n", "no NETIF");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_TYPE=telnet\nREMOTE_ARGS=p\n",
	    "REMOTE_TYPE 'telnet'");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_ARGS=p\n", "no REMOTE_TYPE");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_TYPE=ssh\n", "no REMOTE_ARGS");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_TYPE=ssh\nREMOTE_ARGS=h\n", "LOCAL_V4 without REMOTE_V4");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.300\nREMOTE_TYPE=ssh\nREMOTE_ARGS=h\n",
	    "REMOTE_V4 '198.18.0.300' is not an IPv4 address");
	bad("NETIF=e\nREMOTE_TYPE=ssh\nREMOTE_ARGS=h\n", "has no addresses");
	bad("NETIF=e\nthis is not a pair\n", "line 2: not KEY=value");
	bad("NETIF=\"e\n", "line 1: an open quote");
	bad("NETIF=e f\n", "line 1: an open quote, or words after");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_TYPE=ssh\nREMOTE_ARGS=-oProxyCommand=x\n",
	    "REMOTE_ARGS '-oProxyCommand=x' is not a host name");
	bad("NETIF=e;rm\nLOCAL_V4=198.18.0.1\n", "not an interface name");
	bad("NETIF=an-interface-name-too-long\n", "not an interface name");
	bad("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.1\nREMOTE_TYPE=ssh\nREMOTE_ARGS=h\n", "the same");
}

/* A value from the environment can hold any byte: the message stays one
 * printable line. */
static void test_hostile_env(void **state)
{
	const char *env[] = { "NETIF=a\nb\x1b[31m", NULL };
	struct topology t;
	char err[256];
	(void)state;

	assert_int_equal(parse(NULL, env, &t, err), -EINVAL);
	assert_null(strchr(err, '\n'));
	assert_null(strchr(err, '\x1b'));
	assert_non_null(strstr(err, "NETIF 'a?b?[31m'"));
}

static void test_describe(void **state)
{
	struct topology t;
	char err[256], buf[512];
	(void)state;

	assert_int_equal(parse("NETIF=e\nLOCAL_V4=198.18.0.1\nREMOTE_V4=198.18.0.2\nREMOTE_TYPE=netns\nREMOTE_ARGS=p\n",
			       NULL, &t, err), 0);
	topology_describe(&t, buf, sizeof(buf));
	assert_string_equal(buf, "NETIF=e LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns REMOTE_ARGS=p");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_quotes_comments),
		cmocka_unit_test(test_env_and_file_wins),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_hostile_env),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
