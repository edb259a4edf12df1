/* The traffic options' defaults and rules (trial, calibrate, rfc2544),
 * and what follows from them before the host is asked anything. */
#include "app/trial_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "core/frame.h"
#include "core/ns.h"
#include "dut/soak.h"
#include "store/calib.h"

int app_trial_check_list(const char *name, const char *v, char items[][96], unsigned int *n, char *err, size_t errlen)
{
	const char *p = v;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (*n == TRIAL_MAX_PORTS) {
			snprintf(err, errlen, "--%s '%.80s': %d port pairs at most", name, v, TRIAL_MAX_PORTS);
			return -EINVAL;
		}
		if (!len || len >= 96) {
			snprintf(err, errlen, "--%s '%.80s': %s", name, v,
				 len ? "an item is too long" : "an empty item in the list");
			return -EINVAL;
		}
		snprintf(items[(*n)++], 96, "%.*s", (int)len, p);
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void app_trial_check_defaults(struct trial_setup *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->req.prefix, sizeof(o->req.prefix), "%s", LAB_PREFIX_DEFAULT);
	o->ses.nsfd[0] = o->ses.nsfd[1] = o->ses.nsfd[2] = -1;
	o->ses.lab_lock = -1;
	o->ses.xdp_hold_fd = -1;
	o->req.cfg.ndirs = 1;
	o->plan.nports = 1;
	for (int p = 0; p < TRIAL_MAX_PORTS; p++)
		o->req.port[p].tx_nsfd = o->req.port[p].rx_nsfd = -1;
	o->req.cfg.sizes[0] = 64;
	o->req.cfg.nsizes = 1;
	o->req.cfg.flows = (struct frame_flows){ .sport_first = 1024, .sport_count = 1 };
	o->req.profile_top = 10;
	o->req.cfg.duration_ns = 10 * NSEC_PER_SEC;
	o->req.cfg.learn_wait_ns = NSEC_PER_SEC;
	o->req.cfg.drain_ns = 2 * NSEC_PER_SEC;
	for (int k = 0; k < TRIAL_MAX_THREADS; k++)
		o->req.cfg.gen_cpu[k] = -1;
	o->req.cfg.rx_cpu = -1;
	o->req.cfg.port_type = PORT_AFPACKET;
	o->req.path = TRIAL_PATH_AUTO;
	o->req.cfg.max_burst = 64;
	memcpy(o->req.src_ip, (uint8_t[]){ 198, 18, 0, 1 }, 4);
	memcpy(o->req.dst_ip, (uint8_t[]){ 198, 19, 0, 2 }, 4);
}

/* --dut against the ports: the lab's DUT goes with the lab's ports, any
 * other DUT with cabled ones; options that act on a real box only. */
static int check_dut(struct trial_setup *o, char *err, size_t errlen)
{
	const struct dut_target *t = &o->plan.dut_t;
	bool remote = o->plan.dut_t.given && t->kind != DUT_LAB;

	if (o->plan.dut_t.given && t->kind == DUT_LAB) {
		if (o->plan.tx_if) {
			snprintf(err, errlen, "--dut lab: the lab's DUT is measured through the lab's ports, not --tx/--rx");
			return -EINVAL;
		}
		if (o->req.prefix_set && strcmp(o->plan.prefix, t->prefix)) {
			snprintf(err, errlen, "--dut lab:%s and --prefix %s name two labs", t->prefix, o->plan.prefix);
			return -EINVAL;
		}
		snprintf(o->plan.prefix, sizeof(o->plan.prefix), "%s", t->prefix);
		if (lab_prefix_check(o->plan.prefix, err, errlen))
			return -EINVAL;
	}
	if (remote && !o->plan.tx_if) {
		snprintf(err, errlen, "--dut %s: give the tester's ports cabled to it with --tx and --rx",
			 t->kind == DUT_SSH ? "ssh:..." : "local");
		return -EINVAL;
	}
	if (remote && o->req.prefix_set) {
		snprintf(err, errlen, "--prefix is the lab's: it does not go with --dut %s", t->kind == DUT_SSH ? "ssh:..." : "local");
		return -EINVAL;
	}
	if (duttarget_check(t, err, errlen))
		return -EINVAL;
	if ((o->req.dut_place || o->req.dut_rules_set) && !remote) {
		snprintf(err, errlen, "%s acts on a DUT given with --dut ssh:HOST or --dut local; the lab's are "
			 "'wirerate lab up --placement/--rules'", o->req.dut_place ? "--dut-placement" : "--dut-rules");
		return -EINVAL;
	}
	if (o->req.ndut_ports && !remote) {
		snprintf(err, errlen, "--dut-ports names a DUT's interfaces with --dut ssh:HOST or --dut local (the lab knows its own)");
		return -EINVAL;
	}
	if (o->req.dut_place && !o->req.ndut_ports) {
		snprintf(err, errlen, "--dut-placement: give the DUT's interfaces with --dut-ports");
		return -EINVAL;
	}
	return 0;
}

