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

void app_trial_check_defaults(struct trialopt *o)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->prefix, sizeof(o->prefix), "%s", LAB_PREFIX_DEFAULT);
	o->nsfd[0] = o->nsfd[1] = o->nsfd[2] = -1;
	o->lab_lock = -1;
	o->xdp_hold_fd = -1;
	o->cfg.ndirs = 1;
	o->nports = 1;
	for (int p = 0; p < TRIAL_MAX_PORTS; p++)
		o->port[p].tx_nsfd = o->port[p].rx_nsfd = -1;
	o->cfg.sizes[0] = 64;
	o->cfg.nsizes = 1;
	o->cfg.flows = (struct frame_flows){ .sport_first = 1024, .sport_count = 1 };
	o->profile_top = 10;
	o->cfg.duration_ns = 10 * NSEC_PER_SEC;
	o->cfg.learn_wait_ns = NSEC_PER_SEC;
	o->cfg.drain_ns = 2 * NSEC_PER_SEC;
	for (int k = 0; k < TRIAL_MAX_THREADS; k++)
		o->cfg.gen_cpu[k] = -1;
	o->cfg.rx_cpu = -1;
	o->cfg.port_type = PORT_AFPACKET;
	o->path = TRIALOPT_AUTO;
	o->cfg.max_burst = 64;
	memcpy(o->src_ip, (uint8_t[]){ 198, 18, 0, 1 }, 4);
	memcpy(o->dst_ip, (uint8_t[]){ 198, 19, 0, 2 }, 4);
}

/* --dut against the ports: the lab's DUT goes with the lab's ports, any
 * other DUT with cabled ones; options that act on a real box only. */
static int check_dut(struct trialopt *o, char *err, size_t errlen)
{
	const struct dut_target *t = &o->dut_t;
	bool remote = o->dut_t.given && t->kind != DUT_LAB;

	if (o->dut_t.given && t->kind == DUT_LAB) {
		if (o->tx_if) {
			snprintf(err, errlen, "--dut lab: the lab's DUT is measured through the lab's ports, not --tx/--rx");
			return -EINVAL;
		}
		if (o->prefix_set && strcmp(o->prefix, t->prefix)) {
			snprintf(err, errlen, "--dut lab:%s and --prefix %s name two labs", t->prefix, o->prefix);
			return -EINVAL;
		}
		snprintf(o->prefix, sizeof(o->prefix), "%s", t->prefix);
		if (lab_prefix_check(o->prefix, err, errlen))
			return -EINVAL;
	}
	if (remote && !o->tx_if) {
		snprintf(err, errlen, "--dut %s: give the tester's ports cabled to it with --tx and --rx",
			 t->kind == DUT_SSH ? "ssh:..." : "local");
		return -EINVAL;
	}
	if (remote && o->prefix_set) {
		snprintf(err, errlen, "--prefix is the lab's: it does not go with --dut %s", t->kind == DUT_SSH ? "ssh:..." : "local");
		return -EINVAL;
	}
	if (duttarget_check(t, err, errlen))
		return -EINVAL;
	if ((o->dut_place || o->dut_rules_set) && !remote) {
		snprintf(err, errlen, "%s acts on a DUT given with --dut ssh:HOST or --dut local; the lab's are "
			 "'wirerate lab up --placement/--rules'", o->dut_place ? "--dut-placement" : "--dut-rules");
		return -EINVAL;
	}
	if (o->ndut_ports && !remote) {
		snprintf(err, errlen, "--dut-ports names a DUT's interfaces with --dut ssh:HOST or --dut local (the lab knows its own)");
		return -EINVAL;
	}
	if (o->dut_place && !o->ndut_ports) {
		snprintf(err, errlen, "--dut-placement: give the DUT's interfaces with --dut-ports");
		return -EINVAL;
	}
	return 0;
}

/* --tx and --rx as lists of port pairs, and the lists of MACs and
 * addresses against them: one value for every pair (addresses), or
 * one each. Pair 0 stays in the single-port fields too. */
