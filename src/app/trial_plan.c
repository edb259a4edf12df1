/* The parsed options resolved against the host: the lab's namespaces and
 * lock, or cabled interfaces (IF@NETNS); the ports' addresses, the link
 * speed, the frames/s of the rate, the generator's path; then the whole
 * trial checked. src/cli/trial_opts.c parses the options. */
#include "app/trial_plan.h"
#include "app/trial_dut.h"
#include "core/errmsg.h"
#include "app/port_path.h"
#include "io/xdpcount.h"
#include "io/xdpgen.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "core/ns.h"
#include "os/ifinfo.h"
#include "os/ifprobe.h"
#include "os/neighsock.h"
#include "os/netns.h"
#include "os/netroute.h"
/* "IF" or "IF@NETNS": split off a named namespace and open it. */
static int split_port(char *spec, const char *opt, int *nsfd, char *err, size_t errlen)
{
	char *at = strchr(spec, '@');

	*nsfd = -1;
	if ((at ? (size_t)(at - spec) : strlen(spec)) >= IF_NAMESIZE) {
		snprintf(err, errlen, "%s '%s': interface names are at most %d characters", opt, spec, IF_NAMESIZE - 1);
		return -EINVAL;
	}
	if (!at)
		return 0;
	*at = '\0';
	if ((*nsfd = netns_open(at + 1)) < 0) {
		snprintf(err, errlen, "%s %s@%s: no network namespace '%s'", opt, spec, at + 1, at + 1);
		return -EINVAL;
	}
	return 0;
}

static void set_spec(struct frame_spec *s, bool v6, const uint8_t src_mac[6], const uint8_t dst_mac[6],
		     const uint8_t *src_ip, const uint8_t *dst_ip)
{
	frame_spec_init(s, v6 ? FRAME_IPV6 : FRAME_IPV4);
	memcpy(s->src_mac, src_mac, 6);
	memcpy(s->dst_mac, dst_mac, 6);
	memset(s->src_ip, 0, 16);
	memset(s->dst_ip, 0, 16);
	memcpy(s->src_ip, src_ip, v6 ? 16 : 4);
	memcpy(s->dst_ip, dst_ip, v6 ? 16 : 4);
}

/* The directions over the port pairs: pair p's forward one, and with
 * --bidir its way back after it. peer (may be NULL) gives the far end of
 * each receive port, whose transmit drops are what that port's ring
 * refused. */
static void set_dirs(struct trial_setup *o, const char *const *peer, int peer_nsfd)
{
	struct trial_cfg *c = &o->plan.cfg;
	unsigned int per = o->req.bidir ? 2 : 1;

	c->ndirs = o->plan.nports * per;
	for (unsigned int p = 0; p < o->plan.nports; p++) {
		const struct trial_port *t = &o->plan.port[p];

		for (unsigned int b = 0; b < per; b++) {
			struct trial_dir *d = &c->dir[p * per + b];
			char label[sizeof(o->plan.dir_label[0])];

			*d = (struct trial_dir){ .path = p, .back = b, .tx_if = b ? t->rx_name : t->tx_name,
						 .tx_nsfd = b ? t->rx_nsfd : t->tx_nsfd,
						 .rx_if = b ? t->tx_name : t->rx_name,
						 .rx_nsfd = b ? t->tx_nsfd : t->rx_nsfd, .direct = o->plan.direct,
						 .rx_peer_if = peer ? peer[2 * p + !b] : NULL,
						 .rx_peer_nsfd = peer_nsfd };
			set_spec(&d->spec, o->plan.ipv6, b ? t->rx_mac : t->tx_mac, b ? t->rx_dst_mac : t->dst_mac,
				 b ? t->dst_ip : t->src_ip, b ? t->src_ip : t->dst_ip);
			snprintf(label, sizeof(label), "%s -> DUT -> %s", b ? t->rx_if : t->tx_if,
				 b ? t->tx_if : t->rx_if);
			memcpy(o->plan.dir_label[p * per + b], label, sizeof(label));
		}
	}
}

