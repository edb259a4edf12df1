/* wirerate lab up|down|status */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/units.h"
#include "render/out.h"
#include "lab/lab.h"
#include "os/netns.h"

static void print_mac(struct out *o, const char *key, const uint8_t m[6])
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	out_str(o, key, "%-18s ", buf);
}

static void print_status(struct out *o, const struct lab_status *st)
{
	const char *state = st->complete ? "up" : st->exists ? "partial" : "absent";
	char ns[NETNS_NAME_MAX], buf[256];

	out_str(o, "prefix", "lab %s: ", st->prefix);
	out_str(o, "state", "%s\n", state);
	if (st->holder[0])
		out_str(o, "in_use_by", "  in use: %s\n", st->holder);
	else
		out_null(o, "in_use_by");
	out_bool(o, "interrupted_build", st->build_died && st->exists ?
		 "  a lab up, lab down or matrix was killed before it finished: 'wirerate lab up' repairs the lab\n" : NULL,
		 st->build_died);
	if (!st->exists) {
		/* the same keys as a lab that is there: none of its parts */
		out_text(o, "  no namespace %sgen, %sdut or %ssink: run 'wirerate lab up'\n",
			 st->prefix, st->prefix, st->prefix);
		out_arr_start(o, "interfaces");
		out_arr_end(o);
		out_null(o, "dut");
		return;
	}
	out_text(o, "  [gen] gen0 198.18.0.1/24 ==veth== dut0 198.18.0.2/24 [dut] "
		    "dut1 198.19.0.1/24 ==veth== sink0 198.19.0.2/24 [sink]\n"
		    "        2001:2:0:1::1/64            2001:2:0:1::2/64       "
		    "2001:2:0:2::1/64            2001:2:0:2::2/64\n\n");
	out_text(o, "  %-10s %-6s %-15s %-18s %-5s %-5s %12s %10s %12s %10s  %s\n",
		 "namespace", "if", "address", "mac", "state", "rps", "rx frames", "rx drop",
		 "tx frames", "tx drop", "offloads");
	out_arr_start(o, "interfaces");
	for (int i = 0; i < LAB_NIFS; i++) {
		const struct lab_addr *a = lab_if((enum lab_ifx)i);
		const struct lab_if_status *is = &st->ifs[i];

		out_obj_start(o, NULL);
		lab_ns_name(st->prefix, a->role, ns, sizeof(ns));
		out_str(o, "namespace", "  %-10s ", ns);
		out_str(o, "name", "%-6s ", a->ifname);
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u/%u", a->ip[0], a->ip[1], a->ip[2], a->ip[3], a->plen);
		out_str(o, "address", "%-15s ", buf);
		{
			char a6[INET6_ADDRSTRLEN];

			inet_ntop(AF_INET6, a->ip6, a6, sizeof(a6));
			snprintf(buf, sizeof(buf), "%s/64", a6);
			out_str(o, "address6", NULL, buf);
		}
		out_bool(o, "present", NULL, is->present);
		if (!is->present) {
			out_text(o, "%-18s missing\n", "-");
			out_obj_end(o);
			continue;
		}
		print_mac(o, "mac", is->link.mac);
		out_str(o, "state", "%-5s ", is->link.up ? "up" : "down");
		cpuset_format_list(&is->rps, buf, sizeof(buf));
		out_str(o, "rps_cpus", NULL, is->rps_known ? buf : "?");
		out_text(o, "%-5s ", is->rps_known ? (buf[0] ? buf : "-") : "?");
		out_u64(o, "rx_packets", "%12llu ", is->link.rx_packets);
		out_u64(o, "rx_dropped", "%10llu ", is->link.rx_dropped);
		out_u64(o, "tx_packets", "%12llu ", is->link.tx_packets);
		out_u64(o, "tx_dropped", "%10llu  ", is->link.tx_dropped);
		out_u64(o, "rx_bytes", NULL, is->link.rx_bytes);
		out_u64(o, "tx_bytes", NULL, is->link.tx_bytes);
		out_u64(o, "mtu", NULL, is->link.mtu);
		out_u64(o, "xdp_prog_id", NULL, is->link.xdp_prog_id);
		if (is->offl_known) {
			out_obj_start(o, "offloads");
			out_bool(o, "gro", "gro %s ", is->offl.gro);
			out_bool(o, "gso", "gso %s ", is->offl.gso);
			out_bool(o, "tso", "tso %s", is->offl.tso);
			out_obj_end(o);
		}
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);

	out_obj_start(o, "dut");
	out_bool(o, "forwarding", "\n  DUT: forwarding %s", st->forwarding);
	cpuset_format_list(&st->dut_cpus, buf, sizeof(buf));
	out_str(o, "cpus", ", receive work on CPU %s", buf);
	out_str(o, "placement", " (placement %s", lab_placement_name(st->placement));
	cpuset_format_list(&st->ifs[LAB_DUT0].cpus, buf, sizeof(buf));
	out_str(o, "dut0_cpus", ": dut0 -> %s", buf);
	cpuset_format_list(&st->ifs[LAB_DUT1].cpus, buf, sizeof(buf));
	out_str(o, "dut1_cpus", ", dut1 -> %s)", buf);
	cpuset_format_list(&st->tester_cpus, buf, sizeof(buf));
	out_str(o, "tester_cpus", "; tester CPUs %s\n", cpuset_count(&st->tester_cpus) ? buf : "none (shared with the DUT)");
	out_u64(o, "queues", "  queues: %llu transmit and receive queue(s) a port\n", st->queues);
	{
		bool x0 = st->ifs[LAB_DUT0].link.xdp_prog_id, x1 = st->ifs[LAB_DUT1].link.xdp_prog_id;

		out_bool(o, "napi_mode", NULL, x0 && x1);
		out_str(o, "ingress", "  ingress: %s\n", x0 && x1 ?
			"NAPI mode (XDP pass-through on dut0 and dut1, threaded NAPI on the DUT CPUs): "
			"an overloaded DUT drops from its receive ring" :
			"skb mode (no XDP on the DUT's ports: 'lab up --no-xdp', or the kernel could not)");
	}
	if (st->rules >= 0)
		out_i64(o, "rules", "  rules: %lld null rules in the forward path (nft table inet wirerate)\n", st->rules);
	else
		out_null(o, "rules");
	out_obj_start(o, "shape");
	if (!strcmp(st->shape.kind, "tbf")) {
		out_str(o, "qdisc", "  shaping: %s on dut1, ", "tbf");
		if (st->shape.pkt_size) {
			out_f64(o, "pps", "%.0f frames/s", (double)st->shape.rate / st->shape.pkt_size);
			out_u64(o, "burst_frames", ", burst %llu frames", st->shape.burst / st->shape.pkt_size);
			out_u64(o, "limit_frames", ", queue %llu frames", st->shape.limit / st->shape.pkt_size);
		} else {
			out_f64(o, "bps", "%.0f bit/s (frame + 24 B of FCS, preamble and gap)", (double)st->shape.rate * 8);
			out_u64(o, "burst_bytes", ", burst %llu B", st->shape.burst);
			out_u64(o, "limit_bytes", ", queue %llu B", st->shape.limit);
		}
		out_u64(o, "sent", "; sent %llu", st->shape.packets);
		out_u64(o, "dropped", ", dropped %llu\n", st->shape.drops);
	} else {
		out_str(o, "qdisc", "  shaping: none (%s on dut1)\n", st->shape.kind[0] ? st->shape.kind : "noqueue");
	}
	out_obj_end(o);
	out_obj_end(o);
}

