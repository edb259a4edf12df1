/* bisect's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read), parsed up to '--', the measurement after
 * it. */
#include "cli/bisect_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bisect_run.h"
#include "cli/bisect_check.h"
#include "cli/child_args.h"
#include "cli/opt.h"
#include "lab/lab.h"

#define BO(field) OPT_FIELD(struct bisect_opts, field)

static const struct opt bisect_opts_table[] = {
	{ OPT_STR("good", "REV", BO(good), "the last commit known good (a git revision in --tree)"),
	  .group = "the candidates (start)" },
	{ OPT_STR("bad", "REV", BO(bad), "the first commit known bad: a descendant of --good") },
	{ OPT_STR("tree", "DIR", BO(tree),
		  "the git tree: a kernel's, or a repository of DUT configuration;\n"
		  "checked out at each candidate (no uncommitted changes), and back\n"
		  "where it was at the end"),
	  .def = "." },
	{ OPT_STR("kernels", "LIST", BO(kernels),
		  "instead of a git range: kernels in order, the good first and the\n"
		  "bad last (files or Debian kernel package versions, as 'lab up\n"
		  "--kernel' takes them), each booted on a VM lab") },
	{ OPT_STR("build", "CMD", BO(build),
		  "build it: sh -c CMD in the tree, its output in the logs; a failure\n"
		  "skips the candidate"),
	  .group = "each candidate" },
	{ OPT_STR("boot", "IMAGE", BO(boot),
		  "the kernel image the build made, in the tree (arch/x86/boot/bzImage):\n"
		  "booted on a VM lab, built afresh per candidate") },
	{ OPT_STR("modules", "DIR", BO(modules), "with --boot: its modules, in the tree ('lab up --modules')") },
	{ OPT_STR("apply", "CMD", BO(apply),
		  "configure the DUT: sh -c CMD in the tree (e.g. load the candidate's\n"
		  "nft ruleset); a failure skips the candidate. $WR_BISECT_CANDIDATE,\n"
		  "$WR_BISECT_TREE and $WR_BISECT_PREFIX name what it works on") },
	{ OPT_STR("install", "CMD", BO(install),
		  "a cabled DUT: install the build on it (sh -c CMD here, in the\n"
		  "tree: it copies, installs, and reboots or kexecs the DUT), then wait\n"
		  "for the measurement's --dut to answer") },
	{ OPT_STR("release", "CMD", BO(release),
		  "with --install: prints the kernel release the DUT must come back\n"
		  "with (e.g. make -s kernelrelease); another is a skip") },
	{ OPT_UINT("dut-wait", "S", BO(dut_wait), 1, 86400,
		   "with --install: how long the DUT may take to answer, s"),
	  .def = "600" },
	{ OPT_STR("lab", "OPTIONS", BO(lab),
		  "build the lab afresh for each candidate with these 'lab up'\n"
		  "options ('' for the defaults; implied by --kernels and --boot)") },
	{ OPT_STR("prefix", "P", BO(prefix), "the lab's namespace prefix"), .def = LAB_PREFIX_DEFAULT },
	{ OPT_UINT("timeout", "S", BO(timeout), 1, 604800, "the longest one build or --apply command may take, s"),
	  .def = "7200" },
	{ OPT_STR("figure", "F", BO(figure),
		  "what is followed: ndr or pdr (an rfc2544 throughput measurement;\n"
		  "default ndr), forwarded or cpu-per-frame (a trial; default forwarded),\n"
		  "received (10^6 bits/s) or service-demand (the DUT's us of CPU per KB;\n"
		  "a stream; default received)"),
	  .group = "the verdict" },
	{ OPT_UINT("size", "BYTES", BO(size), 60, 16384, "the figure at this frame size (default: the smallest)"),
	  .given = BO(size_set) },
	{ OPT_UINT("repeat", "N", BO(repeat), 1, 16, "the measurement's --repeat: values per measurement"),
	  .def = "3" },
	{ OPT_UINT("max-rounds", "N", BO(rounds), 1, 10,
		   "measurements of one candidate before \"cannot tell\" skips it"),
	  .def = "3" },
	{ OPT_BOOL("no-drift-checks", BO(no_drift_checks),
		   "judge candidates against the ends' first figures alone: no end\n"
		   "measured beside each candidate, no final look at the good end (for\n"
		   "a host that does not drift, when preparing an end is costly)") },
	{ OPT_STR("label", "NAME", BO(label), "the bisection's name: its runs' labels start with it"),
	  .group = "store", .def = "bisect" },
	{ OPT_STR("logs", "DIR", BO(logs),
		  "where the commands' and measurements' output goes (default:\n"
		  "bisect-ID beside the store)") },
	{ OPT_DB("db", "FILE", BO(db),
		 "the results database, a file or a postgresql:// URI\n"
		 "(default as for 'wirerate runs')") },
	{ OPT_PATH("html", "FILE", BO(html), "log: the steps' runs as 'report --html' shows them, in order"),
	  .group = "log" },
	{ NULL },
};