static int resolve_lab(struct trial_setup *o, char *err, size_t errlen)
{
	struct trial_cfg *c = &o->plan.cfg;
	const char *peer[2 * TRIAL_MAX_PORTS];
	struct lab_status st;
	char name[NETNS_NAME_MAX], dut[32];
	bool napi = true;
	int rc;

	/* the lab is this run's alone until app_trial_plan_release */
	if ((rc = lab_status_lock(o->plan.prefix, o->plan.direct ? "calibrate" : "a trial or search", false, &o->ses.lab_lock, err, errlen)))
		return rc == -EBUSY ? -EBUSY : rc;
	if ((rc = lab_status(o->plan.prefix, &st, err, errlen)))
		return rc;
	if (!st.complete) {
		char pa[LAB_PREFIX_MAX + 12];

		snprintf(err, errlen, "the lab %s is %s: run 'wirerate lab up%s' (or give --tx and --rx)",
			 o->plan.prefix, st.exists ? "half-built" : "not up", lab_prefix_arg(o->plan.prefix, pa, sizeof(pa)));
		/* no lab, no lock file left for it */
		if (!st.exists)
			lab_status_unlock(&o->ses.lab_lock, o->plan.prefix);
		return -ENOENT;
	}
	for (int r = 0; r < 3; r++) {
		/* a VM lab's DUT is no namespace of ours */
		if (r == 2 && st.vm.on) {
			o->ses.nsfd[r] = -1;
			continue;
		}
		lab_ns_name(o->plan.prefix, r == 2 ? LAB_DUT : r ? LAB_SINK : LAB_GEN, name, sizeof(name));
		if ((o->ses.nsfd[r] = netns_open(name)) < 0) {
			snprintf(err, errlen, "cannot open namespace %s", name);
			return -ENOENT;
		}
	}
	/* Every path of the lab at once (lab up --ports N); calibrate sends
	 * on a pair of its own. What the tester's receive ring refuses, veth
	 * counts at the DUT's transmit: the DUT's port on the other end tells
	 * the tester's loss. */
	o->plan.nports = o->plan.direct || !st.ports ? 1 : st.ports > TRIAL_MAX_PORTS ? TRIAL_MAX_PORTS : st.ports;
	for (unsigned int p = 0; p < o->plan.nports; p++) {
		const struct lab_addr *g = lab_path_if(p, LAB_GEN0), *d0 = lab_path_if(p, LAB_DUT0),
				      *d1 = lab_path_if(p, LAB_DUT1), *s = lab_path_if(p, LAB_SINK0);
		struct trial_port *t = &o->plan.port[p];

		snprintf(t->tx_if, sizeof(t->tx_if), "%s", g->ifname);
		snprintf(t->rx_if, sizeof(t->rx_if), "%s", s->ifname);
		snprintf(t->tx_name, sizeof(t->tx_name), "%s", g->ifname);
		snprintf(t->rx_name, sizeof(t->rx_name), "%s", s->ifname);
		t->tx_nsfd = o->ses.nsfd[0];
		t->rx_nsfd = o->ses.nsfd[1];
		memcpy(t->tx_mac, g->mac, 6);
		memcpy(t->rx_mac, s->mac, 6);
		memcpy(t->dst_mac, d0->mac, 6);
		memcpy(t->rx_dst_mac, d1->mac, 6);
		memset(t->src_ip, 0, 16);
		memset(t->dst_ip, 0, 16);
		memcpy(t->src_ip, o->plan.ipv6 ? g->ip6 : g->ip, o->plan.ipv6 ? 16 : 4);
		memcpy(t->dst_ip, o->plan.ipv6 ? s->ip6 : s->ip, o->plan.ipv6 ? 16 : 4);
		peer[2 * p] = d0->ifname;
		peer[2 * p + 1] = d1->ifname;
		napi = napi && st.ifs[p * LAB_NIFS + LAB_DUT0].link.xdp_prog_id &&
		       st.ifs[p * LAB_NIFS + LAB_DUT1].link.xdp_prog_id;
	}
	/* A VM's ports are the guest's: their counters come from its agent. */
	set_dirs(o, st.vm.on ? NULL : peer, o->ses.nsfd[2]);
	if (st.vm.on)
		napi = false;
	/* The tester stays off the DUT's CPUs. */
	if (cpuset_count(&st.tester_cpus)) {
		int first = cpuset_nth(&st.tester_cpus, 0), last = first;

		for (int x = first; x >= 0; x = cpuset_next(&st.tester_cpus, (unsigned)x + 1))
			last = x;
		if (c->gen_cpu[0] < 0)
			c->gen_cpu[0] = first;
		if (c->rx_cpu < 0)
			c->rx_cpu = last;
	}
	o->plan.lab_napi = napi;
	o->plan.lab_vm = st.vm.on;
	o->plan.lab_queues = st.queues;
	cpuset_format_list(&st.dut_cpus, dut, sizeof(dut));
	if (!cpuset_count(&o->plan.watch))
		o->plan.watch = st.dut_cpus;
	if (st.vm.on)
		snprintf(o->plan.where, sizeof(o->plan.where), "through lab %s (VM: kernel %s, %s, %u vCPU%s, placement %s, %d rules%s",
			 o->plan.prefix, st.vm.release, st.vm.accel, st.vm.vcpus, st.vm.vcpus == 1 ? "" : "s",
			 lab_placement_name(st.placement), st.rules < 0 ? 0 : st.rules,
			 strcmp(st.shape.kind, "tbf") ? "" : ", shaped");
	else
		snprintf(o->plan.where, sizeof(o->plan.where), "through lab %s (DUT CPU %s, placement %s, %d rules%s", o->plan.prefix, dut,
			 lab_placement_name(st.placement), st.rules < 0 ? 0 : st.rules,
			 strcmp(st.shape.kind, "tbf") ? "" : ", shaped");
	if (o->plan.nports > 1)
		snprintf(o->plan.where + strlen(o->plan.where), sizeof(o->plan.where) - strlen(o->plan.where), ", %u ports", o->plan.nports);
	snprintf(o->plan.where + strlen(o->plan.where), sizeof(o->plan.where) - strlen(o->plan.where), ")");
	return 0;
}