/* --tx and --rx as lists of port pairs, and the lists of MACs and
 * addresses against them: one value for every pair (addresses), or
 * one each. Pair 0 stays in the single-port fields too. */
static int check_ports(struct trial_setup *o, char *err, size_t errlen)
{
	char ti[TRIAL_MAX_PORTS][96], ri[TRIAL_MAX_PORTS][96];
	unsigned int nt, nr;
	int rc;

	if ((rc = app_trial_check_list("tx", o->plan.tx_if, ti, &nt, err, errlen)) ||
	    (rc = app_trial_check_list("rx", o->plan.rx_if, ri, &nr, err, errlen)))
		return rc;
	if (nt != nr) {
		snprintf(err, errlen, "--tx names %u port%s and --rx %u: give one --rx port for each --tx port", nt,
			 nt == 1 ? "" : "s", nr);
		return -EINVAL;
	}
	o->plan.nports = nt;
	o->plan.tx_given = o->plan.tx_if;
	o->plan.rx_given = o->plan.rx_if;
	for (unsigned int p = 0; p < nt; p++) {
		snprintf(o->plan.port[p].tx_if, sizeof(o->plan.port[p].tx_if), "%.95s", ti[p]);
		snprintf(o->plan.port[p].rx_if, sizeof(o->plan.port[p].rx_if), "%.95s", ri[p]);
	}
	o->plan.tx_if = o->plan.port[0].tx_if;
	o->plan.rx_if = o->plan.port[0].rx_if;
	if ((o->req.ndst_mac > 1 && o->req.ndst_mac != nt) || (o->req.nrx_dst_mac > 1 && o->req.nrx_dst_mac != nt) ||
	    (nt > 1 && ((o->req.ndst_mac == 1) || o->req.nrx_dst_mac == 1))) {
		bool tx_mac = o->req.ndst_mac && o->req.ndst_mac != nt;

		snprintf(err, errlen, "--%s gives %u MAC%s for %u port pair%s: give one for each (each DUT port has "
			 "its own)", tx_mac ? "dst-mac" : "rx-dst-mac", tx_mac ? o->req.ndst_mac : o->req.nrx_dst_mac,
			 (tx_mac ? o->req.ndst_mac : o->req.nrx_dst_mac) == 1 ? "" : "s", nt, nt == 1 ? "" : "s");
		return -EINVAL;
	}
	if ((o->req.nsrc_ip > 1 && o->req.nsrc_ip != nt) || (o->req.ndst_ip > 1 && o->req.ndst_ip != nt)) {
		bool src = o->req.nsrc_ip > 1 && o->req.nsrc_ip != nt;

		snprintf(err, errlen, "--%s gives %u addresses for %u port pair%s: give one for all, or one each",
			 src ? "src-ip" : "dst-ip", src ? o->req.nsrc_ip : o->req.ndst_ip, nt, nt == 1 ? "" : "s");
		return -EINVAL;
	}
	if (nt > 1 && (o->plan.nh[0].set || o->plan.nh[1].set)) {
		snprintf(err, errlen, "%s asks one port's next hop: with several port pairs give --dst-mac%s, one MAC "
			 "each", o->plan.nh[0].set ? "--next-hop" : "--rx-next-hop", o->plan.nh[1].set ? " and --rx-dst-mac" : "");
		return -EINVAL;
	}
	if (nt > 1 && o->plan.direct) {
		snprintf(err, errlen, "calibrate measures the tester on one port pair: give one --tx and one --rx");
		return -EINVAL;
	}
	return 0;
}

