/* wirerate probe [--require NAME,...] [--tx IF[@NETNS]]... [--json] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "render/out.h"
#include "render/probeprint.h"
#include "app/portpath.h"
#include "app/probe.h"
#include "os/cpulat.h"
#include "os/ifprobe.h"
#include "os/netns.h"
#include "os/probe.h"
#include "core/timeconst.h"

/* Interfaces `probe --tx` reports on, at most. */
#define PROBE_MAX_IFS 8

/* Pairs the cache-line figure is measured for: the first CPU wirerate may
 * use and each other one, at most this many. */
#define PROBE_LINE_PAIRS 16




struct probe_opts {
	const char *require, *root;
	const char *ifs[PROBE_MAX_IFS];
	unsigned int nifs;
};

static int set_tx(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct probe_opts *p = ctx;

	if (p->nifs == PROBE_MAX_IFS) {
		snprintf(err, errlen, "--tx: at most %d interfaces", PROBE_MAX_IFS);
		return -EINVAL;
	}
	if (!*v || *v == '@' || strcspn(v, "@") >= IF_NAMESIZE || (strchr(v, '@') && !strchr(v, '@')[1])) {
		snprintf(err, errlen, "--tx '%s': expected IF or IF@NETNS", v);
		return -EINVAL;
	}
	p->ifs[p->nifs++] = v;
	return 0;
}




/* The first usable CPU to each other one; a pair that cannot be measured
 * shows "?" and its reason on stderr. */
static void print_cpu_lines(struct out *o)
{
	struct cpulat_pair p[PROBE_LINE_PAIRS];
	int n = cpulat_from_first(p, PROBE_LINE_PAIRS);

	for (int i = 0; i < n; i++)
		if (p[i].ns <= 0)
			cli_error("probe: %s", p[i].err);
	probeprint_cpu_lines(o, p, n);
}

/* One interface of --tx: 0, or 1 when it could not be probed. */
static int print_port(struct out *o, const char *spec, bool live, const char *live_why)
{
	struct app_probe_port pp;
	int rc = app_probe_port(spec, live, live_why, &pp);

	probeprint_port(o, spec, rc, &pp);
	if (rc)
		cli_error("probe --tx %s: %s", spec, pp.err);
	return rc ? 1 : 0;
}

static const struct opt probe_opts[] = {
	{ "require", 0, OPT_VALUE, "NAMES", NULL, NULL,
	  "exit 1 with the reason unless every named feature is\n"
	  "present (tests use it to skip), e.g. --require af_xdp,veth",
	  opt_set_str, OPT_FIELD(struct probe_opts, require) },
	{ "root", 0, OPT_VALUE, "DIR", NULL, "/", "read kernel config, CPUs and clocksource under DIR (fixtures)",
	  opt_set_str, OPT_FIELD(struct probe_opts, root) },
	{ "tx", 0, OPT_VALUE, "IF", NULL, NULL,
	  "also report on interface IF (IF@NETNS: in a named namespace;\n"
	  "again for more): its driver, native XDP and AF_XDP zero-copy\n"
	  "tried for real, and the path --port-type auto takes on it", set_tx },
	{ NULL },
};

static const struct opt *const probe_tables[] = { probe_opts, NULL };

#define STR_(x) #x
#define STR(x) STR_(x)

const struct opt_cmd probe_cmd = {
	.name = "probe",
	.synopsis = "[--require NAME[,NAME...]] [--tx IF[@NETNS]]... [--json]",
	.about = "Tries what wirerate needs on this host and says what each answer means.\n",
	.notes = "It ends with the time a cache line written on the first CPU takes to reach\n"
		 "each other one (up to " STR(PROBE_LINE_PAIRS) "): the XDP path hands every frame across, so its\n"
		 "ceiling moves with this; a VM's host may move its vCPUs between runs.\n",
	.tables = probe_tables,
};

int cmd_probe(struct cli *cli, int argc, char **argv)
{
	struct probe_opts op = { .root = "/" };
	void *ctx[] = { &op };
	struct probe_report r;
	struct out *o;
	char *args[1], live_why[200] = "", err[512];
	bool live, here;
	int nargs, prc, ret = 0;

	if ((prc = opt_parse(&probe_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return prc == OPT_HELP ? 0 : EXIT_USAGE;
	if (!*op.root) {
		cli_error("probe --root: give a directory");
		return EXIT_USAGE;
	}
	if (op.require && app_probe_check_require(op.require, err, sizeof(err))) {
		cli_error("probe %s", err);
		return EXIT_USAGE;
	}
	/* the CPUs' speed only when shown or asked for: tests require other
	 * features on every run, and this one soaks every CPU for 0.45 s */
	here = !strcmp(op.root, "/");
	app_probe_run(&r, op.root, cli_have_root(), here && (!op.require || strstr(op.require, "steady_cpu")), &live,
		      live_why, sizeof(live_why));
	if (op.require) {
		if (app_probe_require(&r, op.require, err, sizeof(err))) {
			cli_error("probe: %s", err);
			return EXIT_RUNTIME;
		}
		return 0;
	}
	if (!(o = cli_out_create(cli, "probe")))
		return EXIT_RUNTIME;
	probeprint_report(o, &r);
	if (here)
		print_cpu_lines(o);
	if (op.nifs) {
		out_arr_start(o, "interfaces");
		for (unsigned int i = 0; i < op.nifs; i++)
			ret |= print_port(o, op.ifs[i], live, live_why);
		out_arr_end(o);
	}
	out_destroy(o);
	return ret ? EXIT_RUNTIME : 0;
}