/* Test traffic does not leave by the interface that carries the host's
 * own (the one with a default route in its namespace) unless asked:
 * a rate meant for a DUT would flood the uplink. */
static int check_uplink(const char *opt, const char *spec, const char *ifname, int nsfd,
			char *err, size_t errlen)
{
	int saved = -1, family = 0, rc;

	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "%s %s: cannot enter its namespace: %s", opt, spec, strerror(-rc));
		return rc;
	}
	rc = netroute_default_on(NULL, ifname, &family);
	if (nsfd >= 0)
		netns_leave(&saved);
	if (rc) {
		snprintf(err, errlen, "%s %s: cannot read the routes: %s", opt, spec, strerror(-rc));
		return rc;
	}
	if (!family)
		return 0;
	snprintf(err, errlen, "%s %s holds the %s default route: give --allow-any-address to send there anyway",
		 opt, spec, family == AF_INET ? "IPv4" : "IPv6");
	return -EINVAL;
}

/* Next hop resolution: up to this many requests, each waiting this long
 * for its answer (a DUT port answers in well under a millisecond; a second
 * covers one whose ARP or ND runs late, three a lost frame or two). */
#define NEXTHOP_TRIES 3
#define NEXTHOP_WAIT_NS NSEC_PER_SEC

/* --next-hop (k 0: asked on --tx from --src-ip) or --rx-next-hop (k 1: on
 * --rx from --dst-ip) into the MAC the frames of that direction go to. */
