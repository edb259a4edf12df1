#include "cli/trial_opts.h"
#include "app/trial_check.h"
#include "cli/dut_args.h"
#include "os/nft.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "cli/opt.h"
#include "core/ns.h"
#include "dut/soak.h"

/* Six groups of one or two hex digits split by ':', and a unicast
 * address: a DUT's port, never a group or none. */
static int parse_mac(const char *s, uint8_t m[6])
{
	for (int i = 0; i < 6; i++) {
		int n = 0, v = 0;

		for (; n < 2 && isxdigit((unsigned char)*s); n++, s++)
			v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10);
		if (!n || *s != (i < 5 ? ':' : '\0'))
			return -EINVAL;
		if (i < 5)
			s++;
		m[i] = (uint8_t)v;
	}
	if ((m[0] & 1) || !(m[0] | m[1] | m[2] | m[3] | m[4] | m[5]))
		return -EINVAL;
	return 0;
}

/* Not unspecified, limited broadcast or multicast: an address a test
 * frame can come from and go to. */
static bool unicast_ip(const uint8_t *a, bool v6)
{
	static const uint8_t zero[16];

	if (v6)
		return a[0] != 0xff && memcmp(a, zero, 16);
	return (a[0] & 0xf0) != 0xe0 && memcmp(a, zero, 4) && memcmp(a, "\xff\xff\xff\xff", 4);
}

/* "64:7,570:4,1518:1" or "64,128,256" into a repeating pattern of sizes,
 * interleaved (64,570,1518,64,570,...) rather than in runs of one size. */
static int parse_imix(const char *s, struct trial_cfg *c, char *err, size_t errlen)
{
	char *list = strdup(s), *save = NULL;
	unsigned int size[TRIAL_MAX_SIZES], weight[TRIAL_MAX_SIZES], nent = 0, total = 0, maxw = 0;
	int rc = 0;

	if (!list)
		return -ENOMEM;
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(t, ':');
		uint64_t sz, w = 1;

		if (colon)
			*colon = '\0';
		if (units_size_parse(t, 1, FRAME_MAX, &sz, err, errlen) ||
		    (colon && units_u64_parse(colon + 1, 1, TRIAL_MAX_SIZES, &w, err, errlen))) {
			rc = -EINVAL;
			break;
		}
		if (total + w > TRIAL_MAX_SIZES) {
			snprintf(err, errlen, "the weights add up to more than %d", TRIAL_MAX_SIZES);
			rc = -EINVAL;
			break;
		}
		size[nent] = (unsigned int)sz;
		weight[nent++] = (unsigned int)w;
		total += (unsigned int)w;
		if (w > maxw)
			maxw = (unsigned int)w;
	}
	free(list);
	if (!rc && !nent) {
		snprintf(err, errlen, "give SIZE:WEIGHT,... e.g. 64:7,570:4,1518:1");
		rc = -EINVAL;
	}
	if (rc)
		return rc;
	c->nsizes = 0;
	for (unsigned int r = 0; r < maxw; r++)
		for (unsigned int i = 0; i < nent; i++)
			if (weight[i] > r)
				c->sizes[c->nsizes++] = size[i];
	return 0;
}

static int opt_cpu(const char *name, const char *v, int *cpu, char *err, size_t errlen)
{
	uint64_t x;

	if (units_u64_parse(v, 0, 1023, &x, err, errlen)) {
		snprintf(err, errlen, "%s '%s': expected a CPU number", name, v);
		return -EINVAL;
	}
	*cpu = (int)x;
	return 0;
}

/* --gen-cpu N, or a list: one generator thread per CPU. */
static int opt_gen_cpus(const char *v, struct trial_cfg *c, char *err, size_t errlen)
{
	struct cpuset set;
	char e2[160];
	unsigned int n;

	cpuset_zero(&set);
	if (cpuset_parse_list(v, &set, e2, sizeof(e2)) || !(n = cpuset_count(&set))) {
		snprintf(err, errlen, "--gen-cpu '%s': expected a CPU number or a list such as 0,2 or 0-3", v);
		return -EINVAL;
	}
	if (n > TRIAL_MAX_THREADS) {
		snprintf(err, errlen, "--gen-cpu '%s': %u CPUs, and a direction has %d generator threads at most",
			 v, n, TRIAL_MAX_THREADS);
		return -EINVAL;
	}
	c->threads = n;
	for (unsigned int k = 0; k < n; k++)
		c->gen_cpu[k] = cpuset_nth(&set, k);
	return 0;
}

