/* runs' options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed with the subcommand's words. */
#include "cli/runsargs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "app/runs.h"
#include "cli/opt.h"

static int set_filter(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;

	*(opt->id ? &ro->tag : &ro->label) = v;
	ro->filter = opt->id ? "--tag" : "--label";
	return 0;
}

static int set_since(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;
	int rc = app_runs_since(v, time(NULL), &ro->since);

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
		((struct runs_opts *)ctx)->db_path = v;
	return rc;
}

static const struct opt runs_opts_table[] = {
	{ "label", 0, OPT_VALUE, "L", "filters", NULL, "only runs labelled L", set_filter, 0, 0, 0, 0 },
	{ "tag", 0, OPT_VALUE, "T", NULL, NULL, "only runs tagged T", set_filter, 0, 0, 0, 1 },
	{ "since", 0, OPT_VALUE, "TIME", NULL, NULL,
	  "only runs started since TIME: 2024-05-01, '2024-05-01 13:00',\n"
	  "or an age such as 30m, 12h, 7d", set_since },
	{ "db", 0, OPT_VALUE, "FILE", "store", NULL,
	  "the results database: a file, or a postgresql:// URI shared by\n"
	  "several testers (docs/store.md); default $WIRERATE_DB, else\n"
	  "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db", set_db },
	{ NULL },
};

static const struct opt *const runs_tables[] = { runs_opts_table, NULL };

const struct opt_cmd runs_cmd = {
	.name = "runs",
	.synopsis = "[--label L] [--tag T] [--since TIME] [--json] [--db FILE]\n"
		    "       wirerate runs show ID [--json] [--db FILE]\n"
		    "       wirerate runs export ID... [--db FILE] > FILE.json\n"
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

int runs_args(struct cli *cli, int argc, char **argv, struct runs_opts *ro, char ***args, int *nargs)
{
	void *ctx[] = { ro };
	int rc;

	*ro = (struct runs_opts){ .label = NULL };
	if ((rc = opt_parse_words(&runs_cmd, ctx, cli, argc, argv, args, nargs)))
		return opt_exit(rc);
	return -1;
}
