/* --port-type auto on cabled ports (app/port_path.h): the path and its
 * reason from what the probe found, for a veth whose peer does or does
 * not take XDP frames, NIC drivers that send XDP frames always or only
 * with a program attached, a kernel without xdp-features, a port already
 * running someone's program, and AF_XDP zero-copy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "app/port_path.h"

static struct ifprobe port(const char *driver, enum ifprobe_ans native, uint64_t features, uint64_t attached)
{
	struct ifprobe p;

	memset(&p, 0, sizeof(p));
	snprintf(p.driver, sizeof(p.driver), "%s", driver);
	p.native_xdp = native;
	p.zerocopy = IFPROBE_NO;
	p.features_known = true;
	p.features = features;
	p.features_attached = attached;
	if (native != IFPROBE_YES)
		snprintf(p.native_why, sizeof(p.native_why), "attaching in driver mode: Operation not supported");
	return p;
}

static struct port_path_out choose(const struct ifprobe *tx, const struct ifprobe *rx, bool bidir)
{
	struct port_path_in in = { .tx_name = "eth1", .rx_name = "eth2", .tx = tx, .rx = rx, .live_frames = true,
				  .one_size_fits = true, .analyzer_on_tx = bidir };
	struct port_path_out out;

	app_port_path_choose(&in, &out);
	return out;
}

#define XMIT (IFPROBE_XDP_BASIC | IFPROBE_XDP_REDIRECT | IFPROBE_XDP_NDO_XMIT)
#define BASIC (IFPROBE_XDP_BASIC | IFPROBE_XDP_REDIRECT)

static void veth_peer(void **st)
{
	struct ifprobe a = port("veth", IFPROBE_YES, XMIT, XMIT), b = port("veth", IFPROBE_YES, BASIC, BASIC);
	struct port_path_out o;

	(void)st;
	o = choose(&a, &b, false);
	assert_int_equal(o.path, PORT_PATH_XDP);
	assert_false(o.hold_tx);
	assert_non_null(strstr(o.why, "driver veth has native XDP"));
	/* the peer takes none: a program on our end changes nothing */
	o = choose(&b, &a, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "peer of veth eth1 takes no XDP frames"));
	/* unless that peer is our own analyzer (cabled straight) */
	struct port_path_in in = { .tx_name = "eth1", .rx_name = "eth2", .tx = &b, .rx = &b, .live_frames = true,
				  .one_size_fits = true, .peer_is_rx = true };
	app_port_path_choose(&in, &o);
	assert_int_equal(o.path, PORT_PATH_XDP);
}

static void nic_drivers(void **st)
{
	struct ifprobe always = port("mlx5_core", IFPROBE_YES, XMIT, XMIT),
		       with_prog = port("ixgbe", IFPROBE_YES, BASIC, XMIT),
		       never = port("r8169", IFPROBE_NO, 0, 0);
	struct port_path_out o;

	(void)st;
	o = choose(&always, &always, false);
	assert_int_equal(o.path, PORT_PATH_XDP);
	assert_false(o.hold_tx);
	/* sends XDP frames only with a program on it: one is kept there,
	 * unless the reverse direction's analyzer already is */
	o = choose(&with_prog, &always, false);
	assert_int_equal(o.path, PORT_PATH_XDP);
	assert_true(o.hold_tx);
	o = choose(&with_prog, &always, true);
	assert_int_equal(o.path, PORT_PATH_XDP);
	assert_false(o.hold_tx);
	o = choose(&never, &always, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "driver r8169 on eth1 has no native XDP"));
	/* without xdp-features (Linux < 6.3): a NIC is trusted with a program
	 * held on it, a veth is not */
	always.features_known = false;
	o = choose(&always, &always, false);
	assert_int_equal(o.path, PORT_PATH_XDP);
	assert_true(o.hold_tx);
	struct ifprobe v = port("veth", IFPROBE_YES, 0, 0);

	v.features_known = false;
	o = choose(&v, &v, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "xdp-features"));
}

static void foreign_program(void **st)
{
	struct ifprobe a = port("mlx5_core", IFPROBE_YES, XMIT, 0), b = a;
	struct port_path_out o;

	(void)st;
	a.xdp_prog_id = 42;
	o = choose(&a, &b, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "eth1 has an XDP program attached already (id 42)"));
	o = choose(&b, &a, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "eth2 has an XDP program attached already"));
}

static void zerocopy(void **st)
{
	struct ifprobe a = port("foo", IFPROBE_NO, 0, 0), b = a;
	struct port_path_out o;

	(void)st;
	a.zerocopy = b.zerocopy = IFPROBE_YES;
	o = choose(&a, &b, false);
	assert_int_equal(o.path, PORT_PATH_AFXDP);
	assert_non_null(strstr(o.why, "zero-copy"));
	/* both ends or neither */
	b.zerocopy = IFPROBE_NO;
	o = choose(&a, &b, false);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "no AF_XDP zero-copy on eth2"));
}

static void trial_limits(void **st)
{
	struct ifprobe a = port("mlx5_core", IFPROBE_YES, XMIT, XMIT);
	struct port_path_in in = { .tx_name = "eth1", .rx_name = "eth2", .tx = &a, .rx = &a, .live_frames = true };
	struct port_path_out o;

	(void)st;
	app_port_path_choose(&in, &o);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "one frame size"));
	in.one_size_fits = true;
	in.live_frames = false;
	in.live_why = "no BPF_PROG_RUN live frames";
	app_port_path_choose(&in, &o);
	assert_int_equal(o.path, PORT_PATH_AFPACKET);
	assert_non_null(strstr(o.why, "no BPF_PROG_RUN live frames"));
	assert_string_equal(app_port_path_name(PORT_PATH_AFXDP), "afxdp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(veth_peer),
		cmocka_unit_test(nic_drivers),
		cmocka_unit_test(foreign_program),
		cmocka_unit_test(zerocopy),
		cmocka_unit_test(trial_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
