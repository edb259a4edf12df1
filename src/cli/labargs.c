/* lab's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed with the action and checked. */
#include "cli/labargs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/units.h"
#include "lab/lab.h"
#include "app/labrun.h"

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

/* --rules, --queues, --ports: a number in range */
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
	{ "ports", 0, OPT_VALUE, "N", NULL, "1",
	  "parallel forwarding paths through the DUT, 1..4: path P is\n"
	  "genP -> dut(2P) | dut(2P+1) -> sinkP, on 198.18.P.0/24 and\n"
	  "198.19.P.0/24 (path 0: gen0, dut0, dut1, sink0)",
	  set_up_uint, LA(ports), 1, LAB_PORTS_MAX },
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
	enum app_lab_action act;
	void *ctx[] = { &la };
	char err[512], **args;
	int nargs, rc;

	snprintf(la.spec.prefix, sizeof(la.spec.prefix), "%s", LAB_PREFIX_DEFAULT);
	/* the action is a word among the options: all of them gathered, so
	 * that none or two get lab's own message */
	if ((rc = opt_parse_words(&lab_cmd, ctx, cli, argc, argv, &args, &nargs)))
		return opt_exit(rc);
	if (nargs != 1) {
		cli_error(!nargs ? "lab: say up, down or status (see 'wirerate lab --help')"
				 : "lab: one action only, got '%s' after '%s'",
			  nargs > 1 ? args[1] : "", nargs ? args[0] : argv[0]);
		free(args);
		return EXIT_USAGE;
	}
	*action = args[0];
	free(args);
	if (app_lab_action_parse(*action, &act)) {
		cli_error("lab: unknown action '%s': expected up, down or status", *action);
		return EXIT_USAGE;
	}
	if (act != APP_LAB_UP && la.up_only)
		return cli_fail(EXIT_USAGE, "lab %s: --%s applies to 'lab up' only", *action, la.up_only->name);
	if (act == APP_LAB_UP && lab_spec_check(&la.spec, err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "lab up: %s", err);
	*out = la.spec;
	return -1;
}
