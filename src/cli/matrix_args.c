/* matrix's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read: the axes and the matrix's own), parsed up
 * to '--', and the test named after it; and each configuration's lab,
 * its axes' values set through lab's table as 'lab up' takes them. */
#include "cli/matrix_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/lab_args.h"
#include "cli/opt.h"

#define MO(field) OPT_FIELD(struct matrix_opts, field)

static int set_axis(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);

static int set_tag(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct matrix_opts *mo = ctx;

	if (mo->ntags == (int)(sizeof(mo->tags) / sizeof(mo->tags[0]))) {
		snprintf(err, errlen, "--tag: at most %d", (int)(sizeof(mo->tags) / sizeof(mo->tags[0])));
		return -EINVAL;
	}
	mo->tags[mo->ntags++] = v;
	return 0;
}

static int set_order(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct matrix_opts *mo = ctx;

	(void)opt;
	if (!strcmp(v, "alternate"))
		mo->order = APP_MATRIX_ALTERNATE;
	else if (!strcmp(v, "shuffle"))
		mo->order = APP_MATRIX_SHUFFLE;
	else {
		snprintf(err, errlen, "--order '%s': alternate or shuffle", v);
		return -EINVAL;
	}
	return 0;
}

static const struct opt matrix_opts_table[] = {
	{ OPT_CUSTOM("placement", OPT_VALUE, "LIST", set_axis, "e.g. bound,split,free (the DUT's IRQ placement)"),
	  .group = "axes ('lab up' options, each a comma-separated list of values, or repeated)" },
	{ OPT_CUSTOM("rules", OPT_VALUE, "LIST", set_axis, "e.g. 0,100,1000 (null firewall rules in the DUT)") },
	{ OPT_CUSTOM("dut-cpus", OPT_VALUE, "CPUS", set_axis,
		     "one CPU list per occurrence: --dut-cpus 1 --dut-cpus 0-1") },
	{ OPT_CUSTOM("shape", OPT_VALUE, "LIST", set_axis, "e.g. 50kpps,100kpps") },
	{ OPT_CUSTOM("mtu", OPT_VALUE, "LIST", set_axis, "e.g. 1500,9000") },
	{ OPT_CUSTOM("queues", OPT_VALUE, "LIST", set_axis, "e.g. 1,2") },
	{ OPT_CUSTOM("kernel", OPT_VALUE, "LIST", set_axis,
		     "the DUT's kernels, a VM lab each (lab up --kernel): e.g.\n"
		     "6.1.0-57-cloud-amd64,6.12.118+deb12-cloud-amd64; with it --dut-cpus\n"
		     "is the VM's vCPUs") },
	{ OPT_CUSTOM("kernel-cmdline", OPT_VALUE, "ARGS", set_axis,
		     "one guest kernel command line per occurrence, 'none' for none:\n"
		     "--kernel-cmdline maxcpus=1 --kernel-cmdline none (UP against SMP)") },
	{ OPT_STR("prefix", "P", MO(prefix),
		  "the lab's namespace prefix. A lab already up with this\n"
		  "prefix is taken down first; the matrix takes its own down at\n"
		  "the end, also on failure or Ctrl-C"),
	  .group = "options", .def = LAB_PREFIX_DEFAULT },
	{ OPT_BOOL("no-xdp", MO(no_xdp), "every configuration's DUT in skb mode ('lab up --no-xdp')") },
	{ OPT_UINT("repeat", "N", MO(repeat), 1, APP_MATRIX_ROUNDS_MAX,
		   "N rounds, each every configuration once, the order\n"
		   "alternating (A B, B A, ...): a drift of the host falls into\n"
		   "each round's pair, and 'report' compares paired rounds\n"
		   "(default: the test's --repeat, else 1; docs/confidence.md)") },
	{ OPT_BOOL("no-interleave", MO(no_interleave),
		   "each configuration's repeats back to back (the test's\n"
		   "--repeat), as before rounds; then the first configuration\n"
		   "again, the drift check") },
	{ OPT_CUSTOM("order", OPT_VALUE, "HOW", set_order,
		     "the configurations' order in a round: alternate, or shuffle\n"
		     "(afresh each round, from --seed)"),
	  .def = "alternate" },
	{ OPT_U64("seed", "N", MO(seed), 0, UINT64_MAX, "shuffle's seed (default: from the clock; printed and stored)"),
	  .given = MO(seed_set) },
	{ OPT_STR("label", "TEXT", MO(label), "put in front of each run's label (the configuration)") },
	{ OPT_CUSTOM("tag", OPT_VALUE, "TEXT", set_tag, "an extra tag on every run (repeatable)") },
	{ OPT_DB("db", "FILE", MO(db),
		 "the results database, a file or a postgresql:// URI\n"
		 "(default as for 'wirerate runs')") },
	{ OPT_STR("html", "FILE", MO(html), "the report as an HTML page too") },
	{ OPT_STR("fail-on-regression", "PCT", MO(fail_pct),
		  "exit 3 when a configuration is worse than the first by more\n"
		  "than PCT percent beyond noise") },
	{ NULL },
};