static int resolve_next_hop(struct trial_setup *o, int k, const uint8_t port_mac[6], char *err, size_t errlen)
{
	struct trial_nexthop *nh = &o->plan.nh[k];
	struct neighsock_req q = { .nsfd = o->ses.nsfd[k], .ifname = k ? o->plan.rx_name : o->plan.tx_name, .mac = port_mac,
				   .v6 = nh->v6, .sender = k ? o->plan.dst_ip : o->plan.src_ip, .target = nh->ip,
				   .tries = NEXTHOP_TRIES, .wait_ns = NEXTHOP_WAIT_NS };
	const char *name = k ? "--rx-next-hop" : "--next-hop", *port = k ? o->plan.rx_if : o->plan.tx_if;
	struct neighsock_res r;
	char a[INET6_ADDRSTRLEN], why[256];
	int rc;

	inet_ntop(nh->v6 ? AF_INET6 : AF_INET, nh->ip, a, sizeof(a));
	rc = neighsock_resolve(&q, &r, why, sizeof(why));
	if (rc == -ETIMEDOUT) {
		snprintf(err, errlen, "%s %s: no answer on %s to %u %s in %.0f s (is the DUT's port up, cabled to "
			 "%s, and does it hold %s?)", name, a, port, r.tries, nh->v6 ? "neighbour solicitations" :
			 "ARP requests", (double)NEXTHOP_TRIES * NEXTHOP_WAIT_NS / NSEC_PER_SEC, port, a);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "%s %s on %s: %s", name, a, port, why);
		return errmsg_host(rc);
	}
	memcpy(k ? o->plan.rx_dst_mac : o->plan.dst_mac, r.mac, 6);
	*(k ? &o->req.rx_dst_mac_set : &o->req.dst_mac_set) = true;
	memcpy(nh->mac, r.mac, 6);
	nh->resolved = true;
	nh->ms = (double)r.rtt_ns / NSEC_PER_MSEC;
	nh->tries = r.tries;
	return 0;
}

/* Port pair p of --tx/--rx: its namespaces, its MACs, the MACs of the
 * DUT's ports it sends to (given, asked with --next-hop on pair 0, or
 * the far port's own when cabled straight), and no uplink among them. */
static int resolve_pair(struct trial_setup *o, unsigned int p, char *err, size_t errlen)
{
	struct trial_port *t = &o->plan.port[p];
	bool dst_set = p ? o->req.ndst_mac > p : o->req.dst_mac_set, rx_dst_set = p ? o->req.nrx_dst_mac > p : o->req.rx_dst_mac_set;
	int rc;

	_Static_assert(sizeof(t->tx_name) == sizeof(t->tx_if), "names as given");
	memcpy(t->tx_name, t->tx_if, sizeof(t->tx_name));
	memcpy(t->rx_name, t->rx_if, sizeof(t->rx_name));
	if ((rc = split_port(t->tx_name, "--tx", &t->tx_nsfd, err, errlen)) ||
	    (rc = split_port(t->rx_name, "--rx", &t->rx_nsfd, err, errlen)))
		return rc;
	if (!p) {
		/* the single-port code's view of pair 0; closed by app_trial_plan_release */
		o->ses.nsfd[0] = t->tx_nsfd;
		o->ses.nsfd[1] = t->rx_nsfd;
		snprintf(o->plan.tx_name, sizeof(o->plan.tx_name), "%s", t->tx_name);
		snprintf(o->plan.rx_name, sizeof(o->plan.rx_name), "%s", t->rx_name);
	}
	if ((rc = ifinfo_mac(t->tx_nsfd, t->tx_name, t->tx_mac))) {
		snprintf(err, errlen, "--tx %s: no such interface", t->tx_if);
		return -EINVAL;
	}
	if ((rc = ifinfo_mac(t->rx_nsfd, t->rx_name, t->rx_mac))) {
		snprintf(err, errlen, "--rx %s: no such interface", t->rx_if);
		return -EINVAL;
	}
	if (o->plan.direct && (o->plan.nh[0].set || o->plan.nh[1].set)) {
		snprintf(err, errlen, "%s: calibrate cables the ports straight, there is no DUT to ask",
			 o->plan.nh[0].set ? "--next-hop" : "--rx-next-hop");
		return -EINVAL;
	}
	if (!dst_set && o->plan.direct) {
		memcpy(t->dst_mac, t->rx_mac, 6);
		dst_set = true;
	}
	if (o->req.bidir && !rx_dst_set && o->plan.direct) {
		memcpy(t->rx_dst_mac, t->tx_mac, 6);
		rx_dst_set = true;
	}
	if (!dst_set && !(p == 0 && o->plan.nh[0].set)) {
		snprintf(err, errlen, "--tx %s needs the MAC of the DUT's port it is cabled to: give --dst-mac%s",
			 t->tx_if, o->plan.nports > 1 ? " (one for each --tx port)" : ", or --next-hop and --src-ip to ask for it");
		return -EINVAL;
	}
	if (o->req.bidir && !rx_dst_set && !(p == 0 && o->plan.nh[1].set)) {
		snprintf(err, errlen, "--bidir with --rx needs the MAC of the DUT's port on %s: give --rx-dst-mac%s",
			 t->rx_if, o->plan.nports > 1 ? " (one for each --rx port)" : ", or --rx-next-hop and --dst-ip to ask for it");
		return -EINVAL;
	}
	if (!o->req.allow_any &&
	    ((rc = check_uplink("--tx", t->tx_if, t->tx_name, t->tx_nsfd, err, errlen)) ||
	     (o->req.bidir && (rc = check_uplink("--rx", t->rx_if, t->rx_name, t->rx_nsfd, err, errlen)))))
		return rc;
	if (p)
		return 0;
	/* asked only once the ports are known to be no uplink */
	if ((o->plan.nh[0].set && (rc = resolve_next_hop(o, 0, t->tx_mac, err, errlen))) ||
	    (o->plan.nh[1].set && (rc = resolve_next_hop(o, 1, t->rx_mac, err, errlen))))
		return rc;
	if (o->req.dst_mac_set)
		memcpy(t->dst_mac, o->plan.dst_mac, 6);
	if (o->req.rx_dst_mac_set)
		memcpy(t->rx_dst_mac, o->plan.rx_dst_mac, 6);
	memcpy(o->plan.dst_mac, t->dst_mac, 6);
	memcpy(o->plan.rx_dst_mac, t->rx_dst_mac, 6);
	return 0;
}