static int check_ports(struct trialopt *o, char *err, size_t errlen)
{
	char ti[TRIAL_MAX_PORTS][96], ri[TRIAL_MAX_PORTS][96];
	unsigned int nt, nr;
	int rc;

	if ((rc = app_trial_check_list("tx", o->tx_if, ti, &nt, err, errlen)) ||
	    (rc = app_trial_check_list("rx", o->rx_if, ri, &nr, err, errlen)))
		return rc;
	if (nt != nr) {
		snprintf(err, errlen, "--tx names %u port%s and --rx %u: give one --rx port for each --tx port", nt,
			 nt == 1 ? "" : "s", nr);
		return -EINVAL;
	}
	o->nports = nt;
	o->tx_given = o->tx_if;
	o->rx_given = o->rx_if;
	for (unsigned int p = 0; p < nt; p++) {
		snprintf(o->port[p].tx_if, sizeof(o->port[p].tx_if), "%.95s", ti[p]);
		snprintf(o->port[p].rx_if, sizeof(o->port[p].rx_if), "%.95s", ri[p]);
	}
	o->tx_if = o->port[0].tx_if;
	o->rx_if = o->port[0].rx_if;
	if ((o->ndst_mac > 1 && o->ndst_mac != nt) || (o->nrx_dst_mac > 1 && o->nrx_dst_mac != nt) ||
	    (nt > 1 && ((o->ndst_mac == 1) || o->nrx_dst_mac == 1))) {
		bool tx_mac = o->ndst_mac && o->ndst_mac != nt;

		snprintf(err, errlen, "--%s gives %u MAC%s for %u port pair%s: give one for each (each DUT port has "
			 "its own)", tx_mac ? "dst-mac" : "rx-dst-mac", tx_mac ? o->ndst_mac : o->nrx_dst_mac,
			 (tx_mac ? o->ndst_mac : o->nrx_dst_mac) == 1 ? "" : "s", nt, nt == 1 ? "" : "s");
		return -EINVAL;
	}
	if ((o->nsrc_ip > 1 && o->nsrc_ip != nt) || (o->ndst_ip > 1 && o->ndst_ip != nt)) {
		bool src = o->nsrc_ip > 1 && o->nsrc_ip != nt;

		snprintf(err, errlen, "--%s gives %u addresses for %u port pair%s: give one for all, or one each",
			 src ? "src-ip" : "dst-ip", src ? o->nsrc_ip : o->ndst_ip, nt, nt == 1 ? "" : "s");
		return -EINVAL;
	}
	if (nt > 1 && (o->nh[0].set || o->nh[1].set)) {
		snprintf(err, errlen, "%s asks one port's next hop: with several port pairs give --dst-mac%s, one MAC "
			 "each", o->nh[0].set ? "--next-hop" : "--rx-next-hop", o->nh[1].set ? " and --rx-dst-mac" : "");
		return -EINVAL;
	}
	if (nt > 1 && o->direct) {
		snprintf(err, errlen, "calibrate measures the tester on one port pair: give one --tx and one --rx");
		return -EINVAL;
	}
	return 0;
}

/* What --next-hop and --rx-next-hop need besides a cabled port. */
static int check_next_hops(const struct trialopt *o, char *err, size_t errlen)
{
	for (int k = 0; k < 2; k++) {
		const struct trial_nexthop *nh = &o->nh[k];
		const char *name = k ? "--rx-next-hop" : "--next-hop", *from = k ? "--dst-ip" : "--src-ip";
		char a[INET6_ADDRSTRLEN];

		if (!nh->set)
			continue;
		inet_ntop(nh->v6 ? AF_INET6 : AF_INET, nh->ip, a, sizeof(a));
		if (k ? o->rx_dst_mac_set : o->dst_mac_set) {
			snprintf(err, errlen, "%s and %s: give one (%s finds the MAC)", name,
				 k ? "--rx-dst-mac" : "--dst-mac", name);
			return -EINVAL;
		}
		if (k && o->cfg.ndirs != 2) {
			snprintf(err, errlen, "--rx-next-hop is for the frames --bidir sends back on --rx: give --bidir");
			return -EINVAL;
		}
		if (!(k ? o->dst_set : o->src_set)) {
			snprintf(err, errlen, "%s needs %s: the tester's address on that DUT port's subnet, which the "
				 "%s comes from", name, from, nh->v6 ? "solicitation" : "ARP request");
			return -EINVAL;
		}
		if (nh->v6 != o->ipv6) {
			snprintf(err, errlen, "%s %s is %s and %s is %s", name, a, nh->v6 ? "IPv6" : "IPv4", from,
				 o->ipv6 ? "IPv6" : "IPv4");
			return -EINVAL;
		}
		if (!o->allow_any && !addrpolicy_ip_in_bench_range(nh->ip, nh->v6)) {
			addrpolicy_refusal(name, a, err, errlen);
			return -EINVAL;
		}
	}
	return 0;
}