#define TO(field) OPT_FIELD(struct trial_request, field)

static int set_prefix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	snprintf(o->prefix, sizeof(o->prefix), "%s", v);
	o->prefix_set = true;
	return lab_prefix_check(v, err, errlen);
}

static int set_mac(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	bool rx = opt->id;
	char items[TRIAL_MAX_PORTS][96];
	unsigned int n;
	int rc;

	*(rx ? &o->rx_dst_mac_set : &o->dst_mac_set) = true;
	if ((rc = app_trial_check_list(opt->name, v, items, &n, err, errlen)))
		return rc;
	for (unsigned int i = 0; i < n; i++)
		if (parse_mac(items[i], rx ? o->port[i].rx_dst_mac : o->port[i].dst_mac)) {
			snprintf(err, errlen, "--%s '%s': expected a unicast MAC like 02:00:00:00:00:01", opt->name,
				 items[i]);
			return -EINVAL;
		}
	memcpy(rx ? o->rx_dst_mac : o->dst_mac, rx ? o->port[0].rx_dst_mac : o->port[0].dst_mac, 6);
	*(rx ? &o->nrx_dst_mac : &o->ndst_mac) = n;
	return 0;
}

static int set_ip(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	bool src = opt->id, v6 = strchr(v, ':') != NULL;
	char items[TRIAL_MAX_PORTS][96];
	unsigned int n;
	int rc;

	if ((rc = app_trial_check_list(opt->name, v, items, &n, err, errlen)))
		return rc;
	if (v6)
		o->ipv6 = true;
	*(src ? &o->src_set : &o->dst_set) = true;
	*(src ? &o->src_v6 : &o->dst_v6) = v6;
	*(src ? &o->nsrc_ip : &o->ndst_ip) = n;
	for (unsigned int i = 0; i < n; i++) {
		uint8_t *dst = src ? o->port[i].src_ip : o->port[i].dst_ip;

		memset(dst, 0, 16);
		if (inet_pton(v6 ? AF_INET6 : AF_INET, items[i], dst) != 1) {
			snprintf(err, errlen, "--%s '%s': expected an IPv4 or IPv6 address%s", opt->name, items[i],
				 n > 1 ? " (all of one family)" : "");
			return -EINVAL;
		}
		if (!unicast_ip(dst, v6)) {
			snprintf(err, errlen, "--%s '%s': expected a unicast address (not unspecified, broadcast "
				 "or multicast)", opt->name, items[i]);
			return -EINVAL;
		}
	}
	memcpy(src ? o->src_ip : o->dst_ip, src ? o->port[0].src_ip : o->port[0].dst_ip, 16);
	return 0;
}

static int set_ipv6(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	o->ipv6 = o->ipv6_flag = true;
	return 0;
}

static int set_rate(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	int rc = units_rate_parse(v, &o->rate, err, errlen);

	if (!rc)
		o->rate_set = true;
	return rc;
}

static int set_size(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	uint64_t x;
	int rc;

	if ((rc = units_size_parse(v, FRAME_MIN_V4, FRAME_MAX, &x, err, errlen)))
		return rc;
	o->cfg.sizes[0] = (unsigned int)x;
	o->cfg.nsizes = 1;
	o->size_set = true;
	return 0;
}

static int set_imix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	o->imix_set = true;
	return parse_imix(v ? v : TRIAL_OPTS_IMIX_DEFAULT, &o->cfg, err, errlen);
}

static int set_flows(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	uint64_t x;
	int rc;

	if ((rc = units_u64_parse(v, 1, 65535, &x, err, errlen)))
		return rc;
	o->cfg.flows.sport_count = (uint16_t)x;
	o->cfg.flows.sport_first = x <= 64512 ? 1024 : 1;
	return 0;
}

