/* probe's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read), then parsed and checked. */
#include "cli/probe_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "cli/opt.h"

static int set_tx(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_probe_cfg *p = ctx;

	if (p->nifs == APP_PROBE_MAX_IFS) {
		snprintf(err, errlen, "--tx: at most %d interfaces", APP_PROBE_MAX_IFS);
		return -EINVAL;
	}
	if (!*v || *v == '@' || strcspn(v, "@") >= IF_NAMESIZE || (strchr(v, '@') && !strchr(v, '@')[1])) {
		snprintf(err, errlen, "--tx '%s': expected IF or IF@NETNS", v);
		return -EINVAL;
	}
	p->ifs[p->nifs++] = v;
	return 0;
}

#define PC(field) OPT_FIELD(struct app_probe_cfg, field)

static const struct opt probe_opts[] = {
	{ OPT_STR("require", "NAMES", PC(require),
		  "exit 1 with the reason unless every named feature is\n"
		  "present (tests use it to skip), e.g. --require af_xdp,veth") },
	{ OPT_STR("root", "DIR", PC(root), "read kernel config, CPUs and clocksource under DIR (fixtures)"),
	  .def = "/" },
	{ OPT_CUSTOM("tx", OPT_VALUE, "IF", set_tx,
		     "also report on interface IF (IF@NETNS: in a named namespace;\n"
		     "again for more): its driver, native XDP and AF_XDP zero-copy\n"
		     "tried for real, and the path --port-type auto takes on it") },
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
		 "each other one (up to " STR(APP_PROBE_LINE_PAIRS) "): the XDP path hands every frame across, so its\n"
		 "ceiling moves with this; a VM's host may move its vCPUs between runs.\n",
	.tables = probe_tables,
};

enum opt_result probe_args(struct cli *cli, int argc, char **argv, struct app_probe_cfg *c, int *status)
{
	void *ctx[] = { c };
	char *args[1], err[512];
	int nargs, rc;

	*c = (struct app_probe_cfg){ .root = "/" };
	if ((rc = opt_parse(&probe_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (!*c->root)
		return opt_fail(status, EXIT_USAGE, "probe --root: give a directory");
	if (c->require && app_probe_check_require(c->require, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "probe %s", err);
	return OPT_GO;
}