static const struct opt *const bisect_tables[] = { bisect_opts_table, NULL };

const struct opt_cmd bisect_cmd = {
	.name = "bisect",
	.synopsis = "start (--good REV --bad REV [--tree DIR] | --kernels LIST) [--build CMD] [--boot IMAGE]\n"
		    "       [--apply CMD] [--lab OPTIONS] [OPTIONS] -- trial|rfc2544 throughput [TEST OPTIONS]\n"
		    "       wirerate bisect resume [RUN] [--db FILE]\n"
		    "       wirerate bisect log [RUN] [--json] [--html FILE] [--db FILE]",
	.about = "Finds which candidate of an ordered series moved a figure: the commit of a\n"
		 "git range (a kernel's, or a repository of DUT configuration), or the kernel\n"
		 "of a list. Like 'git bisect run', it runs by itself to the end: each\n"
		 "candidate checked out, built, booted or configured, then measured with the\n"
		 "test after '--' and stored as a run of its own. The ends are measured\n"
		 "first, in turn: when good and bad do not differ beyond their noise, it\n"
		 "stops and says so. A candidate is judged good, bad or \"cannot tell\" from\n"
		 "its values against the ends'; \"cannot tell\" measures it again, then skips\n"
		 "it. Each candidate's measurement is followed by one of its nearer end, a\n"
		 "drift check: when the host moved, the candidate is judged beside it, and a\n"
		 "last look at the good end says whether the host drifted by more than a\n"
		 "verdict's difference. A build, boot, --apply or measurement failure is a\n"
		 "skip with its reason, never a verdict (docs/bisect.md).\n",
	.notes = "The state is in the store: 'bisect resume' goes on after Ctrl-C, a crash\n"
		 "or a reboot (RUN: the bisection's run id or label; default the newest not\n"
		 "complete), and 'bisect log' prints it, as 'git bisect log' does (default\n"
		 "the newest).\n"
		 "The test's options follow '--': any of trial's, rfc2544 throughput's or\n"
		 "stream's (figures received and service-demand: stream --sender dut makes\n"
		 "the kernel under test the sender),\n"
		 "except --label, --repeat, --db, --no-store and --json, which bisect sets\n"
		 "(and --prefix when it builds the lab).\n"
		 "\n"
		 "exit status: 0 found (or good and bad do not differ); 1 runtime failure;\n"
		 "2 bad input; 130 interrupted (resume it)\n",
	.tables = bisect_tables,
};

static const char *const reserved[] = { "--label", "--repeat", "--db", "--no-store", "--json", "-j", "--help",
					"-h" };

static enum opt_result check_measure(struct bisect_opts *bo, int *status)
{
	bool lab = bo->lab || bo->kernels || bo->boot;

	if (!bo->nmeasure)
		return opt_fail(status, EXIT_USAGE, "bisect: give the measurement after '--': trial, rfc2544 or stream "
				"throughput and its options (see 'wirerate bisect --help')");
	if (strcmp(bo->measure[0], "trial") && strcmp(bo->measure[0], "rfc2544") && strcmp(bo->measure[0], "stream"))
		return opt_fail(status, EXIT_USAGE,
				"bisect: the measurement is trial, rfc2544 throughput or stream, not '%.64s'", bo->measure[0]);
	if (!strcmp(bo->measure[0], "rfc2544") && (bo->nmeasure < 2 || strcmp(bo->measure[1], "throughput")))
		return opt_fail(status, EXIT_USAGE,
				"bisect: of rfc2544, the throughput test only (an NDR or PDR to follow)");
	for (int i = 1; i < bo->nmeasure; i++) {
		if (strchr(bo->measure[i], '\n'))
			return opt_fail(status, EXIT_USAGE, "bisect: the measurement's words must not hold a newline");
		for (size_t k = 0; k < sizeof(reserved) / sizeof(reserved[0]); k++)
			if (child_args_is(bo->measure[i], reserved[k]))
				return opt_fail(status, EXIT_USAGE, "bisect: the measurement's %s is bisect's to set",
						reserved[k]);
		if (lab && child_args_is(bo->measure[i], "--prefix"))
			return opt_fail(status, EXIT_USAGE, "bisect: the measurement's --prefix is bisect's to set (it "
					"builds the lab: give --prefix to bisect)");
	}
	if (bo->nmeasure > BISECT_ARGV_MAX - 16)
		return opt_fail(status, EXIT_USAGE, "bisect: the measurement has more than %d words",
				BISECT_ARGV_MAX - 16);
	return OPT_GO;
}

