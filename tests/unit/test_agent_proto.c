/* The agent protocol: encoding and decoding of its messages, and the
 * agent's loop fed from a pipe (no root: a snapshot of this host's /proc
 * and of the loopback interface). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dut/agent.h"
#include "dut/agent_proto.h"
#include "dut/envcap.h"
#include "dut/soak.h"

static char err[256];

static void snap_round_trip(void **st)
{
	static struct dutsnap a, b;
	json_object *o = json_object_new_object(), *p;
	size_t n;
	char *line;

	memset(&a, 0, sizeof(a));
	a.t_ns = 123456789012345ull;
	a.proc_stat = strdup("cpu  1 2 3 4\ncpu0 1 2 3 4\n");
	a.proc_softnet = strdup("00000001 00000002\n");
	a.stack.present = true;
	a.stack.ip_in_no_routes = 7;
	a.stack.icmp6_out_time_excds = UINT64_MAX;	/* counters are 64-bit end to end */
	a.nif = 2;
	snprintf(a.ifs[0].name, sizeof(a.ifs[0].name), "eth1");
	a.ifs[0].present = true;
	a.ifs[0].rx_missed = 99;
	a.ifs[0].have_xdp = true;
	a.ifs[0].xdp_drops = 5;
	a.ifs[0].nqueue = 2;
	a.ifs[0].queue[1].packets = 1000;
	a.ifs[0].queue[1].ring_drops = 17;
	a.ifs[0].queue[0].xdp_drops = 5;
	snprintf(a.ifs[1].name, sizeof(a.ifs[1].name), "eth2");
	a.nqdisc = 1;
	snprintf(a.qdisc[0].dev, sizeof(a.qdisc[0].dev), "eth2");
	snprintf(a.qdisc[0].kind, sizeof(a.qdisc[0].kind), "tbf");
	a.qdisc[0].handle = 0x10000;
	a.qdisc[0].parent = 0xffffffff;
	a.qdisc[0].drops = 59879;
	a.nnft = 1;
	snprintf(a.nft[0].table, sizeof(a.nft[0].table), "filter");
	a.nft[0].packets = 42;
	agent_proto_put_snap(o, &a);
	line = agent_proto_line(o, &n);
	assert_non_null(line);
	assert_int_equal(line[n - 1], '\n');
	assert_null(memchr(line, '\n', n - 1));		/* one line */
	p = agent_proto_parse(line, n, err, sizeof(err));
	assert_non_null(p);
	assert_int_equal(agent_proto_get_snap(p, &b, err, sizeof(err)), 0);
	assert_true(b.t_ns == a.t_ns);
	assert_string_equal(b.proc_stat, a.proc_stat);
	assert_string_equal(b.proc_softnet, a.proc_softnet);
	assert_null(b.proc_interrupts);
	assert_true(b.stack.present);
	assert_true(b.stack.ip_in_no_routes == 7);
	assert_true(b.stack.icmp6_out_time_excds == UINT64_MAX);
	assert_int_equal(b.nif, 2);
	assert_string_equal(b.ifs[0].name, "eth1");
	assert_true(b.ifs[0].present && !b.ifs[1].present && b.ifs[0].have_xdp);
	assert_true(b.ifs[0].rx_missed == 99 && b.ifs[0].xdp_drops == 5);
	/* per receive queue, in order; none for an interface without */
	assert_int_equal(b.ifs[0].nqueue, 2);
	assert_true(b.ifs[0].queue[1].packets == 1000 && b.ifs[0].queue[1].ring_drops == 17 &&
		    b.ifs[0].queue[0].xdp_drops == 5 && b.ifs[0].queue[0].packets == 0);
	assert_int_equal(b.ifs[1].nqueue, 0);
	assert_int_equal(b.nqdisc, 1);
	assert_string_equal(b.qdisc[0].kind, "tbf");
	assert_true(b.qdisc[0].handle == 0x10000 && b.qdisc[0].parent == 0xffffffff && b.qdisc[0].drops == 59879);
	assert_true(b.nnft == 1 && b.nft[0].packets == 42);
	assert_ptr_equal(dutsnap_if_find(&b, "eth2"), &b.ifs[1]);
	assert_null(dutsnap_if_find(&b, "eth3"));
	free(line);
	json_object_put(o);
	json_object_put(p);
	dutsnap_clear(&a);
	dutsnap_clear(&b);
}

static json_object *parse(const char *s)
{
	return agent_proto_parse(s, strlen(s), err, sizeof(err));
}

/* Whether agent_proto_parse takes s (the object freed). */
static int parses(const char *s, size_t n)
{
	json_object *o = agent_proto_parse(s, n, err, sizeof(err));

	json_object_put(o);
	return o != NULL;
}