static int lab_act(struct cli *cli, struct lab_spec *spec, const char *action);

/* lab's options and the last one given that only 'lab up' takes */
struct lab_args {
	struct lab_spec spec;
	const struct opt *up_only;
};

#define LA(field) OPT_FIELD(struct lab_args, spec.field)

static int set_prefix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	if ((rc = lab_prefix_check(v, err, errlen)))
		return rc;
	snprintf(la->spec.prefix, sizeof(la->spec.prefix), "%s", v);
	return 0;
}

static int set_dut_cpus(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	if ((rc = cpuset_parse_list(v, &la->spec.dut_cpus, err, errlen)))
		return rc;
	if (!cpuset_count(&la->spec.dut_cpus)) {
		snprintf(err, errlen, "give at least one CPU, e.g. 1 or 1-3");
		return -EINVAL;
	}
	la->up_only = opt;
	return 0;
}

static int set_placement(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;

	if (lab_placement_parse(v, &la->spec.placement)) {
		snprintf(err, errlen, "--placement '%s': expected bound, split or free", v);
		return -EINVAL;
	}
	la->up_only = opt;
	return 0;
}

static int set_shape(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	if ((rc = rate_parse(v, &la->spec.shape_rate, err, errlen)))
		return rc;
	la->spec.shape = true;
	la->up_only = opt;
	return 0;
}