/* What --next-hop and --rx-next-hop need besides a cabled port. */
static int check_next_hops(const struct trial_setup *o, char *err, size_t errlen)
{
	for (int k = 0; k < 2; k++) {
		const struct trial_nexthop *nh = &o->plan.nh[k];
		const char *name = k ? "--rx-next-hop" : "--next-hop", *from = k ? "--dst-ip" : "--src-ip";
		char a[INET6_ADDRSTRLEN];

		if (!nh->set)
			continue;
		inet_ntop(nh->v6 ? AF_INET6 : AF_INET, nh->ip, a, sizeof(a));
		if (k ? o->req.rx_dst_mac_set : o->req.dst_mac_set) {
			snprintf(err, errlen, "%s and %s: give one (%s finds the MAC)", name,
				 k ? "--rx-dst-mac" : "--dst-mac", name);
			return -EINVAL;
		}
		if (k && o->plan.cfg.ndirs != 2) {
			snprintf(err, errlen, "--rx-next-hop is for the frames --bidir sends back on --rx: give --bidir");
			return -EINVAL;
		}
		if (!(k ? o->req.dst_set : o->req.src_set)) {
			snprintf(err, errlen, "%s needs %s: the tester's address on that DUT port's subnet, which the "
				 "%s comes from", name, from, nh->v6 ? "solicitation" : "ARP request");
			return -EINVAL;
		}
		if (nh->v6 != o->plan.ipv6) {
			snprintf(err, errlen, "%s %s is %s and %s is %s", name, a, nh->v6 ? "IPv6" : "IPv4", from,
				 o->plan.ipv6 ? "IPv6" : "IPv4");
			return -EINVAL;
		}
		if (!o->req.allow_any && !addrpolicy_ip_in_bench_range(nh->ip, nh->v6)) {
			addrpolicy_refusal(name, a, err, errlen);
			return -EINVAL;
		}
	}
	return 0;
}

