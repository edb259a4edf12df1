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
#include "dut/soak.h"
#include "io/xdpgen.h"
#include "app/portpath.h"
#include "os/cpulat.h"
#include "os/ifprobe.h"
#include "os/netns.h"
#include "os/probe.h"
#include "os/procstat.h"
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

/* Every name in the --require list is a feature; an empty list or name
 * ("", "veth,,bpf") is refused, not taken as nothing required. */
static int check_required(const char *list)
{
	const char *p = list;
	char name[64];

	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			cli_error("probe --require: %s'%s': give feature names, e.g. af_xdp,veth",
				  *list ? "an empty name in " : "", list);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n >= sizeof(name) || probe_find(name) < 0) {
			cli_error("probe --require: unknown feature '%.*s' (see 'wirerate probe' for names)", (int)n, p);
			return -1;
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Two 200 ms readings of every CPU's soak speed and the steal time over
 * them (under half a second): a host whose CPUs change speed, or whose
 * hypervisor takes them, gives soak figures that drift from their
 * calibration (docs/cpu.md). 5% is the tolerance of the soak's idle
 * check before each soaked trial. */
static void check_steady(struct probe_report *r)
{
	struct soak_steady st;
	struct cpuset cpus;
	char err[256], line[200];

	if (procstat_online(NULL, &cpus, err, sizeof(err)) ||
	    soak_steady_check(&cpus, 200 * NSEC_PER_MSEC, &st, err, sizeof(err))) {
		probe_set(r, PR_STEADY_CPU, PROBE_UNKNOWN, err);
		return;
	}
	if (st.spread > SOAK_IDLE_TOL || st.steal_ticks > 0) {
		int n = snprintf(line, sizeof(line), "not steady:");

		if (st.spread > SOAK_IDLE_TOL)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " CPU %u's speed moved %.0f%% between two "
				      "200 ms readings;", st.cpu, 100 * st.spread);
		if (st.steal_ticks > 0)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " the hypervisor stole %lld ticks in %.1f s;",
				      (long long)st.steal_ticks, st.seconds);
		snprintf(line + n, sizeof(line) - (size_t)n, " soak figures drift (docs/cpu.md)");
		probe_set(r, PR_STEADY_CPU, PROBE_NO, line);
	} else {
		snprintf(line, sizeof(line), "two 200 ms readings of each CPU's speed within %.1f%%, no steal time",
			 100 * st.spread);
		probe_set(r, PR_STEADY_CPU, PROBE_YES, line);
	}
}

static const char *state_word(enum probe_state s)
{
	return s == PROBE_YES ? "yes" : s == PROBE_NO ? "no" : "?";
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
	const char *require, *root;
	struct probe_report r;
	struct out *o;
	char *args[1], live_why[200] = "";
	bool live = false;
	int nargs, prc, ret = 0;

	if ((prc = opt_parse(&probe_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return prc == OPT_HELP ? 0 : EXIT_USAGE;
	require = op.require;
	root = op.root;
	if (!*root) {
		cli_error("probe --root: give a directory");
		return EXIT_USAGE;
	}
	if (require && check_required(require))
		return EXIT_USAGE;

	probe_run(&r, root, cli_have_root());
	{
		char why[200], line[256];

		if (!cli_have_root())
			probe_set(&r, PR_XDP_LIVE, PROBE_UNKNOWN, "needs root to try");
		else if (xdpgen_probe(why, sizeof(why))) {
			snprintf(live_why, sizeof(live_why), "%s", why);
			snprintf(line, sizeof(line), "%s: the generator uses AF_PACKET", why);
			probe_set(&r, PR_XDP_LIVE, PROBE_NO, line);
		} else
			live = true, probe_set(&r, PR_XDP_LIVE, PROBE_YES,
				  "BPF_PROG_RUN live frames: the XDP generator (no skb, paced in BPF)");
		if (!cli_have_root())
			snprintf(live_why, sizeof(live_why), "needs root to try");
	}

	/* only when shown or asked for: tests require other features on
	 * every run, and this one soaks every CPU for 0.45 s */
	if (!strcmp(root, "/") && (!require || strstr(require, "steady_cpu")))
		check_steady(&r);

	if (require) {
		char *list = strdup(require), *save = NULL;
		int rc = 0;

		for (char *n = strtok_r(list, ",", &save); n && !rc; n = strtok_r(NULL, ",", &save)) {
			const struct probe_item *it = &r.item[probe_find(n)];

			if (it->state != PROBE_YES) {
				cli_error("probe: %s missing: %s", n, it->detail);
				rc = EXIT_RUNTIME;
			}
		}
		free(list);
		return rc;
	}

	o = cli_out_create(cli, "probe");
	if (!o)
		return EXIT_RUNTIME;
	out_str(o, "kernel", "kernel %s", r.kernel);
	out_u64(o, "cpus", ", %llu CPUs online", r.cpus_online);
	out_str(o, "cpus_online", " (%s)", r.cpus_list);
	out_str(o, "clocksource", ", clocksource %s\n\n", r.clocksource);
	out_obj_start(o, "features");
	for (int i = 0; i < PR_COUNT; i++) {
		const struct probe_item *it = &r.item[i];

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
	if (!strcmp(root, "/"))
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