static int resolve_ports(struct trial_setup *o, char *err, size_t errlen)
{
	int rc;

	for (unsigned int p = 0; p < o->plan.nports; p++)
		if ((rc = resolve_pair(o, p, err, errlen)))
			return rc;
	set_dirs(o, NULL, -1);
	if (!o->req.line_set) {
		unsigned int mbps = 0;

		/* none known (veth): 0, and % rates are refused */
		ifinfo_speed(o->ses.nsfd[0], o->plan.tx_name, &mbps);
		o->plan.line_bps = mbps * 1e6;
	}
	snprintf(o->plan.where, sizeof(o->plan.where), "on %s -> %s", o->plan.tx_given ? o->plan.tx_given : o->plan.tx_if,
		 o->plan.rx_given ? o->plan.rx_given : o->plan.rx_if);
	return 0;
}

static const char *app_trial_path_asked(const struct trial_setup *o);

/* auto on cabled ports: what the ports offer (os/ifprobe: native XDP
 * tried for real, AF_XDP zero-copy bound for real), decided by
 * app/port_path. A port that cannot be probed keeps AF_PACKET. */
static void choose_cabled(struct trial_setup *o, bool fits)
{
	struct trial_cfg *c = &o->plan.cfg;
	bool same = !strcmp(o->plan.tx_if, o->plan.rx_if);
	struct ifprobe tp, rp;
	struct port_path_out out;
	char why[256], live[200];
	int rc;

	if ((rc = ifprobe_run(o->ses.nsfd[0], o->plan.tx_name, &tp, why, sizeof(why))) ||
	    (!same && (rc = ifprobe_run(o->ses.nsfd[1], o->plan.rx_name, &rp, why, sizeof(why))))) {
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: the ports could not be probed (%s)", why);
		return;
	}
	live[0] = '\0';
	struct port_path_in in = {
		.tx_name = o->plan.tx_if, .rx_name = o->plan.rx_if, .tx = &tp, .rx = same ? &tp : &rp,
		.live_frames = !xdpgen_probe(live, sizeof(live)), .live_why = live, .one_size_fits = fits,
		.analyzer_on_tx = same || c->ndirs == 2, .peer_is_rx = o->plan.direct,
	};
	app_port_path_choose(&in, &out);
	snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: %s", out.why);
	if (out.path == PORT_PATH_AFXDP)
		c->port_type = PORT_AFXDP;
	if (out.path != PORT_PATH_XDP)
		return;
	/* auto never fails a run: without the program it needs, AF_PACKET */
	if (out.hold_tx && (o->ses.xdp_hold_fd = ifprobe_xdp_hold(o->ses.nsfd[0], o->plan.tx_name, why, sizeof(why))) < 0) {
		o->ses.xdp_hold_fd = -1;
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: the XDP path needs a program on %s to send, and "
			 "%s", o->plan.tx_if, why);
		return;
	}
	c->xdp_gen = c->xdp_rx = true;
}

