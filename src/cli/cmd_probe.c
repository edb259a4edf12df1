/* wirerate probe [--require NAME,...] [--tx IF[@NETNS]]... [--json] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include "cli/cli.h"
#include "cli/probeargs.h"
#include "cli/opt.h"
#include "render/out.h"
#include "render/probeprint.h"
#include "app/probe.h"
#include "os/cpulat.h"
#include "os/netns.h"
#include "os/probe.h"

static void unmeasured(void *ctx, const struct cpulat_pair *p)
{
	(void)ctx;
	cli_error("probe: %s", p->err);
}

/* The first usable CPU to each other one; a pair that cannot be measured
 * shows "?" and its reason on stderr. */
static void print_cpu_lines(struct out *o)
{
	struct cpulat_pair p[PROBE_LINE_PAIRS];
	int n = cpulat_from_first(p, PROBE_LINE_PAIRS);

	probeprint_cpu_lines(o, p, n, unmeasured, NULL);
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

int cmd_probe(struct cli *cli, int argc, char **argv)
{
	struct probe_opts op;
	struct probe_report r;
	struct out *o;
	char live_why[200] = "", err[512];
	bool live, here;
	int prc, ret = 0;

	if ((prc = probe_args(cli, argc, argv, &op)) >= 0)
		return prc;
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
		if (app_probe_require(&r, op.require, err, sizeof(err)))
			return cli_fail(EXIT_RUNTIME, "probe: %s", err);
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
