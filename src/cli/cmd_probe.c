/* wirerate probe [--require NAME,...] [--tx IF[@NETNS]]... [--json] */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/probe_args.h"
#include "app/probe.h"
#include "render/out.h"
#include "render/probe_print.h"

static void unmeasured(void *ctx, const struct cpulat_pair *p)
{
	(void)ctx;
	cli_error("probe: %s", p->err);
}

static void port_failed(void *ctx, const char *spec, const char *why)
{
	(void)ctx;
	cli_error("probe --tx %s: %s", spec, why);
}

int cmd_probe(struct cli *cli, int argc, char **argv)
{
	const struct probeprint_hooks hooks = { .unmeasured = unmeasured, .port_failed = port_failed };
	struct app_probe_cfg c;
	struct app_probe_host *h;
	struct out *o;
	char err[512];
	int rc;

	if (probe_args(cli, argc, argv, &c, &rc) == OPT_EXIT)
		return rc;
	if (!(h = malloc(sizeof(*h))))
		return cli_fail(EXIT_RUNTIME, "probe: out of memory");
	c.have_root = cli_have_root();
	app_probe_host(&c, h);
	/* --require: the exit status says it all, nothing is printed */
	if (c.require)
		rc = app_probe_require(&h->r, c.require, err, sizeof(err)) ? cli_fail(EXIT_RUNTIME, "probe: %s", err) : 0;
	else if (!(o = cli_out_create(cli, "probe")))
		rc = EXIT_RUNTIME;
	else {
		rc = probe_print_host(o, h, &hooks) ? EXIT_RUNTIME : 0;
		out_destroy(o);
	}
	free(h);
	return rc;
}