static int set_bidir(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	((struct trial_request *)ctx)->cfg.ndirs = 2;
	((struct trial_request *)ctx)->bidir = true;
	return 0;
}

static int set_line(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	struct rate lr;
	int rc;

	if ((rc = units_rate_parse(v, &lr, err, errlen)))
		return rc;
	/* A bare "1G" is a link speed here: bits per second. */
	if (lr.kind == RATE_PPS && !strcasestr(v, "pps"))
		lr.kind = RATE_BPS;
	o->line_bps = lr.value;
	o->line_set = true;
	if (lr.kind != RATE_BPS) {
		snprintf(err, errlen, "--line-rate '%s': give bits per second, e.g. 1G or 10Gbit", v);
		return -EINVAL;
	}
	return 0;
}

static int set_gen_cpu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	return opt_gen_cpus(v, &((struct trial_request *)ctx)->cfg, err, errlen);
}

static int set_rx_cpu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	return opt_cpu("--rx-cpu", v, &((struct trial_request *)ctx)->cfg.rx_cpu, err, errlen);
}

static int set_port_type(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "auto", "xdp", "afxdp", "afpacket", "mmsg" };
	struct trial_request *o = ctx;

	o->path = -1;
	for (int i = 0; i < 5; i++)
		if (!strcmp(v, names[i]))
			o->path = i;
	if (o->path < 0) {
		snprintf(err, errlen, "--port-type '%s': expected auto, xdp, afxdp, afpacket or mmsg", v);
		return -EINVAL;
	}
	return 0;
}

static int set_latency_every(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	uint64_t x;

	if (!strcmp(v, "auto")) {
		o->cfg.latency_every = 0;
		return 0;
	}
	if (units_u64_parse(v, 1, 65536, &x, err, errlen) || (x & (x - 1))) {
		snprintf(err, errlen, "--latency-every '%s': expected auto or a power of two from 1 to 65536", v);
		return -EINVAL;
	}
	o->cfg.latency_every = (unsigned int)x;
	return 0;
}

/* A file name into a char array of the struct (opt->off). */
static int set_path(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	char *dst = (char *)ctx + opt->off;
	size_t cap = sizeof(((struct trial_setup *)0)->req.calib_path);

	if (!*v || strlen(v) >= cap) {
		snprintf(err, errlen, "give a file name");
		return -EINVAL;
	}
	snprintf(dst, cap, "%s", v);
	return 0;
}

static int set_watch(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	if (cpuset_parse_list(v, &o->watch, err, errlen) || !cpuset_count(&o->watch)) {
		snprintf(err, errlen, "--watch-cpus '%s': expected a CPU list like 1 or 2-3", v);
		return -EINVAL;
	}
	return 0;
}

static int set_dut_ports(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	(void)opt;
	return dut_args_ports(v, o->dut_ports_buf, sizeof(o->dut_ports_buf), o->dut_ports, &o->ndut_ports, err,
			      errlen);
}

static int set_dut_placement(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "keep", "bound", "split", "free" };

	for (int i = 1; i < 4; i++)
		if (!strcmp(v, names[i])) {
			((struct trial_request *)ctx)->dut_place = i;
			return 0;
		}
	snprintf(err, errlen, "--dut-placement '%s': expected bound, split or free", v);
	return -EINVAL;
}

static int set_cfg_flag(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;

	o->cfg.no_flow_control = true;
	return 0;
}

static int set_burst(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_request *o = ctx;
	uint64_t x;
	int rc;

	if ((rc = units_u64_parse(v, 1, 4096, &x, err, errlen)))
		return rc;
	o->cfg.max_burst = (unsigned int)x;
	return 0;
}