/* An answer that would make the parser build far more than its size:
 * refused on its bytes, with a reason; strings do not count. */
static void amplification(void **st)
{
	size_t n = 3 * 20000 + 64, o = 0;
	char *line = malloc(n);

	(void)st;
	assert_non_null(line);
	o += (size_t)snprintf(line, n, "{\"x\":[");
	for (int i = 0; i < 20000; i++)
		o += (size_t)snprintf(line + o, n - o, "%s{}", i ? "," : "");
	o += (size_t)snprintf(line + o, n - o, "]}");
	err[0] = 0;
	assert_null(agent_proto_parse(line, o, err, sizeof(err)));
	assert_non_null(strstr(err, "objects and arrays"));
	/* numbers: one value each */
	o = (size_t)snprintf(line, n, "{\"x\":[");
	for (int i = 0; i < 30000 && o + 12 < n; i++)
		o += (size_t)snprintf(line + o, n - o, "%s1", i ? "," : "");
	o += (size_t)snprintf(line + o, n - o, "]}");
	assert_true(parses(line, o));
	free(line);
	/* braces inside a string are text, not objects */
	{
		size_t m = 20000 * 2 + 32;
		char *s = malloc(m);

		assert_non_null(s);
		o = (size_t)snprintf(s, m, "{\"x\":\"");
		for (int i = 0; i < 20000; i++)
			s[o++] = i % 2 ? '}' : '{';
		o += (size_t)snprintf(s + o, m - o, "\"}");
		assert_true(parses(s, o));
		free(s);
	}
}

/* An agent's env: its "name" never replaces the tester's; a flood of keys
 * takes at most ENVCAP_DUT_MAX slots and says how many it lost. */
static void env_hostile(void **st)
{
	static struct envcap e;
	json_object *o = json_object_new_object(), *x = json_object_new_object();
	char k[32];

	(void)st;
	json_object_object_add(x, "name", json_object_new_string("ssh:spoofed-dut"));
	for (int i = 0; i < 256; i++) {
		snprintf(k, sizeof(k), "k%03d", i);
		json_object_object_add(x, k, json_object_new_string("v"));
	}
	json_object_object_add(o, "env", x);
	memset(&e, 0, sizeof(e));
	envcap_kv_set(&e, "run.message_size", "1025");
	agent_proto_get_env(o, "env", "dut.", &e);
	assert_null(envcap_kv_get(&e, "dut.name"));
	assert_non_null(envcap_kv_get(&e, "dut.k000"));
	assert_null(envcap_kv_get(&e, "dut.k255"));
	assert_int_equal(e.n, 1 + (ENVCAP_DUT_MAX - 2) + 1);
	assert_string_equal(envcap_kv_get(&e, "dut.env_dropped"), "131");	/* name + 130 past the bound */
	/* the tester's keys still fit */
	for (int i = 0; i < 256 - 1; i++) {
		snprintf(k, sizeof(k), "run.t%03d", i);
		envcap_kv_set(&e, k, "x");
	}
	assert_non_null(envcap_kv_get(&e, "run.t254"));
	assert_string_equal(envcap_kv_get(&e, "run.message_size"), "1025");
	json_object_put(o);
}

