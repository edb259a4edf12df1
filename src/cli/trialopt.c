#include "cli/trialopt.h"
#include "app/trialres.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "os/cpulat.h"
#include "store/calib.h"
#include "dut/soak.h"

enum {
	O_PREFIX = 256, O_TX, O_RX, O_DST_MAC, O_RX_DST_MAC, O_SRC_IP, O_DST_IP, O_RATE,
	O_SIZE, O_IMIX, O_FLOWS, O_BIDIR, O_LINE, O_DURATION, O_LEARN, O_LEARN_WAIT,
	O_DRAIN, O_GEN_CPU, O_RX_CPU, O_PORT_TYPE, O_BURST, O_JSON, O_CALIB,
	O_WATCH, O_SOAK, O_SOAK_CAL, O_IPV6, O_NO_FLOW, O_LAT_EVERY, O_ALLOW_ANY,
};

static const struct option trial_opts[] = {
	{ "prefix", required_argument, NULL, O_PREFIX },
	{ "tx", required_argument, NULL, O_TX },
	{ "rx", required_argument, NULL, O_RX },
	{ "dst-mac", required_argument, NULL, O_DST_MAC },
	{ "rx-dst-mac", required_argument, NULL, O_RX_DST_MAC },
	{ "src-ip", required_argument, NULL, O_SRC_IP },
	{ "dst-ip", required_argument, NULL, O_DST_IP },
	{ "rate", required_argument, NULL, O_RATE },
	{ "size", required_argument, NULL, O_SIZE },
	{ "imix", optional_argument, NULL, O_IMIX },
	{ "flows", required_argument, NULL, O_FLOWS },
	{ "bidir", no_argument, NULL, O_BIDIR },
	{ "line-rate", required_argument, NULL, O_LINE },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "learn-frames", required_argument, NULL, O_LEARN },
	{ "learn-wait", required_argument, NULL, O_LEARN_WAIT },
	{ "drain", required_argument, NULL, O_DRAIN },
	{ "gen-cpu", required_argument, NULL, O_GEN_CPU },
	{ "rx-cpu", required_argument, NULL, O_RX_CPU },
	{ "port-type", required_argument, NULL, O_PORT_TYPE },
	{ "burst", required_argument, NULL, O_BURST },
	{ "no-flow-control", no_argument, NULL, O_NO_FLOW },
	{ "latency-every", required_argument, NULL, O_LAT_EVERY },
	{ "json", no_argument, NULL, O_JSON },
	{ "calibration", required_argument, NULL, O_CALIB },
	{ "watch-cpus", required_argument, NULL, O_WATCH },
	{ "soak", no_argument, NULL, O_SOAK },
	{ "ipv6", no_argument, NULL, O_IPV6 },
	{ "allow-any-address", no_argument, NULL, O_ALLOW_ANY },
	{ "soak-calibration", required_argument, NULL, O_SOAK_CAL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
		if (size_parse(t, 1, FRAME_MAX, &sz, err, errlen) ||
		    (colon && u64_parse(colon + 1, 1, TRIAL_MAX_SIZES, &w, err, errlen))) {
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

	if (u64_parse(v, 0, 1023, &x, err, errlen)) {
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

int trialopt_parse(struct trialopt *o, struct cli *cli, int argc, char **argv,
		   const char *usage, const char *default_rate, char *err, size_t errlen)
{
	uint64_t v;
	int c, li, rc = 0;
	bool src_v6 = false, dst_v6 = false, ipv6_flag = false, imix_set = false;

	memset(o, 0, sizeof(*o));
	snprintf(o->prefix, sizeof(o->prefix), "%s", LAB_PREFIX_DEFAULT);
	o->nsfd[0] = o->nsfd[1] = o->nsfd[2] = -1;
	o->lab_lock = -1;
	o->cfg.ndirs = 1;
	o->cfg.sizes[0] = 64;
	o->cfg.nsizes = 1;
	o->cfg.flows = (struct frame_flows){ .sport_first = 1024, .sport_count = 1 };
	o->cfg.duration_ns = 10000000000ULL;
	o->cfg.learn_wait_ns = 1000000000ULL;
	o->cfg.drain_ns = 2000000000ULL;
	for (int k = 0; k < TRIAL_MAX_THREADS; k++)
		o->cfg.gen_cpu[k] = -1;
	o->cfg.rx_cpu = -1;
	o->cfg.port_type = PORT_AFPACKET;
	o->path = TRIALOPT_AUTO;
	o->cfg.max_burst = 64;
	memcpy(o->src_ip, (uint8_t[]){ 198, 18, 0, 1 }, 4);
	memcpy(o->dst_ip, (uint8_t[]){ 198, 19, 0, 2 }, 4);

	optind = 1;
	opterr = 0;
	while (!rc && (li = -1, c = getopt_long(argc, argv, ":h", trial_opts, &li)) != -1) {
		/* the option's own name: argv[optind - 1] is its value when
		 * given as "--opt VALUE" */
		char name[40];

		if (li >= 0)
			snprintf(name, sizeof(name), "--%s", trial_opts[li].name);
		else
			snprintf(name, sizeof(name), "%s", argv[optind - 1]);

		switch (c) {
		case O_PREFIX:
			snprintf(o->prefix, sizeof(o->prefix), "%s", optarg);
			rc = lab_prefix_check(optarg, err, errlen);
			break;
		case O_TX: o->tx_if = optarg; break;
		case O_RX: o->rx_if = optarg; break;
		case O_DST_MAC:
		case O_RX_DST_MAC:
			if (parse_mac(optarg, c == O_DST_MAC ? o->dst_mac : o->rx_dst_mac)) {
				snprintf(err, errlen, "%s '%s': expected a unicast MAC like 02:00:00:00:00:01",
					 c == O_DST_MAC ? "--dst-mac" : "--rx-dst-mac", optarg);
				rc = -EINVAL;
			}
			*(c == O_DST_MAC ? &o->dst_mac_set : &o->rx_dst_mac_set) = true;
			break;
		case O_SRC_IP:
		case O_DST_IP: {
			uint8_t *dst = c == O_SRC_IP ? o->src_ip : o->dst_ip;
			bool v6 = strchr(optarg, ':') != NULL;

			memset(dst, 0, 16);
			if (inet_pton(v6 ? AF_INET6 : AF_INET, optarg, dst) != 1) {
				snprintf(err, errlen, "%s '%s': expected an IPv4 or IPv6 address",
					 c == O_SRC_IP ? "--src-ip" : "--dst-ip", optarg);
				rc = -EINVAL;
			} else if (!unicast_ip(dst, v6)) {
				snprintf(err, errlen, "%s '%s': expected a unicast address (not unspecified, broadcast "
					 "or multicast)", c == O_SRC_IP ? "--src-ip" : "--dst-ip", optarg);
				rc = -EINVAL;
			}
			if (v6)
				o->ipv6 = true;
			*(c == O_SRC_IP ? &o->src_set : &o->dst_set) = true;
			*(c == O_SRC_IP ? &src_v6 : &dst_v6) = v6;
			break;
		}
		case O_IPV6: o->ipv6 = ipv6_flag = true; break;
		case O_ALLOW_ANY: o->allow_any = true; break;
		case O_RATE:
			if ((rc = rate_parse(optarg, &o->rate, err, errlen)))
				break;
			o->rate_set = true;
			break;
		case O_SIZE:
			if ((rc = size_parse(optarg, FRAME_MIN_V4, FRAME_MAX, &v, err, errlen)))
				break;
			o->cfg.sizes[0] = (unsigned int)v;
			o->cfg.nsizes = 1;
			o->size_set = true;
			break;
		case O_IMIX:
			rc = parse_imix(optarg ? optarg : "64:7,570:4,1518:1", &o->cfg, err, errlen);
			imix_set = true;
			break;
		case O_FLOWS:
			if ((rc = u64_parse(optarg, 1, 65535, &v, err, errlen)))
				break;
			o->cfg.flows.sport_count = (uint16_t)v;
			o->cfg.flows.sport_first = v <= 64512 ? 1024 : 1;
			break;
		case O_BIDIR: o->cfg.ndirs = 2; break;
		case O_LINE: {
			struct rate lr;

			if ((rc = rate_parse(optarg, &lr, err, errlen)))
				break;
			/* A bare "1G" is a link speed here: bits per second. */
			if (lr.kind == RATE_PPS && !strcasestr(optarg, "pps"))
				lr.kind = RATE_BPS;
			if (lr.kind != RATE_BPS) {
				snprintf(err, errlen, "--line-rate '%s': give bits per second, e.g. 1G or 10Gbit", optarg);
				rc = -EINVAL;
			}
			o->line_bps = lr.value;
			o->line_set = true;
			break;
		}
		case O_DURATION:
			rc = duration_parse(optarg, 1000000ULL, 86400000000000ULL, &o->cfg.duration_ns, err, errlen);
			o->duration_set = true;
			break;
		case O_LEARN:
			rc = u64_parse(optarg, 0, 1000000, &o->cfg.learn_frames, err, errlen);
			o->learn_set = true;
			break;
		case O_LEARN_WAIT:
			rc = duration_parse(optarg, 0, 600000000000ULL, &o->cfg.learn_wait_ns, err, errlen);
			break;
		case O_DRAIN:
			rc = duration_parse(optarg, 0, 600000000000ULL, &o->cfg.drain_ns, err, errlen);
			break;
		case O_GEN_CPU: rc = opt_gen_cpus(optarg, &o->cfg, err, errlen); break;
		case O_RX_CPU: rc = opt_cpu("--rx-cpu", optarg, &o->cfg.rx_cpu, err, errlen); break;
		case O_PORT_TYPE: {
			static const char *const names[] = { "auto", "xdp", "afxdp", "afpacket", "mmsg" };

			o->path = -1;
			for (int i = 0; i < 5; i++)
				if (!strcmp(optarg, names[i]))
					o->path = i;
			if (o->path < 0) {
				snprintf(err, errlen, "--port-type '%s': expected auto, xdp, afxdp, afpacket or mmsg", optarg);
				rc = -EINVAL;
			}
			break;
		}
		case O_BURST:
			if ((rc = u64_parse(optarg, 1, 4096, &v, err, errlen)))
				break;
			o->cfg.max_burst = (unsigned int)v;
			break;
		case O_NO_FLOW: o->cfg.no_flow_control = true; break;
		case O_LAT_EVERY:
			if (!strcmp(optarg, "auto")) {
				o->cfg.latency_every = 0;
				break;
			}
			if ((rc = u64_parse(optarg, 1, 65536, &v, err, errlen)) || (v & (v - 1))) {
				snprintf(err, errlen, "--latency-every '%s': expected auto or a power of two from 1 to 65536",
					 optarg);
				rc = -EINVAL;
				break;
			}
			o->cfg.latency_every = (unsigned int)v;
			break;
		case O_JSON: cli->json = true; break;
		case O_CALIB:
		case O_SOAK_CAL:
			if (!*optarg || strlen(optarg) >= sizeof(o->calib_path)) {
				snprintf(err, errlen, "%s: give a file name", name);
				rc = -EINVAL;
				break;
			}
			snprintf(c == O_CALIB ? o->calib_path : o->soak_path, sizeof(o->calib_path), "%s", optarg);
			break;
		case O_WATCH:
			if (cpuset_parse_list(optarg, &o->watch, err, errlen) || !cpuset_count(&o->watch)) {
				snprintf(err, errlen, "--watch-cpus '%s': expected a CPU list like 1 or 2-3", optarg);
				rc = -EINVAL;
			}
			break;
		case O_SOAK: o->soak = true; break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", name);
			rc = -EINVAL;
			break;
		default:
			snprintf(err, errlen, "unknown option '%s' (see 'wirerate %s --help')", name, argv[0]);
			rc = -EINVAL;
			break;
		}
		if (rc && c >= O_PREFIX && !strstr(err, "--")) {
			char tmp[512];

			snprintf(tmp, sizeof(tmp), "%s: %s", name, err);
			snprintf(err, errlen, "%s", tmp);
		}
	}
	if (!rc && optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		rc = -EINVAL;
	}
	if (!rc && !o->rate_set && default_rate) {
		rate_parse(default_rate, &o->rate, err, errlen);
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
	if (!rc && o->size_set && imix_set) {
		snprintf(err, errlen, "--size and --imix: one frame size or a mix, not both");
		rc = -EINVAL;
	}
	/* The lab's addresses are its own: these name a cabled DUT's. */
	if (!rc && !o->tx_if && (o->src_set || o->dst_set || o->dst_mac_set || o->rx_dst_mac_set)) {
		snprintf(err, errlen, "%s applies to --tx/--rx ports only (the lab's addresses and MACs are fixed)",
			 o->src_set ? "--src-ip" : o->dst_set ? "--dst-ip" : o->dst_mac_set ? "--dst-mac" : "--rx-dst-mac");
		rc = -EINVAL;
	}
	if (!rc && o->src_set && o->dst_set && src_v6 != dst_v6) {
		snprintf(err, errlen, "--src-ip and --dst-ip are of different families (one IPv4, one IPv6)");
		rc = -EINVAL;
	}
	if (!rc && ipv6_flag && ((o->src_set && !src_v6) || (o->dst_set && !dst_v6))) {
		snprintf(err, errlen, "--ipv6 with an IPv4 %s", o->src_set && !src_v6 ? "--src-ip" : "--dst-ip");
		rc = -EINVAL;
	}
	if (rc) {
		cli_error("%s: %s", argv[0], err);
		return -EINVAL;
	}
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
	/* Both are destinations (of the return direction with --bidir; of
	 * the DUT's replies otherwise). */
	for (int k = 0; k < 2 && !o->allow_any; k++) {
		const uint8_t *ip = k ? o->src_ip : o->dst_ip;
		char a[INET6_ADDRSTRLEN];

		if (addrpolicy_ip_in_bench_range(ip, o->ipv6))
			continue;
		inet_ntop(o->ipv6 ? AF_INET6 : AF_INET, ip, a, sizeof(a));
		addrpolicy_refusal(k ? "--src-ip" : "--dst-ip", a, err, errlen);
		cli_error("%s: %s", argv[0], err);
		return -EINVAL;
	}
	if (!o->calib_path[0])
		calib_default_path(o->calib_path, sizeof(o->calib_path));
	if (calib_check(o->calib_path, err, errlen)) {
		cli_error("%s: --calibration %s", argv[0], err);
		return -EINVAL;
	}
	if (!o->soak_path[0])
		soak_calib_default_path(o->soak_path, sizeof(o->soak_path));
	if (!o->learn_set)
		o->cfg.learn_frames = frame_flows_count(&o->cfg.flows);
	o->cfg.trial_id = (uint16_t)(((unsigned int)getpid() ^ (unsigned int)time(NULL)) & 0x7fff);
	if (!o->cfg.trial_id)
		o->cfg.trial_id = 1;
	return 0;
}

void trialopt_print_header(struct out *out, const struct trialopt *o, const struct trial_result *res)
{
	const struct trial_cfg *c = &o->cfg;
	char sizes[128];

	sizes_join(sizes, sizeof(sizes), c->sizes, c->nsizes);
	out_u64(out, "trial_id", "trial %llu: ", c->trial_id);
	out_str(out, "family", "%s ", o->ipv6 ? "IPv6" : "IPv4");
	out_str(out, "sizes", c->nsizes > 1 ? "IMIX %s byte frames" : "%s-byte frames", sizes);
	out_f64(out, "avg_frame_size", NULL, res->avg_frame_size);
	out_u64(out, "flows", ", %llu flow(s)", frame_flows_count(&c->flows));
	out_f64(out, "duration_s", ", %g s", c->duration_ns / 1e9);
	/* calibrate: two steps, and the rate kept is the second's */
	if (o->direct)
		out_text(out, " flat out, then %g s", c->duration_ns / 1e9);
	out_f64(out, "rate_pps", o->direct ? " at %.0f frames/s (90%% of that)" : " at %.0f frames/s", c->rate_pps);
	out_u64(out, "directions", " x %llu direction(s)", c->ndirs);
	out_str(out, "where", ", %s\n", o->where);
	out_str(out, "path", "  tester     %s generator", app_trial_path(o));
	out_str(out, "analyzer", ", %s analyzer", c->xdp_rx ? "xdp" : port_type_name(c->port_type));
	out_str(out, "port_type", NULL, app_trial_path(o));
	{
		char cpus[96] = "";
		size_t n = 0;
		unsigned int nt = trial_threads(c);

		for (unsigned int k = 0; k < nt && n < sizeof(cpus); k++)
			n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, "%s%d", k ? "," : "", c->gen_cpu[k]);
		if (c->gen_cpu[0] >= 0) {
			out_i64(out, "gen_cpu", nt > 1 ? NULL : ", generator on CPU %lld", c->gen_cpu[0]);
		} else {
			out_null(out, "gen_cpu");
			out_text(out, ", generator not pinned");
		}
		out_u64(out, "gen_threads", nt > 1 ? ", %llu generator threads" : NULL, nt);
		out_str(out, "gen_cpus", nt > 1 ? " on CPUs %s" : NULL, cpus);
	}
	if (c->rx_cpu >= 0) {
		out_i64(out, "rx_cpu", ", analyzer on CPU %lld", c->rx_cpu);
	} else {
		out_null(out, "rx_cpu");
		out_text(out, ", analyzer not pinned");
	}
	if (res->cpu_line_ns > 0)
		out_f64(out, "cpu_line_ns", " (%.0f ns a cache line away)", res->cpu_line_ns);
	else
		out_null(out, "cpu_line_ns");
	out_u64(out, "learn_frames", "; %llu learning frames", c->learn_frames);
	out_f64(out, "learn_wait_s", ", %g s wait", c->learn_wait_ns / 1e9);
	out_f64(out, "drain_s", ", %g s drain\n", c->drain_ns / 1e9);
	if (o->line_bps > 0)
		out_f64(out, "line_rate_bps", "  line rate  %.0f bit/s\n", o->line_bps);
	else
		out_null(out, "line_rate_bps");
}

double trialopt_check_ceiling(const struct trialopt *o, struct trial_result *res)
{
	struct calib_entry e;
	char err[256], key[sizeof(e.port_type)];

	app_trial_calib_key(o, key, sizeof(key));
	if (o->cfg.nsizes != 1 || calib_lookup(o->calib_path, key, o->cfg.sizes[0], &e, err, sizeof(err)))
		return 0;
	/* calibrated on the same pair of CPUs: how far apart they were then */
	if (e.line_ns > 0 && res->cpu_line_ns > 0) {
		char pair[sizeof(e.line_cpus)];

		cpulat_pair_name(o->cfg.gen_cpu[0], o->cfg.rx_cpu, pair, sizeof(pair));
		if (!strcmp(pair, e.line_cpus))
			res->ceiling_line_ns = e.line_ns;
	}
	if (o->cfg.rate_pps <= e.pps)
		return e.pps;
	for (unsigned int d = 0; d < res->ndirs; d++) {
		struct trial_dir_result *r = &res->dir[d];

		if (r->tester_limited)
			continue;
		snprintf(r->tester_reason, sizeof(r->tester_reason),
			 "%.0f frames/s is above the tester's calibrated ceiling of %.0f (wirerate calibrate)",
			 o->cfg.rate_pps, e.pps);
		r->tester_limited = true;
		res->tester_limited = true;
	}
	return e.pps;
}

int trialopt_cpucost(const struct trialopt *o, struct cpucost **cost, char *err, size_t errlen)
{
	struct soak_calib *cal = NULL;
	struct cpuset online;
	int rc;

	*cost = NULL;
	if (!cpuset_count(&o->watch)) {
		if (o->soak) {
			snprintf(err, errlen, "--soak: give --watch-cpus (the DUT's CPUs) with --tx/--rx");
			return -EINVAL;
		}
		return 0;
	}
	if (!host_online_cpus(&online, err, errlen) && !cpuset_subset(&o->watch, &online)) {
		snprintf(err, errlen, "--watch-cpus: not every CPU is online");
		return -EINVAL;
	}
	if (o->soak) {
		cal = calloc(1, sizeof(*cal));
		if (!cal)
			return -ENOMEM;
		if ((rc = soak_calib_load(o->soak_path, cal, err, errlen)) == -ENOENT)
			snprintf(err, errlen, "--soak: no soak calibration in %s: run 'wirerate soak --calibrate' on an idle machine first",
				 o->soak_path);
		if (!rc)
			rc = soak_calib_verify(cal, err, errlen);
		if (rc) {
			free(cal);
			return rc == -ENOENT || rc == -ESTALE ? -EINVAL : rc;
		}
	}
	rc = cpucost_create(&o->watch, cal, cost, err, errlen);
	free(cal);
	return rc;
}

void cpucost_print(struct out *out, const struct cpucost_result *r)
{
	out_obj_start(out, "dut_cpu");
	if (!r->valid) {
		out_text(out, "  DUT CPU    not measured\n");
		out_obj_end(out);
		return;
	}
	out_f64(out, "seconds", NULL, r->seconds);
	out_arr_start(out, "cpus");
	for (unsigned int i = 0; i < r->n; i++) {
		const struct cpucost_cpu *c = &r->c[i];

		out_obj_start(out, NULL);
		out_u64(out, "cpu", "  DUT CPU %-2llu", c->cpu);
		out_f64(out, "usr", " usr %.1f", c->pct.usr);
		out_f64(out, "sys", " sys %.1f", c->pct.sys);
		out_f64(out, "irq", " irq %.1f", c->pct.irq);
		out_f64(out, "soft", " soft %.1f", c->pct.soft);
		out_f64(out, "idle", " idle %.1f", c->pct.idle);
		out_f64(out, "busy", "  busy %.1f%% (wall - idle)", c->pct.busy);
		if (c->soak >= 0)
			out_f64(out, "soak", ", soak %.1f%%", c->soak * 100);
		else
			out_null(out, "soak");
		out_f64(out, "intr_s", "; intr/s %.0f", c->intr_s);
		out_f64(out, "net_rx_s", ", NET_RX/s %.0f", c->net_rx_s);
		out_u64(out, "softnet_dropped", ", backlog drops %llu\n", c->softnet_dropped);
		out_u64(out, "softnet_squeezed", NULL, c->softnet_squeezed);
		out_obj_end(out);
	}
	out_arr_end(out);
	out_f64(out, "busy_cpu_s", NULL, r->busy_cpu_s);
	out_f64(out, "accounted_cpu_s", NULL, r->accounted_cpu_s);
	if (r->soak_cpu_s >= 0)
		out_f64(out, "soak_cpu_s", NULL, r->soak_cpu_s);
	if (r->ns_per_frame > 0) {
		out_f64(out, "ns_per_frame", "  cost       %.0f ns of DUT CPU per forwarded frame", r->ns_per_frame);
		out_f64(out, "frames_per_cpu_s", ", %.0f frames per CPU-second", r->frames_per_cpu_s);
		out_str(out, "source", " (from %s)\n", r->source);
	} else {
		out_str(out, "source", NULL, r->source);
	}
	out_obj_end(out);
}