/* The ports: by hand, or the fastest that works here. The XDP path (the
 * generator and the analyzer in XDP) needs XDP on the far end of the
 * generator's port (the lab DUT in NAPI mode, a cabled port's peer or
 * NIC that takes XDP frames, or our own analyzer when cabled straight),
 * one frame size, and frames that fit a page. */
static int choose_path(struct trial_setup *o, char *err, size_t errlen)
{
	struct trial_cfg *c = &o->plan.cfg;
	bool fits = c->nsizes == 1 && c->sizes[0] <= XDPGEN_FRAME_MAX + FRAME_FCS_LEN &&
		    c->rate_pps * (double)c->duration_ns / NSEC_PER_SEC <= (double)XDPCOUNT_MAX_FRAMES;
	char why[256];
	int rc;

	snprintf(o->plan.path_why, sizeof(o->plan.path_why), "--port-type %s", app_trial_path_asked(o));
	switch (o->plan.path) {
	case TRIAL_PATH_XDP:
		if ((rc = xdpgen_probe(why, sizeof(why)))) {
			snprintf(err, errlen, "--port-type xdp: %s", why);
			return rc;
		}
		c->xdp_gen = c->xdp_rx = true;
		return 0;
	case TRIAL_PATH_AFXDP:
		c->port_type = PORT_AFXDP;
		return 0;
	case TRIAL_PATH_AFPACKET:
		c->port_type = PORT_AFPACKET;
		return 0;
	case TRIAL_PATH_MMSG:
		c->port_type = PORT_AFPACKET_MMSG;
		return 0;
	}
	c->port_type = PORT_AFPACKET;
	if (!o->plan.lab && o->plan.nports > 1) {
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: several cabled port pairs are probed one by one "
			 "only with --port-type; AF_PACKET works on any");
		return 0;
	}
	if (!o->plan.lab) {
		choose_cabled(o, fits);
		return 0;
	}
	if (!o->plan.lab_napi && !o->plan.lab_vm) {
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: the lab's DUT ports run no XDP (it was "
			 "brought up with --no-xdp, or the kernel could not)");
	} else if (!fits) {
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: the XDP path sends one frame size up to a page");
	} else if (xdpgen_probe(why, sizeof(why))) {
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), "auto: the XDP generator does not run here (%s)", why);
	} else {
		/* A tap takes XDP frames as a NIC takes them off the wire: what
		 * the VM does not read in time it drops, and counts. */
		snprintf(o->plan.path_why, sizeof(o->plan.path_why), o->plan.lab_vm ?
			 "auto: the VM's taps take XDP frames and drop what it does not read in time, as a NIC does" :
			 "auto: the lab's DUT ports run XDP (NAPI mode)");
		c->xdp_gen = c->xdp_rx = true;
	}
	return 0;
}