static enum opt_result check_start(struct bisect_opts *bo, int *status)
{
	bool git = bo->good || bo->bad;

	if (bo->kernels && (git || bo->build || bo->boot))
		return opt_fail(status, EXIT_USAGE, "bisect: --kernels is a series of its own: not with --good, --bad, "
				"--build or --boot");
	if (!bo->kernels && (!bo->good || !bo->bad))
		return opt_fail(status, EXIT_USAGE, "bisect start: give --good REV and --bad REV (a git range in "
				"--tree), or --kernels LIST");
	if (!bo->kernels && !bo->build && !bo->apply && !bo->boot && !bo->lab && !bo->install)
		return opt_fail(status, EXIT_USAGE, "bisect start: nothing would change between candidates: give "
				"--build, --boot, --install or --apply");
	if (bo->release && !bo->install)
		return opt_fail(status, EXIT_USAGE, "bisect: --release goes with --install");
	if (bo->install && (bo->boot || bo->kernels || bo->lab))
		return opt_fail(status, EXIT_USAGE,
				"bisect: --install is for a cabled DUT: not with --boot, --kernels or --lab");
	if (bo->install) {
		struct dut_target t;
		char err[256];

		if (bisect_check_dut(bo->measure, bo->nmeasure, &t, err, sizeof(err)) || t.kind != DUT_SSH)
			return opt_fail(status, EXIT_USAGE, "bisect: --install: the measurement needs --dut ssh:HOST, "
					"the DUT to wait for (as a separate word)");
	}
	if (bo->modules && !bo->boot)
		return opt_fail(status, EXIT_USAGE, "bisect: --modules goes with --boot");
	if (bo->html)
		return opt_fail(status, EXIT_USAGE, "bisect: --html is 'bisect log''s");
	if (strlen(bo->label) > BISECT_NAME_MAX || !*bo->label)
		return opt_fail(status, EXIT_USAGE, "bisect: --label: 1 to %d characters", BISECT_NAME_MAX);
	return check_measure(bo, status);
}

enum opt_result bisect_args(struct cli *cli, int argc, char **argv, struct bisect_opts *bo, int *status)
{
	void *ctx[] = { bo };
	int nown, nwords = 0, rc;
	char **words = NULL;

	*bo = (struct bisect_opts){ .tree = ".", .prefix = LAB_PREFIX_DEFAULT, .label = "bisect", .repeat = 3,
				    .rounds = 3, .timeout = BISECT_TIMEOUT_DEFAULT,
				    .dut_wait = BISECT_DUT_WAIT_DEFAULT };
	for (nown = 1; nown < argc && strcmp(argv[nown], "--"); nown++)
		;
	if (nown < argc) {
		bo->measure = argv + nown + 1;
		bo->nmeasure = argc - nown - 1;
	}
	if ((rc = opt_parse_words(&bisect_cmd, ctx, cli, nown, argv, &words, &nwords)))
		return opt_exit(status, opt_status(rc));
	bo->words = words;
	if (!nwords)
		return opt_fail(status, EXIT_USAGE, "bisect: start, resume or log (see 'wirerate bisect --help')");
	if (!strcmp(words[0], "start"))
		bo->sub = BISECT_START;
	else if (!strcmp(words[0], "resume"))
		bo->sub = BISECT_RESUME;
	else if (!strcmp(words[0], "log"))
		bo->sub = BISECT_LOG;
	else
		return opt_fail(status, EXIT_USAGE, "bisect: unexpected '%.64s': start, resume or log", words[0]);
	if (nwords > (bo->sub == BISECT_START ? 1 : 2))
		return opt_fail(status, EXIT_USAGE, "bisect %s: unexpected '%.64s'", words[0], words[nwords - 1]);
	bo->run = nwords > 1 ? words[1] : NULL;
	if (bo->sub == BISECT_START)
		return check_start(bo, status);
	if (bo->nmeasure || nown < argc)
		return opt_fail(status, EXIT_USAGE, "bisect %s: the measurement is given to 'bisect start' only",
				words[0]);
	if (bo->good || bo->bad || bo->kernels || bo->build || bo->apply || bo->boot || bo->lab || bo->install)
		return opt_fail(status, EXIT_USAGE, "bisect %s: the candidates and commands are the stored bisection's",
				words[0]);
	if (bo->html && bo->sub != BISECT_LOG)
		return opt_fail(status, EXIT_USAGE, "bisect: --html is 'bisect log''s");
	return OPT_GO;
}

void bisect_args_free(struct bisect_opts *bo)
{
	free(bo->words);
	bo->words = NULL;
}
