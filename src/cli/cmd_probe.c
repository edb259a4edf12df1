/* wirerate probe [--require NAME,...] [--json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "render/out.h"
#include "io/xdpgen.h"
#include "os/cpulat.h"
#include "os/probe.h"

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

static const char *state_word(enum probe_state s)
{
	return s == PROBE_YES ? "yes" : s == PROBE_NO ? "no" : "?";
}

struct probe_opts {
	const char *require, *root;
};

static const struct opt probe_opts[] = {
	{ "require", 0, OPT_VALUE, "NAMES", NULL, NULL,
	  "exit 1 with the reason unless every named feature is\n"
	  "present (tests use it to skip), e.g. --require af_xdp,veth",
	  opt_set_str, OPT_FIELD(struct probe_opts, require) },
	{ "root", 0, OPT_VALUE, "DIR", NULL, "/", "read kernel config, CPUs and clocksource under DIR (fixtures)",
	  opt_set_str, OPT_FIELD(struct probe_opts, root) },
	{ NULL },
};

static const struct opt *const probe_tables[] = { probe_opts, NULL };

#define STR_(x) #x
#define STR(x) STR_(x)

const struct opt_cmd probe_cmd = {
	.name = "probe",
	.synopsis = "[--require NAME[,NAME...]] [--json]",
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
	char *args[1];
	int nargs, prc;

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
			snprintf(line, sizeof(line), "%s: the generator uses AF_PACKET", why);
			probe_set(&r, PR_XDP_LIVE, PROBE_NO, line);
		} else
			probe_set(&r, PR_XDP_LIVE, PROBE_YES,
				  "BPF_PROG_RUN live frames: the XDP generator (no skb, paced in BPF)");
	}

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

	o = out_create(stdout, cli->json);
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
	out_destroy(o);
	return 0;
}