static int set_mtu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	char why[256];
	int rc;

	if ((rc = opt_set_uint(ctx, opt, v, why, sizeof(why)))) {
		snprintf(err, errlen, "%s (9000 carries 9018-byte frames)", why);
		return rc;
	}
	la->up_only = opt;
	return 0;
}

/* --rules, --queues: a number in range */
static int set_up_uint(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_set_uint(ctx, opt, v, err, errlen);

	if (!rc)
		((struct lab_args *)ctx)->up_only = opt;
	return rc;
}

static int set_no_xdp(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	((struct lab_args *)ctx)->up_only = opt;
	return opt_set_true(ctx, opt, v, err, errlen);
}

static const struct opt lab_opts[] = {
	{ "prefix", 0, OPT_VALUE, "P", "options", "wr-", "namespace name prefix: labs side by side", set_prefix },
	{ "dut-cpus", 0, OPT_VALUE, "LIST", "lab up only", NULL,
	  "CPUs that do the DUT's forwarding (default: the last one)", set_dut_cpus },
	{ "placement", 0, OPT_VALUE, "MODE", NULL, "bound",
	  "bound: both directions on the first DUT CPU\n"
	  "split: each direction on a DUT CPU of its own\n"
	  "free:  spread over all DUT CPUs by flow hash", set_placement },
	{ "rules", 0, OPT_VALUE, "N", NULL, NULL, "N firewall rules that match nothing in the forward path (0..100000)",
	  set_up_uint, LA(rules), 0, 100000 },
	{ "shape", 0, OPT_VALUE, "RATE", NULL, NULL,
	  "cap the DUT at RATE (e.g. 50kpps or 100Mbit) with a token bucket", set_shape },
	{ "mtu", 0, OPT_VALUE, "N", NULL, "1500",
	  "MTU of the lab's links, 1280..9000 (9000 for\nframes up to 9018 bytes)",
	  set_mtu, LA(mtu), LAB_MTU_MIN, LAB_MTU_MAX },
	{ "queues", 0, OPT_VALUE, "N", NULL, "1",
	  "transmit and receive queues of every lab port, 1..8:\n"
	  "a generator thread each ('trial --gen-cpu LIST'), and the DUT's\n"
	  "receive spread over its CPUs queue by queue, like a NIC's RSS",
	  set_up_uint, LA(queues), 1, LAB_QUEUES_MAX },
	{ "no-xdp", 0, OPT_NOARG, NULL, NULL, NULL,
	  "leave the DUT's ports in skb mode (by default they run an XDP\n"
	  "pass-through with threaded NAPI on the DUT CPUs, so an\n"
	  "overloaded DUT drops from its receive ring like a NIC)",
	  set_no_xdp, LA(no_xdp) },
	{ NULL },
};

static const struct opt *const lab_tables[] = { lab_opts, NULL };

const struct opt_cmd lab_cmd = {
	.name = "lab",
	.synopsis = "up|down|status [OPTIONS]",
	.about = "  up       build the lab (or repair it; safe to repeat)\n"
		 "  down     remove the lab, also a half-built one\n"
		 "  status   topology, CPU placement, rules, shaping and counters\n",
	.tables = lab_tables,
	.bare_errors = true,
};