int app_trial_check(struct trial_setup *o, const char *default_rate, char *err, size_t errlen)
{
	bool rate_set = o->req.rate_set;
	int rc = 0;

	/* the plan starts as the request; from here on only the plan moves */
	o->plan.g = o->req.g;
	if (!rate_set && default_rate) {
		units_rate_parse(default_rate, &o->plan.rate, err, errlen);
		rate_set = true;
	}
	if (!rc && !rate_set) {
		snprintf(err, errlen, "--rate is required (e.g. --rate 100kpps)");
		rc = -EINVAL;
	}
	if (!rc && (!o->plan.tx_if) != (!o->plan.rx_if)) {
		snprintf(err, errlen, "give both --tx and --rx, or neither for the lab");
		rc = -EINVAL;
	}
	if (!rc && o->req.size_set && o->req.imix_set) {
		snprintf(err, errlen, "--size and --imix: one frame size or a mix, not both");
		rc = -EINVAL;
	}
	if (!rc && !o->plan.tx_if && (o->plan.nh[0].set || o->plan.nh[1].set)) {
		snprintf(err, errlen, "%s applies to --tx/--rx ports only (the lab knows its MACs)",
			 o->plan.nh[0].set ? "--next-hop" : "--rx-next-hop");
		rc = -EINVAL;
	}
	/* The lab's addresses are its own: these name a cabled DUT's. */
	if (!rc && !o->plan.tx_if && (o->req.src_set || o->req.dst_set || o->req.dst_mac_set || o->req.rx_dst_mac_set)) {
		snprintf(err, errlen, "%s applies to --tx/--rx ports only (the lab's addresses and MACs are fixed)",
			 o->req.src_set ? "--src-ip" : o->req.dst_set ? "--dst-ip" : o->req.dst_mac_set ? "--dst-mac" : "--rx-dst-mac");
		rc = -EINVAL;
	}
	if (!rc && o->req.src_set && o->req.dst_set && o->req.src_v6 != o->req.dst_v6) {
		snprintf(err, errlen, "--src-ip and --dst-ip are of different families (one IPv4, one IPv6)");
		rc = -EINVAL;
	}
	if (!rc && o->req.ipv6_flag && ((o->req.src_set && !o->req.src_v6) || (o->req.dst_set && !o->req.dst_v6))) {
		snprintf(err, errlen, "--ipv6 with an IPv4 %s", o->req.src_set && !o->req.src_v6 ? "--src-ip" : "--dst-ip");
		rc = -EINVAL;
	}
	if (!rc)
		rc = check_dut(o, err, errlen);
	if (!rc && o->plan.tx_if)
		rc = check_ports(o, err, errlen);
	if (rc)
		return -EINVAL;
	o->plan.lab = !o->plan.tx_if;
	if (o->plan.ipv6) {
		static const uint8_t s6[16] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
		static const uint8_t d6[16] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2 };

		if (!o->req.src_set)
			memcpy(o->plan.src_ip, s6, 16);
		if (!o->req.dst_set)
			memcpy(o->plan.dst_ip, d6, 16);
		if (!o->req.size_set && o->plan.cfg.nsizes == 1)
			o->plan.cfg.sizes[0] = FRAME_MIN_TAGGED_V6;
	}
	/* One address for every pair, or one each (checked above). */
	for (unsigned int p = 0; p < o->plan.nports; p++) {
		if (o->req.nsrc_ip <= 1)
			memcpy(o->plan.port[p].src_ip, o->plan.src_ip, 16);
		if (o->req.ndst_ip <= 1)
			memcpy(o->plan.port[p].dst_ip, o->plan.dst_ip, 16);
	}
	/* Both are destinations (of the return direction with --bidir; of
	 * the DUT's replies otherwise). */
	for (unsigned int k = 0; k < 2 * o->plan.nports && !o->req.allow_any; k++) {
		const uint8_t *ip = k & 1 ? o->plan.port[k / 2].src_ip : o->plan.port[k / 2].dst_ip;
		char a[INET6_ADDRSTRLEN];

		if (addrpolicy_ip_in_bench_range(ip, o->plan.ipv6))
			continue;
		inet_ntop(o->plan.ipv6 ? AF_INET6 : AF_INET, ip, a, sizeof(a));
		addrpolicy_refusal(k & 1 ? "--src-ip" : "--dst-ip", a, err, errlen);
		return -EINVAL;
	}
	if (check_next_hops(o, err, errlen))
		return -EINVAL;
	if (!o->plan.calib_path[0])
		calib_default_path(o->plan.calib_path, sizeof(o->plan.calib_path));
	if (calib_check(o->plan.calib_path, err, errlen)) {
		char why[384];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--calibration %s", why);
		return -EINVAL;
	}
	if (!o->plan.soak_path[0])
		soak_calibration_default_path(o->plan.soak_path, sizeof(o->plan.soak_path));
	if (!o->req.learn_set)
		o->plan.cfg.learn_frames = frame_flows_count(&o->plan.cfg.flows);
	o->plan.cfg.trial_id = (uint16_t)(((unsigned int)getpid() ^ (unsigned int)time(NULL)) & 0x7fff);
	if (!o->plan.cfg.trial_id)
		o->plan.cfg.trial_id = 1;
	return 0;
}
