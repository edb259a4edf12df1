/* gate's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed with the run named. */
#include "cli/gate_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --db, once per store the runs come from */
static int set_db(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_gate_opts *op = ctx;

	(void)opt;
	return opt_add_db(v, op->db, &op->ndb, REPORT_MAX_STORES, err, errlen);
}

static int set_threshold(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return opt_parse_pct("threshold", v, &((struct app_gate_opts *)ctx)->threshold_pct, err, errlen);
}

#define GO(field) OPT_FIELD(struct app_gate_opts, field)

static const struct opt gate_opts[] = {
	{ OPT_STR("baseline", "LABEL|RUN", GO(baseline),
		  "the stored run to compare with: a label (its latest run),\n"
		  "a run id or a UUID"),
	  .group = "verdict" },
	{ OPT_CUSTOM("threshold", OPT_VALUE, "PCT", set_threshold,
		     "a figure worse by more than PCT percent beyond the noise\n"
		     "is a regression; noise wider than PCT is 'cannot tell'"),
	  .def = "5" },
	{ OPT_BOOL("ktap", GO(ktap),
		   "the verdict as KTAP (the kernel selftests' format): one\n"
		   "test point per figure"),
	  .group = "output" },
	{ OPT_STR("kcidb", "FILE", GO(kcidb.path),
		  "also write the verdict as a KernelCI (KCIDB I/O v5.3)\n"
		  "document to FILE") },
	{ OPT_STR("origin", "NAME", GO(kcidb.origin), "--kcidb: the CI system's name ([a-z0-9_]+)") },
	{ OPT_STR("kcidb-checkout", "ID", GO(kcidb.checkout_id),
		  "--kcidb: the KernelCI checkout tested (ORIGIN:...; default\n"
		  "one made from the DUT's kernel release)") },
	{ OPT_STR("kcidb-build", "ID", GO(kcidb.build_id), "--kcidb: the KernelCI build tested (ORIGIN:...)") },
	{ OPT_CUSTOM("db", OPT_VALUE, "FILE", set_db,
		     "the results database: a file, or a postgresql:// URI\n"
		     "(docs/store.md); default $WIRERATE_DB, else\n"
		     "~/.local/share/wirerate/results.db; give it again to take\n"
		     "the runs from several (K:RUN names RUN in the K-th)"),
	  .group = "store" },
	{ NULL },
};

static const struct opt *const gate_tables[] = { gate_opts, NULL };

const struct opt_cmd gate_cmd = {
	.name = "gate",
	.synopsis = "--baseline LABEL|RUN RUN [--threshold PCT] [--ktap|--json] [--kcidb FILE --origin NAME] [--db FILE]...",
	.about = "A CI's regression gate: compares RUN with a stored baseline by the report's\n"
		 "noise-aware verdicts (the spread of each run's repeats, or the paired\n"
		 "rounds of an interleaved matrix). Each figure (an NDR per frame size, a\n"
		 "trial's forwarded rate, a stream's received rate and the DUT's CPU per KB)\n"
		 "passes, fails (worse beyond the noise by more than --threshold), or cannot\n"
		 "be told (its noise is wider than the threshold, or the baseline lacks it).\n"
		 "--ktap prints them as kselftest KTAP; --kcidb writes them for KernelCI\n"
		 "(docs/kernel-ci.md).\n",
	.notes = "exit status: 0 no regression, 3 a regression, 4 cannot tell (too noisy to say:\n"
		 "kselftest's skip code), 1 runtime failure, 2 bad input\n",
	.tables = gate_tables,
};

enum opt_result gate_args(struct cli *cli, int argc, char **argv, struct app_gate_opts *op, int *status)
{
	void *ctx[] = { op };
	char **words = NULL;
	int nwords = 0, rc;

	*op = (struct app_gate_opts){ .threshold_pct = APP_GATE_THRESHOLD_PCT };
	if ((rc = opt_parse_words(&gate_cmd, ctx, cli, argc, argv, &words, &nwords)))
		return opt_exit(status, opt_status(rc));
	if (nwords > 1) {
		cli_error("gate: one RUN, not %d: the gate judges one run against --baseline", nwords);
		free(words);
		return opt_exit(status, EXIT_USAGE);
	}
	op->run = nwords ? words[0] : NULL;
	free(words);
	return OPT_GO;
}