int app_trial_check(struct trialopt *o, const char *default_rate, char *err, size_t errlen)
{
	int rc = 0;

	if (!rc && !o->rate_set && default_rate) {
		units_rate_parse(default_rate, &o->rate, err, errlen);
		o->rate_set = true;
	}
	if (!rc && !o->rate_set) {
		snprintf(err, errlen, "--rate is required (e.g. --rate 100kpps)");
		rc = -EINVAL;
	}
	if (!rc && (!o->tx_if) != (!o->rx_if)) {
		snprintf(err, errlen, "give both --tx and --rx, or neither for the lab");
		rc = -EINVAL;
	}
	if (!rc && o->size_set && o->imix_set) {
		snprintf(err, errlen, "--size and --imix: one frame size or a mix, not both");
		rc = -EINVAL;
	}
	if (!rc && !o->tx_if && (o->nh[0].set || o->nh[1].set)) {
		snprintf(err, errlen, "%s applies to --tx/--rx ports only (the lab knows its MACs)",
			 o->nh[0].set ? "--next-hop" : "--rx-next-hop");
		rc = -EINVAL;
	}
	/* The lab's addresses are its own: these name a cabled DUT's. */
	if (!rc && !o->tx_if && (o->src_set || o->dst_set || o->dst_mac_set || o->rx_dst_mac_set)) {
		snprintf(err, errlen, "%s applies to --tx/--rx ports only (the lab's addresses and MACs are fixed)",
			 o->src_set ? "--src-ip" : o->dst_set ? "--dst-ip" : o->dst_mac_set ? "--dst-mac" : "--rx-dst-mac");
		rc = -EINVAL;
	}
	if (!rc && o->src_set && o->dst_set && o->src_v6 != o->dst_v6) {
		snprintf(err, errlen, "--src-ip and --dst-ip are of different families (one IPv4, one IPv6)");
		rc = -EINVAL;
	}
	if (!rc && o->ipv6_flag && ((o->src_set && !o->src_v6) || (o->dst_set && !o->dst_v6))) {
		snprintf(err, errlen, "--ipv6 with an IPv4 %s", o->src_set && !o->src_v6 ? "--src-ip" : "--dst-ip");
		rc = -EINVAL;
	}
	if (!rc)
		rc = check_dut(o, err, errlen);
	if (!rc && o->tx_if)
		rc = check_ports(o, err, errlen);
	if (rc)
		return -EINVAL;
	o->lab = !o->tx_if;
	if (o->ipv6) {
		static const uint8_t s6[16] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
		static const uint8_t d6[16] = { 0x20, 0x01, 0, 0x02, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2 };

		if (!o->src_set)
			memcpy(o->src_ip, s6, 16);
		if (!o->dst_set)
			memcpy(o->dst_ip, d6, 16);
		if (!o->size_set && o->cfg.nsizes == 1)
			o->cfg.sizes[0] = FRAME_MIN_TAGGED_V6;
	}
	/* One address for every pair, or one each (checked above). */
	for (unsigned int p = 0; p < o->nports; p++) {
		if (o->nsrc_ip <= 1)
			memcpy(o->port[p].src_ip, o->src_ip, 16);
		if (o->ndst_ip <= 1)
			memcpy(o->port[p].dst_ip, o->dst_ip, 16);
	}
	/* Both are destinations (of the return direction with --bidir; of
	 * the DUT's replies otherwise). */
	for (unsigned int k = 0; k < 2 * o->nports && !o->allow_any; k++) {
		const uint8_t *ip = k & 1 ? o->port[k / 2].src_ip : o->port[k / 2].dst_ip;
		char a[INET6_ADDRSTRLEN];

		if (addrpolicy_ip_in_bench_range(ip, o->ipv6))
			continue;
		inet_ntop(o->ipv6 ? AF_INET6 : AF_INET, ip, a, sizeof(a));
		addrpolicy_refusal(k & 1 ? "--src-ip" : "--dst-ip", a, err, errlen);
		return -EINVAL;
	}
	if (check_next_hops(o, err, errlen))
		return -EINVAL;
	if (!o->calib_path[0])
		calib_default_path(o->calib_path, sizeof(o->calib_path));
	if (calib_check(o->calib_path, err, errlen)) {
		char why[384];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--calibration %s", why);
		return -EINVAL;
	}
	if (!o->soak_path[0])
		soak_calibration_default_path(o->soak_path, sizeof(o->soak_path));
	if (!o->learn_set)
		o->cfg.learn_frames = frame_flows_count(&o->cfg.flows);
	o->cfg.trial_id = (uint16_t)(((unsigned int)getpid() ^ (unsigned int)time(NULL)) & 0x7fff);
	if (!o->cfg.trial_id)
		o->cfg.trial_id = 1;
	return 0;
}