int lab_args_parse(struct cli *cli, int argc, char **argv, struct lab_spec *out, const char **action)
{
	struct lab_args la = { .spec = { .placement = PLACE_BOUND } };
	void *ctx[] = { &la };
	char err[512], **args;
	int nargs, rc;

	snprintf(la.spec.prefix, sizeof(la.spec.prefix), "%s", LAB_PREFIX_DEFAULT);
	/* the action is a word among the options: all of them gathered, so
	 * that none or two get lab's own message */
	if (!(args = calloc((size_t)argc, sizeof(*args)))) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	if ((rc = opt_parse(&lab_cmd, ctx, cli, argc, argv, args, argc, &nargs))) {
		free(args);
		return rc == OPT_HELP ? -1 : EXIT_USAGE;
	}
	if (nargs != 1) {
		cli_error(!nargs ? "lab: say up, down or status (see 'wirerate lab --help')"
				 : "lab: one action only, got '%s' after '%s'",
			  nargs > 1 ? args[1] : "", nargs ? args[0] : argv[0]);
		free(args);
		return EXIT_USAGE;
	}
	*action = args[0];
	free(args);
	if (strcmp(*action, "up") && strcmp(*action, "down") && strcmp(*action, "status")) {
		cli_error("lab: unknown action '%s': expected up, down or status", *action);
		return EXIT_USAGE;
	}
	if (strcmp(*action, "up") && la.up_only) {
		cli_error("lab %s: --%s applies to 'lab up' only", *action, la.up_only->name);
		return EXIT_USAGE;
	}
	if (!strcmp(*action, "up") && lab_spec_check(&la.spec, err, sizeof(err))) {
		cli_error("lab up: %s", err);
		return EXIT_USAGE;
	}
	*out = la.spec;
	return 0;
}

int cmd_lab(struct cli *cli, int argc, char **argv)
{
	struct lab_spec spec;
	const char *action;
	char err[512];
	int rc;

	if ((rc = lab_args_parse(cli, argc, argv, &spec, &action)))
		return rc < 0 ? 0 : rc;
	if (strcmp(action, "status")) {
		/* Building or removing takes a second or two and is finished
		 * rather than left half done (lab_up, lab_down): a Ctrl-C then
		 * would only kill the report of a job that completed. */
		struct sigaction ign = { .sa_handler = SIG_IGN };
		int lock;

		sigaction(SIGINT, &ign, NULL);
		sigaction(SIGTERM, &ign, NULL);

		if ((rc = lab_lock(spec.prefix, !strcmp(action, "up") ? "lab up" : "lab down", true, &lock, err, sizeof(err)))) {
			cli_error("lab %s: %s", action, err);
			return EXIT_RUNTIME;
		}
		rc = lab_act(cli, &spec, action);
		lab_unlock(&lock, !strcmp(action, "down") && !rc ? spec.prefix : NULL);
		return rc;
	}
	return lab_act(cli, &spec, action);
}

/* up, down or status, the lab's lock held for the first two */
static int lab_act(struct cli *cli, struct lab_spec *spec_in, const char *action)
{
	struct lab_spec spec = *spec_in;
	char err[512];
	int rc;

	if (!strcmp(action, "up")) {
		if ((rc = lab_up(&spec, err, sizeof(err)))) {
			cli_error("lab up: %s (nothing was left behind)", err);
			return EXIT_RUNTIME;
		}
	} else if (!strcmp(action, "down")) {
		if ((rc = lab_down(spec.prefix, err, sizeof(err)))) {
			cli_error("lab down: %s", err);
			return EXIT_RUNTIME;
		}
		if (!cli->json) {
			printf("lab %s: removed\n", spec.prefix);
			return 0;
		}
		/* in JSON, the status of the lab now gone: one shape for up,
		 * down and status */
	}

	/* up and status both end with the status of the lab. */
	struct lab_status st;
	struct out *o;

	if ((rc = lab_status(spec.prefix, &st, err, sizeof(err)))) {
		cli_error("lab status: %s", err);
		return EXIT_RUNTIME;
	}
	o = cli_out_create(cli, "lab");
	if (!o) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	print_status(o, &st);
	out_destroy(o);
	return 0;
}