const struct opt trial_opts[] = {
	{ OPT_CUSTOM("prefix", OPT_VALUE, "P", set_prefix, "use the lab with namespace prefix P"),
	  .group = "ports (default: the lab)", .def = LAB_PREFIX_DEFAULT },
	{ OPT_STR("tx", "IF", TO(tx_if),
		  "a cabled interface of a tester box to send on, instead of the lab;\n"
		  "IF@NETNS names an interface in a named network namespace;\n"
		  "IF1,IF2,... several ports at once (up to 4), each with its --rx") },
	{ OPT_STR("rx", "IF", TO(rx_if),
		  "the cabled interface to receive on (may be --tx's);\n"
		  "a list: one for each --tx port") },
	{ OPT_CUSTOM("dst-mac", OPT_VALUE, "MAC", set_mac,
		     "next hop (the DUT's port) for frames sent on --tx;\n"
		     "with several --tx ports, one MAC each") },
	{ OPT_CUSTOM("rx-dst-mac", OPT_VALUE, "MAC", set_mac,
		     "next hop for frames sent back on --rx (with --bidir);\n"
		     "with several --rx ports, one MAC each"),
	  .id = 1 },
	{ OPT_CUSTOM("next-hop", OPT_VALUE, "ADDR", trial_opts_nexthop_set,
		     "instead of --dst-mac: ask ADDR (the DUT's port on --tx) for\n"
		     "its MAC by ARP or ND on --tx itself, sent from --src-ip") },
	{ OPT_CUSTOM("rx-next-hop", OPT_VALUE, "ADDR", trial_opts_nexthop_set,
		     "instead of --rx-dst-mac: the same on --rx (--bidir), from --dst-ip"),
	  .id = 1 },
	{ OPT_CUSTOM("src-ip", OPT_VALUE, "A", set_ip,
		     "test source address (default 198.18.0.1, or 2001:2:0:1::1 with --ipv6);\n"
		     "with several ports, one for all or one each"),
	  .id = 1 },
	{ OPT_CUSTOM("dst-ip", OPT_VALUE, "B", set_ip,
		     "test destination address (default 198.19.0.2, or 2001:2:0:2::2 with --ipv6);\n"
		     "with several ports, one for all or one each") },
	{ OPT_CUSTOM("ipv6", OPT_NOARG, NULL, set_ipv6,
		     "IPv6 test frames (84..9018 bytes: 78 plus the 18-byte tag's room)") },
	{ OPT_BOOL("allow-any-address", TO(allow_any),
		   "send to addresses outside 198.18.0.0/15 and 2001:2::/48, or\n"
		   "out of an interface that holds a default route") },
	{ OPT_CUSTOM("rate", OPT_VALUE, "RATE", set_rate, "per direction: 100kpps, 1Gbit, or 40% of --line-rate"),
	  .group = "traffic", .shortname = 'r' },
	{ OPT_CUSTOM("size", OPT_VALUE, "N", set_size,
		     "frame size with FCS, 64..9018 (above 1518 the link needs\n"
		     "the MTU: 'lab up --mtu')"),
	  .shortname = 's', .def = "64" },
	{ OPT_CUSTOM("imix", OPT_OPTIONAL, "LIST", set_imix, "mixed sizes: SIZE:WEIGHT,..."),
	  .def = TRIAL_OPTS_IMIX_DEFAULT },
	{ OPT_CUSTOM("flows", OPT_VALUE, "N", set_flows, "distinct flows by UDP source port, 1..65535"),
	  .def = "1" },
	{ OPT_CUSTOM("bidir", OPT_NOARG, NULL, set_bidir, "both directions at once, each at RATE") },
	{ OPT_CUSTOM("line-rate", OPT_VALUE, "RATE", set_line,
		     "link speed for % rates and % of line rate (default: the link's)") },
	{ OPT_NS("duration", "T", TO(cfg.duration_ns), NSEC_PER_MSEC, NSEC_PER_DAY, "traffic time"),
	  .group = "timing (RFC 2544 section 23)", .shortname = 't', .def = "10s", .given = TO(duration_set) },
	{ OPT_U64("learn-frames", "N", TO(cfg.learn_frames), 0, 1000000,
		  "learning frames before the trial (default: one per flow; 0: none)"),
	  .given = TO(learn_set) },
	{ OPT_NS("learn-wait", "T", TO(cfg.learn_wait_ns), 0, 600 * NSEC_PER_SEC, "wait after learning"),
	  .def = "1s" },
	{ OPT_NS("drain", "T", TO(cfg.drain_ns), 0, 600 * NSEC_PER_SEC,
		 "wait for residual frames after the traffic"),
	  .def = "2s" },
	{ OPT_CUSTOM("gen-cpu", OPT_VALUE, "LIST", set_gen_cpu,
		     "pin the generator (default: off the DUT's CPUs); a list (\"0,2\",\n"
		     "\"0-3\"; at most 8): one generator thread per CPU per direction,\n"
		     "each its own stream and transmit queue"),
	  .group = "tester" },
	{ OPT_CUSTOM("rx-cpu", OPT_VALUE, "N", set_rx_cpu, "pin the analyzer (default: off the DUT's CPUs)") },
	{ OPT_CUSTOM("port-type", OPT_VALUE, "TYPE", set_port_type,
		     "auto: xdp where the ports run it, else afxdp where they\n"
		     "bind zero-copy, else afpacket ('probe --tx IF' says why);\n"
		     "xdp: generator and analyzer in XDP (live frames, no skb);\n"
		     "afxdp: AF_XDP sockets both ends;\n"
		     "afpacket: TX ring + TPACKET_V3; mmsg: sendmmsg fallback"),
	  .def = "auto" },
	{ OPT_CUSTOM("burst", OPT_VALUE, "N", set_burst, "frames per batch at most"), .def = "64" },
	{ OPT_CUSTOM("latency-every", OPT_VALUE, "N", set_latency_every,
		     "the XDP analyzer times 1 frame in N (a power of two; 1: every\n"
		     "frame); auto: every frame up to 1 Mpps a stream, above that\n"
		     "the power of two that brings it below"),
	  .def = "auto" },
	{ OPT_CUSTOM("no-flow-control", OPT_NOARG, NULL, set_cfg_flag,
		     "back to back on the XDP path, do not hold the generator\n"
		     "when the analyzer falls behind (its ring overflows instead)") },
	{ OPT_CUSTOM("calibration", OPT_VALUE, "FILE", set_path, "the tester's ceilings"),
	  .def = "~/.local/state/wirerate/calibration", .off = TO(calib_path) },
	{ OPT_CUSTOM("watch-cpus", OPT_VALUE, "LIST", set_watch,
		     "CPUs to watch when the DUT is this host but not the lab"),
	  .group = "DUT CPU cost (lab: the DUT's CPUs are always watched)" },
	{ OPT_BOOL("soak", TO(soak),
		   "also soak them (needs 'wirerate soak --calibrate'): sees the\n"
		   "interrupt time /proc/stat hides") },
	{ OPT_CUSTOM("soak-calibration", OPT_VALUE, "FILE", set_path,
		     "the soak's calibration (the lab and --dut local; a DUT over ssh\n"
		     "keeps its own)"),
	  .def = "~/.local/state/wirerate/soak-calibration", .off = TO(soak_path) },
	DUTOPT_ENTRIES(TO(dut_t), "the DUT's side (docs/cabled-dut.md)", "lab with the lab's ports",
		       "the DUT whose CPUs, counters and kernel are recorded"),
	{ OPT_CUSTOM("dut-ports", OPT_VALUE, "LIST", set_dut_ports,
		     "the DUT's own interfaces (counters, rings, IRQs), e.g. eth1,eth2") },
	{ OPT_CUSTOM("dut-placement", OPT_VALUE, "P", set_dut_placement,
		     "set the DUT ports' IRQ affinity and RPS for the run: bound,\n"
		     "split or free over --watch-cpus; restored after") },
	{ OPT_UINT("dut-rules", "N", TO(dut_rules), 0, NFT_RULES_MAX,
		   "load N null firewall rules on the DUT for the run; removed after"),
	  .given = TO(dut_rules_set) },
	{ OPT_BOOL("stall-probe", TO(stall_probe),
		   "also time how long they are away (a SCHED_FIFO thread that\n"
		   "wakes on a fixed period on each) and the host's steal time") },
	PROFILEOPT_ENTRIES(TO(profile), TO(profile_hz), TO(profile_top), "also sample where their time goes"),
	{ NULL },
};