/* What another host may send: never a crash, and a reason. */
static void hostile(void **st)
{
	static struct dutsnap s;
	static struct soak_calib_busy l;
	static struct envcap e;
	const char *bad[] = { "", "x", "[1,2]", "{\"a\":", "{} {}", "\"s\"", "{\"a\":1}garbage",
			      "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]" };
	json_object *o;
	char big[300];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_null(agent_proto_parse(bad[i], strlen(bad[i]), err, sizeof(err)));
		assert_true(err[0]);
	}
	/* no /proc texts: refused; wrong types: zero */
	o = parse("{\"proc\":{}}");
	assert_int_equal(agent_proto_get_snap(o, &s, err, sizeof(err)), -EPROTO);
	json_object_put(o);
	o = parse("{\"proc\":{\"stat\":\"cpu 1\"},\"t_ns\":-5,\"ifaces\":[1,{\"name\":7,\"rx_packets\":\"9\"}],"
			     "\"qdiscs\":{},\"nft\":null}");
	assert_non_null(o);
	assert_int_equal(agent_proto_get_snap(o, &s, err, sizeof(err)), 0);
	assert_int_equal(s.nif, 2);
	assert_string_equal(s.ifs[1].name, "");
	assert_true(s.ifs[1].rx_packets == 0);
	assert_int_equal(s.nqdisc, 0);
	dutsnap_clear(&s);
	json_object_put(o);
	/* queues: not an array, junk elements, more than are kept */
	{
		char many[4096] = "{\"proc\":{\"stat\":\"cpu 1\"},\"ifaces\":[{\"queues\":{}},{\"queues\":[7,{\"packets\":\"x\"}";

		for (int k = 0; k < 40; k++)
			strcat(many, ",{\"packets\":3}");
		strcat(many, "]}]}");
		o = parse(many);
		assert_non_null(o);
		assert_int_equal(agent_proto_get_snap(o, &s, err, sizeof(err)), 0);
		assert_int_equal(s.ifs[0].nqueue, 0);
		assert_int_equal(s.ifs[1].nqueue, DUTSNAP_QUEUE_MAX);
		assert_true(s.ifs[1].queue[0].packets == 0 && s.ifs[1].queue[2].packets == 3);
		dutsnap_clear(&s);
		json_object_put(o);
	}
	/* a load outside [0, 1] is clamped and said to be */
	o = parse("{\"cpus\":[{\"cpu\":1,\"load\":7.5},{\"cpu\":2,\"load\":-1}]}");
	assert_non_null(o);
	agent_proto_get_load(o, &l);
	assert_int_equal(l.n, 2);
	assert_true(l.load[0] == 1 && l.load[1] == 0 && l.clamped);
	json_object_put(o);
	/* a key that would not fit whole is dropped, not cut */
	memset(big, 'k', sizeof(big));
	snprintf(big, sizeof(big), "{\"env\":{\"%0200d\":\"v\",\"kernel.release\":\"6.1\"}}", 0);
	o = agent_proto_parse(big, strlen(big), err, sizeof(err));
	assert_non_null(o);
	memset(&e, 0, sizeof(e));
	agent_proto_get_env(o, "env", "dut.", &e);
	assert_int_equal(e.n, 2);
	assert_string_equal(envcap_kv_get(&e, "dut.kernel.release"), "6.1");
	assert_string_equal(envcap_kv_get(&e, "dut.env_dropped"), "1");
	json_object_put(o);
}

/* Requests written to a pipe, the agent run on it, its answers read. */
static char *serve(const char *requests)
{
	int in[2], out[2], rc;
	static volatile sig_atomic_t stop;
	char *buf = calloc(1, 1 << 20);
	ssize_t n, off = 0;

	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(write(in[1], requests, strlen(requests)), (ssize_t)strlen(requests));
	close(in[1]);
	rc = agent_serve(in[0], out[1], &(struct agent_cfg){ 0 }, &stop, err, sizeof(err));
	assert_int_equal(rc, 0);
	close(in[0]);
	close(out[1]);
	while ((n = read(out[0], buf + off, (1 << 20) - 1 - off)) > 0)
		off += n;
	close(out[0]);
	return buf;
}

static void agent_loop(void **st)
{
	char *a = serve("{\"op\":\"snapshot\"}\n"
			"{\"op\":\"hello\",\"version\":99}\n"
			"{\"op\":\"hello\",\"version\":1,\"ifaces\":[\"lo\"]}\n"
			"{\"op\":\"snapshot\"}\n"
			"{\"op\":\"hello\",\"version\":1,\"ifaces\":[\"../../etc\"]}\n"
			"not json\n"
			"{\"op\":\"reboot\"}\n"
			"{\"op\":\"soak_read\"}\n"
			"{\"op\":\"apply\",\"placement\":\"sideways\"}\n"
			"{\"op\":\"bye\"}\n"
			"{\"op\":\"snapshot\"}\n");
	char *line[16], *save = NULL;
	int n = 0;

	for (char *t = strtok_r(a, "\n", &save); t && n < 16; t = strtok_r(NULL, "\n", &save))
		line[n++] = t;
	/* one answer per request up to bye, none after it */
	assert_int_equal(n, 10);
	assert_non_null(strstr(line[0], "say hello first"));
	assert_non_null(strstr(line[1], "\"version\":1"));
	assert_non_null(strstr(line[1], "\"ok\":false"));
	assert_non_null(strstr(line[2], "\"ok\":true"));
	assert_non_null(strstr(line[2], "kernel.release"));
	assert_non_null(strstr(line[3], "\"name\":\"lo\",\"present\":true"));
	assert_non_null(strstr(line[3], "\"stat\":\"cpu "));
	assert_non_null(strstr(line[4], "not valid"));
	assert_non_null(strstr(line[5], "not a JSON object"));
	assert_non_null(strstr(line[6], "unknown op"));
	assert_non_null(strstr(line[7], "no soak is running"));
	assert_non_null(strstr(line[8], "placement must be"));
	assert_string_equal(line[9], "{\"ok\":true}");
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(snap_round_trip),
		cmocka_unit_test(hostile),
		cmocka_unit_test(env_hostile),
		cmocka_unit_test(amplification),
		cmocka_unit_test(agent_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
