/* runs' options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed with the subcommand's words. */
#include "cli/runs_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/runs.h"
#include "cli/opt.h"

static int set_filter(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;

	*(opt->id ? &ro->req.f.tag : &ro->req.f.label) = v;
	ro->filter = opt->id ? "--tag" : "--label";
	return 0;
}

static int set_since(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;
	int rc = app_runs_since(v, time(NULL), &ro->req.f.since);

	if (rc == -ERANGE) {
		snprintf(err, errlen, "--since '%s' out of range: an age must not reach back before 1970", v);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, errlen, "--since '%s': give a date (2024-05-01, '2024-05-01 13:00') or an age (30m, 12h, 7d)",
			 v);
		return -EINVAL;
	}
	ro->filter = "--since";
	return 0;
}

static int set_db(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_db_check(v, err, errlen);

	if (!rc)
		((struct runs_opts *)ctx)->req.db_path = v;
	return rc;
}

static const struct opt runs_opts_table[] = {
	{ OPT_CUSTOM("label", OPT_VALUE, "L", set_filter, "only runs labelled L"), .group = "filters" },
	{ OPT_CUSTOM("tag", OPT_VALUE, "T", set_filter, "only runs tagged T"), .id = 1 },
	{ OPT_CUSTOM("since", OPT_VALUE, "TIME", set_since,
		     "only runs started since TIME: 2024-05-01, '2024-05-01 13:00',\n"
		     "or an age such as 30m, 12h, 7d") },
	{ OPT_STR("kcidb", "FILE", OPT_FIELD(struct runs_opts, kcidb.path),
		  "export: the run's figures as a KernelCI (KCIDB I/O v5.3)\n"
		  "document to FILE, each a test with its number (docs/kernel-ci.md)"),
	  .group = "KernelCI" },
	{ OPT_STR("origin", "NAME", OPT_FIELD(struct runs_opts, kcidb.origin),
		  "--kcidb: the CI system's name ([a-z0-9_]+)") },
	{ OPT_STR("kcidb-checkout", "ID", OPT_FIELD(struct runs_opts, kcidb.checkout_id),
		  "--kcidb: the KernelCI checkout tested (ORIGIN:...)") },
	{ OPT_STR("kcidb-build", "ID", OPT_FIELD(struct runs_opts, kcidb.build_id),
		  "--kcidb: the KernelCI build tested (ORIGIN:...)") },
	{ OPT_CUSTOM("db", OPT_VALUE, "FILE", set_db,
		     "the results database: a file, or a postgresql:// URI shared by\n"
		     "several testers (docs/store.md); default $WIRERATE_DB, else\n"
		     "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db"),
	  .group = "store" },
	{ NULL },
};

static const struct opt *const runs_tables[] = { runs_opts_table, NULL };

const struct opt_cmd runs_cmd = {
	.name = "runs",
	.synopsis = "[--label L] [--tag T] [--since TIME] [--json] [--db FILE]\n"
		    "       wirerate runs show ID [--json] [--db FILE]\n"
		    "       wirerate runs export ID... [--db FILE] > FILE.json\n"
		    "       wirerate runs export ID --kcidb FILE --origin NAME [--db FILE]\n"
		    "       wirerate runs import FILE.json [--json] [--db FILE]\n"
		    "       wirerate runs sync FROM [--label L] [--tag T] [--since TIME] [--json] [--db FILE]\n"
		    "       wirerate runs rm ID... [--json] [--db FILE]\n"
		    "       wirerate runs upgrade [--json] [--db FILE]",
	.about = "Lists the stored runs: id, time, label, test, sizes, headline result, status.\n"
		 "A run whose process died (SIGKILL, power loss) shows as interrupted.\n"
		 "Listing only reads the database; one in an older format is refused until\n"
		 "'runs upgrade' (or any command that stores a run) brings it up to date.\n"
		 "'runs show' prints a run with every trial. 'runs export' writes runs, every\n"
		 "row of them, as one JSON document; 'runs import' stores such a document's\n"
		 "runs in this store (new ids; a run whose UUID is already here is skipped).\n"
		 "'runs sync FROM' copies the runs of the store FROM (those the filters let\n"
		 "through and that have ended) into this one, the same way.\n"
		 "'runs rm' deletes the runs given, all of them or, when one is not stored, none.\n",
	.tables = runs_tables,
};