int app_trial_plan_resolve(struct trial_setup *o, char *err, size_t errlen)
{
	struct trial_cfg *c = &o->plan.cfg;
	double avg = 0;
	int rc;

	rc = o->plan.lab ? resolve_lab(o, err, errlen) : resolve_ports(o, err, errlen);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < c->nsizes; i++)
		avg += c->sizes[i] / (double)c->nsizes;
	switch (o->plan.rate.kind) {
	case RATE_PPS:
		c->rate_pps = o->plan.rate.value;
		break;
	case RATE_BPS:
		c->rate_pps = o->plan.rate.value / ((avg + 20) * 8);
		break;
	case RATE_PCT:
		if (o->plan.line_bps <= 0) {
			snprintf(err, errlen, "--rate %g%%: no line rate known here (veth has none): give --line-rate, e.g. 1G",
				 o->plan.rate.value);
			return -EINVAL;
		}
		c->rate_pps = o->plan.rate.value / 100.0 * o->plan.line_bps / ((avg + 20) * 8);
		break;
	}
	if ((rc = choose_path(o, err, errlen)))
		return rc;
	if (trial_preflight_mtu(c, err, errlen))
		return -EINVAL;
	/* An AF_XDP generator thread binds a transmit queue of its own. */
	if (o->plan.lab && c->port_type == PORT_AFXDP && !c->xdp_gen && trial_threads(c) > o->plan.lab_queues) {
		char pa[LAB_PREFIX_MAX + 12];

		snprintf(err, errlen, "--gen-cpu: %u generator threads on AF_XDP need a transmit queue each, and the "
			 "lab's ports have %u: 'wirerate lab up%s --queues %u'", trial_threads(c), o->plan.lab_queues,
			 lab_prefix_arg(o->plan.prefix, pa, sizeof(pa)), trial_threads(c));
		return -EINVAL;
	}
	/* Calibrating flat out on the XDP path: as many frames as its
	 * analyzer's bitmap holds, still far above what a core sends. */
	if (o->plan.direct && c->xdp_rx && c->rate_pps * (double)c->duration_ns / NSEC_PER_SEC > (double)XDPCOUNT_MAX_FRAMES)
		c->rate_pps = (double)(uint64_t)((double)XDPCOUNT_MAX_FRAMES / ((double)c->duration_ns / NSEC_PER_SEC));
	return trial_preflight_check(c, err, errlen);
}

/* The --port-type name as given. */
static const char *app_trial_path_asked(const struct trial_setup *o)
{
	static const char *const names[] = { "auto", "xdp", "afxdp", "afpacket", "mmsg" };

	return o->plan.path >= 0 && o->plan.path < 5 ? names[o->plan.path] : "?";
}

const char *app_trial_plan_path(const struct trial_setup *o)
{
	return o->plan.cfg.xdp_gen ? "xdp" : port_type_name(o->plan.cfg.port_type);
}

void app_trial_plan_calib_key(const struct trial_setup *o, char *buf, size_t len)
{
	unsigned int n = trial_threads(&o->plan.cfg);

	if (n > 1)
		snprintf(buf, len, "%s*%u", app_trial_plan_path(o), n);
	else
		snprintf(buf, len, "%s", app_trial_plan_path(o));
}

void app_trial_plan_release(struct trial_setup *o)
{
	app_trial_dut_close(o);
	if (o->ses.xdp_hold_fd >= 0) {
		close(o->ses.xdp_hold_fd);
		o->ses.xdp_hold_fd = -1;
	}
	lab_status_unlock(&o->ses.lab_lock, NULL);
	/* the lab's pairs share nsfd[]; cabled pair 0's are nsfd[0..1] */
	for (unsigned int p = o->plan.lab ? TRIAL_MAX_PORTS : 1; p < TRIAL_MAX_PORTS; p++) {
		struct trial_port *t = &o->plan.port[p];

		if (t->tx_nsfd >= 0)
			close(t->tx_nsfd);
		if (t->rx_nsfd >= 0)
			close(t->rx_nsfd);
		t->tx_nsfd = t->rx_nsfd = -1;
	}
	for (int r = 0; r < 3; r++)
		if (o->ses.nsfd[r] >= 0) {
			close(o->ses.nsfd[r]);
			o->ses.nsfd[r] = -1;
		}
	for (unsigned int p = 0; p < TRIAL_MAX_PORTS; p++)
		o->plan.port[p].tx_nsfd = o->plan.port[p].rx_nsfd = -1;
}
