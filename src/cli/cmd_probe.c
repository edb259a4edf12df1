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

/* The first usable CPU to each other one; a pair that cannot be measured
 * shows its reason instead. */
static void print_cpu_lines(struct out *o)
{
	struct cpulat_pair p[PROBE_LINE_PAIRS];
	int n = cpulat_from_first(p, PROBE_LINE_PAIRS);

	out_obj_start(o, "cpu_line_ns");
	if (n)
		out_text(o, "\n  one cache line from CPU %d to:", p[0].a);
	for (int i = 0; i < n; i++) {
		char key[32];

		cpulat_pair_name(p[i].a, p[i].b, key, sizeof(key));
		out_text(o, "%s CPU %d", i ? "," : "", p[i].b);
		if (p[i].ns > 0) {
			out_f64(o, key, " %.0f ns", p[i].ns);
		} else {
			out_null(o, key);
			out_text(o, " ?");
			cli_error("probe: %s", p[i].err);
		}
	}
	if (n)
		out_text(o, "\n");
	out_obj_end(o);
}

static const char *state_word(enum probe_state s)
{
	return s == PROBE_YES ? "yes" : s == PROBE_NO ? "no" : "?";
}

/* The host's line and a line per feature. */
static void print_report(struct out *o, const struct probe_report *r)
{
	out_str(o, "kernel", "kernel %s", r->kernel);
	out_u64(o, "cpus", ", %llu CPUs online", r->cpus_online);
	out_str(o, "cpus_online", " (%s)", r->cpus_list);
	out_str(o, "clocksource", ", clocksource %s\n\n", r->clocksource);
	out_obj_start(o, "features");
	for (int i = 0; i < PR_COUNT; i++) {
		const struct probe_item *it = &r->item[i];

		out_obj_start(o, it->name);
		out_text(o, "  %-4s %-20s ", state_word(it->state), it->name);
		if (it->state == PROBE_UNKNOWN)
			out_null(o, "ok");
		else
			out_bool(o, "ok", NULL, it->state == PROBE_YES);
		out_str(o, "detail", "%s\n", it->detail);
		out_obj_end(o);
	}
	out_obj_end(o);
}

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

static const char *ans_word(enum ifprobe_ans a)
{
	return a == IFPROBE_YES ? "yes" : a == IFPROBE_NO ? "no" : "?";
}

static void out_ans(struct out *o, const char *key, enum ifprobe_ans a)
{
	if (a == IFPROBE_UNKNOWN)
		out_null(o, key);
	else
		out_bool(o, key, NULL, a == IFPROBE_YES);
}

/* One interface of --tx: what it offers the fast paths and what
 * --port-type auto would take for a trial sending on it (one frame size,
 * one direction). 0, or 1 when it could not be probed. */
static int print_port(struct out *o, const char *spec, bool live, const char *live_why)
{
	char name[IF_NAMESIZE], err[256];
	const char *at = strchr(spec, '@');
	struct portpath_out po;
	struct ifprobe p;
	int nsfd = -1, rc;

	snprintf(name, sizeof(name), "%.*s", (int)(at ? (size_t)(at - spec) : strlen(spec)), spec);
	out_obj_start(o, NULL);
	out_str(o, "interface", "\ninterface %s", spec);
	if (at && (nsfd = netns_open(at + 1)) < 0) {
		rc = -ENOENT;
		snprintf(err, sizeof(err), "no network namespace '%s'", at + 1);
	} else {
		rc = ifprobe_run(nsfd, name, &p, err, sizeof(err));
	}
	if (nsfd >= 0)
		close(nsfd);
	if (rc) {
		out_str(o, "error", ": %s\n", err);
		out_obj_end(o);
		cli_error("probe --tx %s: %s", spec, err);
		return 1;
	}
	out_str(o, "driver", ": driver %s\n", p.driver[0] ? p.driver : "(none)");
	out_text(o, "  %-3s native XDP (driver mode)", ans_word(p.native_xdp));
	out_ans(o, "native_xdp", p.native_xdp);
	out_str(o, "native_xdp_detail", p.native_why[0] ? ": %s\n" : "\n", p.native_why);
	out_u64(o, "xdp_prog_id", NULL, p.xdp_prog_id);
	out_text(o, "  %-3s AF_XDP zero-copy", ans_word(p.zerocopy));
	out_ans(o, "afxdp_zerocopy", p.zerocopy);
	out_str(o, "afxdp_zerocopy_detail", p.zerocopy_why[0] ? ": %s\n" : "\n", p.zerocopy_why);
	if (p.features_known) {
		bool now = p.features & IFPROBE_XDP_NDO_XMIT, att = p.features_attached & IFPROBE_XDP_NDO_XMIT;

		out_text(o, "  %-3s sends XDP frames (xdp-features ndo-xmit%s)\n", now ? "yes" : att ? "yes" : "no",
			 !now && att ? " while a program is attached" : "");
		out_u64(o, "xdp_features", NULL, p.features);
		out_bool(o, "xdp_xmit", NULL, now);
		out_bool(o, "xdp_xmit_with_program", NULL, now || att);
	} else {
		out_text(o, "  ?   sends XDP frames (the kernel has no xdp-features)\n");
		out_null(o, "xdp_features");
		out_null(o, "xdp_xmit");
		out_null(o, "xdp_xmit_with_program");
	}
	struct portpath_in in = { .tx_name = spec, .rx_name = spec, .tx = &p, .live_frames = live,
				  .live_why = live_why, .one_size_fits = true };
	portpath_choose(&in, &po);
	out_obj_start(o, "auto");
	out_str(o, "path", "  auto picks %s", portpath_name(po.path));
	out_str(o, "reason", " (%s)\n", po.why);
	out_obj_end(o);
	out_obj_end(o);
	return 0;
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
	print_report(o, &r);
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