/* Each subcommand: how many words follow it (max -1: any), what is
 * said when too few or too many come (too many: "many", then the first
 * word too many quoted and "many_end" when it is set), and why the
 * filters do not apply to it (NULL: they do). */
static const struct runs_sub {
	const char *word;
	enum app_runs_sub sub;
	int min, max;
	const char *none, *many, *many_end, *why;
} runs_subs[] = {
	{ "rm", APP_RUNS_RM, 1, -1, "give the ids of the runs to delete", NULL, NULL,
	  "rm deletes the runs named by id" },
	{ "upgrade", APP_RUNS_UPGRADE, 0, 0, NULL, "unexpected ", ": it takes no arguments",
	  "upgrade acts on the whole file" },
	{ "show", APP_RUNS_SHOW, 1, 1, "give a run id", "one run at a time (", " is one too many)",
	  "show prints the run named by id" },
	{ "export", APP_RUNS_EXPORT, 1, -1, "give the ids of the runs to export (see 'wirerate runs')", NULL, NULL,
	  "export writes the runs named by id" },
	{ "import", APP_RUNS_IMPORT, 1, 1, "give the file an export wrote ('-': stdin)", "one file at a time", NULL,
	  "import stores every run of the file" },
	{ "sync", APP_RUNS_SYNC, 1, 1, "give the store to copy from (runs sync FROM [--db TO])",
	  "one store to copy from at a time", NULL, NULL },
};

const char *runs_args_word(enum app_runs_sub sub)
{
	for (size_t i = 0; i < sizeof(runs_subs) / sizeof(runs_subs[0]); i++)
		if (runs_subs[i].sub == sub)
			return runs_subs[i].word;
	return "";
}

/* The words after the options: the subcommand and what it takes. */
static enum opt_result runs_words(struct runs_opts *ro, int n, char **words, int *status)
{
	const struct runs_sub *s = NULL;
	int k;

	for (size_t i = 0; n && i < sizeof(runs_subs) / sizeof(runs_subs[0]); i++)
		if (!strcmp(words[0], runs_subs[i].word))
			s = &runs_subs[i];
	if (!s && n)
		return opt_fail(status, EXIT_USAGE, "runs: unexpected '%s' (see 'wirerate runs --help')", words[0]);
	if (!s && (ro->kcidb.path || ro->kcidb.origin))
		return opt_fail(status, EXIT_USAGE, "runs: --kcidb and --origin go with runs export ID");
	if (!s)
		return OPT_GO;
	if (s->why && ro->filter)
		return opt_fail(status, EXIT_USAGE, "runs %s: %s does not apply: %s", s->word, ro->filter, s->why);
	k = n - 1;
	if (k < s->min)
		return opt_fail(status, EXIT_USAGE, "runs %s: %s", s->word, s->none);
	if (s->max >= 0 && k > s->max) {
		if (s->many_end)
			return opt_fail(status, EXIT_USAGE, "runs %s: %s'%s'%s", s->word, s->many, words[1 + s->max],
					s->many_end);
		return opt_fail(status, EXIT_USAGE, "runs %s: %s", s->word, s->many);
	}
	if (ro->kcidb.path || ro->kcidb.origin || ro->kcidb.checkout_id || ro->kcidb.build_id) {
		if (s->sub != APP_RUNS_EXPORT)
			return opt_fail(status, EXIT_USAGE, "runs %s: --kcidb and --origin go with runs export", s->word);
		if (k != 1)
			return opt_fail(status, EXIT_USAGE, "runs export --kcidb: one run at a time, not %d", k);
	}
	ro->req.sub = s->sub;
	ro->req.nargs = k;
	ro->req.args = words + 1;
	return OPT_GO;
}

enum opt_result runs_args(struct cli *cli, int argc, char **argv, struct runs_opts *ro, int *status)
{
	void *ctx[] = { ro };
	int rc, n;

	*ro = (struct runs_opts){ .req.sub = APP_RUNS_LIST };
	if ((rc = opt_parse_words(&runs_cmd, ctx, cli, argc, argv, &ro->words, &n)))
		return opt_exit(status, opt_status(rc));
	if (runs_words(ro, n, ro->words, status) == OPT_GO)
		return OPT_GO;
	runs_args_free(ro);
	return OPT_EXIT;
}

void runs_args_free(struct runs_opts *ro)
{
	free(ro->words);
	ro->words = NULL;
}