static const struct opt *const matrix_tables[] = { matrix_opts_table, NULL };

/* The table's first APP_MATRIX_NAXES entries are the axes, in the order
 * of app/matrix_plan.c: each the 'lab up' option of its name, which
 * lab's table sets (cli/lab_args.c). A value of an axis that lists is
 * split at its commas. */
static int set_axis(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct matrix_opts *mo = ctx;
	int k = (int)(opt - matrix_opts_table);
	char *save = NULL;

	if (!mo->m->axes[k].lists)
		return app_matrix_plan_add(mo->m, k, (char *)v, err, errlen);
	if (!*v || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		snprintf(err, errlen, "--%s '%s': give values separated by single commas", opt->name, v);
		return -EINVAL;
	}
	/* cut in place: argv's */
	for (char *tok = strtok_r((char *)v, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (app_matrix_plan_add(mo->m, k, tok, err, errlen))
			return -EINVAL;
	return 0;
}

const char *matrix_args_axis(int k)
{
	return matrix_opts_table[k].name;
}

enum opt_result matrix_args_lab(const struct matrix_opts *mo, int c, struct lab_spec *out, int *status)
{
	struct lab_args la;

	/* in the order 'lab --prefix P AXES... [--no-xdp] up' would take them */
	lab_args_init(&la);
	if (lab_args_set(&la, lab_args_opt("prefix"), mo->prefix, status) == OPT_EXIT)
		return OPT_EXIT;
	for (int k = 0; k < APP_MATRIX_NAXES; k++) {
		const char *v = app_matrix_plan_setting(mo->m, c, k);

		if (v && lab_args_set(&la, lab_args_opt(matrix_args_axis(k)), v, status) == OPT_EXIT)
			return OPT_EXIT;
	}
	if (mo->no_xdp && lab_args_set(&la, lab_args_opt("no-xdp"), NULL, status) == OPT_EXIT)
		return OPT_EXIT;
	return lab_args_up(&la, out, status);
}

const struct opt_cmd matrix_cmd = {
	.name = "matrix",
	.synopsis = "AXES... [OPTIONS] -- trial|rfc2544 [TEST OPTIONS]",
	.about = "Runs the same test on every lab configuration: every combination of the\n"
		 "axes' values. For each test, the lab is built afresh with its configuration\n"
		 "and the test runs and is stored (label: the configuration; its round; one\n"
		 "tag for the whole matrix). With --repeat N (or the test's --repeat N) it\n"
		 "runs N rounds, each every configuration once, in alternating order, so that\n"
		 "a drift of the host falls inside each round. Then 'wirerate report'\n"
		 "compares the configurations, each against the first from the paired\n"
		 "rounds: a table by size (rows are frame sizes, columns are configurations)\n"
		 "and one by setup (rows are configurations, kpps).\n",
	.notes = "The test's options follow '--': any of trial's or rfc2544's, except the\n"
		 "ones the matrix sets (--prefix, --tx, --rx, --label, --round, --db, --no-store,\n"
		 "--json). The test's --repeat N becomes the matrix's N rounds unless\n"
		 "--no-interleave is given. With one round, or --no-interleave, the first\n"
		 "configuration runs once more at the end: the drift check.\n"
		 "At most 64 configurations. With --json: the configurations, their run ids\n"
		 "and the report's JSON.\n"
		 "\n"
		 "exit status: 0; 1 runtime failure; 2 bad input; 3 regression (with\n"
		 "--fail-on-regression); 130 interrupted (the runs finished so far stay stored)\n",
	.tables = matrix_tables,
};

enum opt_result matrix_args(struct cli *cli, int argc, char **argv, struct matrix_opts *mo, char ***test,
			    int *ntest, int *status)
{
	void *ctx[] = { mo };
	int test_at = -1, rc, nown, nargs;
	char *args[1];

	app_matrix_plan_init(mo->m);
	*mo = (struct matrix_opts){ .m = mo->m, .prefix = LAB_PREFIX_DEFAULT };
	/* The matrix's own options end at '--'; the test's follow. */
	for (nown = 1; nown < argc && strcmp(argv[nown], "--"); nown++)
		;
	if (nown < argc)
		test_at = nown + 1;
	if ((rc = opt_parse(&matrix_cmd, ctx, cli, nown, argv, args, 1, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (nargs)
		return opt_fail(status, EXIT_USAGE, "matrix: unexpected '%s': the test goes after '--'", args[0]);
	if (test_at < 0 || test_at >= argc)
		return opt_fail(status, EXIT_USAGE, "matrix: give the test after '--': trial, rfc2544 or stream and its "
				"options (see 'wirerate matrix --help')");
	if (strcmp(argv[test_at], "trial") && strcmp(argv[test_at], "rfc2544") && strcmp(argv[test_at], "stream"))
		return opt_fail(status, EXIT_USAGE, "matrix: the test is trial, rfc2544 or stream, not '%s'",
				argv[test_at]);
	*test = argv + test_at;
	*ntest = argc - test_at;
	return OPT_GO;
}
