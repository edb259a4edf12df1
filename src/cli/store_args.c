/* The results store's options (--db, --label, --tag, --round, --no-store) as a
 * table for opt_parse; see store_args.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/store_args.h"

/* A label or tag is shown in text tables, one run a line: a newline, tab
 * or escape in it would break or forge them. */
static bool has_control(const char *v)
{
	for (; *v; v++)
		if (iscntrl((unsigned char)*v))
			return true;
	return false;
}

static int set_db(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct run_store_request *s = ctx;

	int rc;

	if (!*v || strlen(v) >= sizeof(s->path)) {
		snprintf(err, errlen, "--db: give a file name");
		return -EINVAL;
	}
	if ((rc = opt_db_check(v, err, errlen)))
		return rc;
	snprintf(s->path, sizeof(s->path), "%s", v);
	s->path_set = true;
	return 0;
}

/* --label (id 0) and --tag (id 1): 1 to 63 characters, no control
 * characters; a label may be empty (no label). */
static int set_text(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct run_store_request *s = ctx;
	bool tag = opt->id;

	if (has_control(v)) {
		snprintf(err, errlen, "--%s: no control characters (newline, tab, escape ...)", opt->name);
		return -EINVAL;
	}
	if (strlen(v) > 63 || (!*v && tag)) {
		snprintf(err, errlen, "--%s '%.80s': 1 to 63 characters", opt->name, v);
		return -EINVAL;
	}
	if (!tag) {
		s->label = v;
		return 0;
	}
	if (s->ntags == APP_STORE_MAX_TAGS) {
		snprintf(err, errlen, "--tag: at most %d tags", APP_STORE_MAX_TAGS);
		return -EINVAL;
	}
	s->tags[s->ntags++] = v;
	return 0;
}

const struct opt store_args_opts[] = {
	{ OPT_CUSTOM("db", OPT_VALUE, "FILE", set_db,
		     "the results database: a file, or a postgresql:// URI shared by\n"
		     "several testers (docs/store.md); default $WIRERATE_DB, else\n"
		     "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db"),
	  .group = "results store (see 'wirerate runs' and 'wirerate report')" },
	{ OPT_CUSTOM("label", OPT_VALUE, "TEXT", set_text, "a name for this run, e.g. the kernel: --label 6.1.0") },
	{ OPT_CUSTOM("tag", OPT_VALUE, "TEXT", set_text, "a free-form tag (repeatable)"), .id = 1 },
	{ OPT_UINT("round", "N", OPT_FIELD(struct run_store_request, round), 1, 64,
		   "this run is round N of an interleaved comparison: 'report'\n"
		   "pairs the runs of one label by round (docs/confidence.md);\n"
		   "'matrix' sets it") },
	{ OPT_BOOL("no-store", OPT_FIELD(struct run_store_request, no_store), "do not store this run") },
	{ NULL },
};

void store_args_init(struct run_store *s)
{
	memset(s, 0, sizeof(*s));
}
