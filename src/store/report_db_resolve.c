/* A run named on the command line (an id, a UUID or a label, in one
 * store or several) found in the store: report_db_resolve and
 * report_db_resolve_in (report_db.h). */
#include "store/report_db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/sql.h"

/* How a run matched its name in one store. */
struct found {
	int64_t id, started;
	char how;		/* 'i' its id, 'u' its UUID, 'l' its label */
	int nlabel;		/* runs with that label in the store */
};

static int find_step(struct sql *h, struct sql_st *st, char how, struct found *f, char *err, size_t errlen)
{
	int rc = sql_step(st);

	if (rc == 1) {
		f->id = sql_col_int(st, 0);
		f->started = sql_col_int(st, 1);
		f->nlabel = how == 'l' ? sql_col_int(st, 2) : 1;
		f->how = how;
	}
	sql_finalize(st);
	if (rc != 1 && rc != 0)
		return sql_fail(h, "looking up the run", err, errlen);
	return rc == 1;
}

/* arg in one store: an id (all digits), else a UUID, else a label (the
 * latest run with it; a label may be all digits too). 1 found, 0 not. */
static int find_in(struct db *db, const char *arg, struct found *f, char *err, size_t errlen)
{
	static const struct { char how; const char *sql; } q[] = {
		{ 'i', "SELECT id, started FROM runs WHERE id = ?1" },
		{ 'u', "SELECT id, started FROM runs WHERE uuid = ?1 AND uuid != ''" },
		{ 'l', "SELECT id, started, (SELECT count(*) FROM runs WHERE label = ?1) FROM runs"
		       " WHERE label = ?1 ORDER BY started DESC, id DESC LIMIT 1" },
	};
	struct sql *h = db_sql(db);
	char *end;
	long long v = strtoll(arg, &end, 10);

	for (unsigned int i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		struct sql_st *st;
		int rc;

		if (q[i].how == 'i' && (!*arg || *end))
			continue;
		if (sql_prepare(h, q[i].sql, &st))
			return sql_fail(h, "looking up the run", err, errlen);
		if (q[i].how == 'i')
			sql_bind_int(st, 1, v);
		else
			sql_bind_str(st, 1, arg);
		if ((rc = find_step(h, st, q[i].how, f, err, errlen)))
			return rc;
	}
	return 0;
}

int report_db_resolve(struct db *db, const char *arg, int64_t *id, char *note, size_t notelen,
		   char *err, size_t errlen)
{
	const char *name = "";
	unsigned int which;

	return report_db_resolve_in(&db, &name, 1, arg, &which, id, note, notelen, err, errlen);
}

int report_db_resolve_in(struct db *const *dbs, const char *const *names, unsigned int ndb, const char *arg,
		      unsigned int *which, int64_t *id, char *note, size_t notelen, char *err, size_t errlen)
{
	struct found f[REPORT_MAX_STORES], *best = NULL;
	bool hit[REPORT_MAX_STORES] = { false };
	unsigned int first = 0, last = ndb, nid = 0, nstores = 0;
	int nlabel = 0;
	const char *given = arg;
	char *end;
	unsigned long k;

	note[0] = '\0';
	if (!ndb || ndb > REPORT_MAX_STORES) {
		snprintf(err, errlen, "from 1 to %d stores", REPORT_MAX_STORES);
		return -EINVAL;
	}
	/* "K:RUN" names RUN in the K-th store, of several */
	k = strtoul(arg, &end, 10);
	if (ndb > 1 && end != arg && *end == ':' && arg[0] != '0' && k >= 1 && k <= ndb) {
		first = (unsigned int)k - 1;
		last = first + 1;
		arg = end + 1;
	}
	for (unsigned int i = first; i < last; i++) {
		int rc = find_in(dbs[i], arg, &f[i], err, errlen);

		if (rc < 0)
			return rc;
		if (!rc)
			continue;
		hit[i] = true;
		nstores++;
		nid += f[i].how == 'i';
		nlabel += f[i].how == 'l' ? f[i].nlabel : 0;
	}
	/* An id or a UUID before a label, as in one store; of labels, the
	 * latest run over every store. */
	for (unsigned int i = first; i < last; i++) {
		if (!hit[i])
			continue;
		if (!best || (best->how == 'l' && f[i].how != 'l') ||
		    (best->how == 'l' && f[i].how == 'l' &&
		     (f[i].started > best->started || (f[i].started == best->started && f[i].id > best->id)))) {
			best = &f[i];
			*which = i;
		}
	}
	if (!best) {
		snprintf(err, errlen, "no run '%s' (neither a run id, a UUID nor a label; see 'wirerate runs')", given);
		return -ENOENT;
	}
	if (nid > 1) {
		char *p = err;
		size_t n = (size_t)snprintf(err, errlen, "run %s is in %u stores (", arg, nid);

		for (unsigned int i = first, j = 0; i < last; i++)
			if (hit[i] && f[i].how == 'i' && n < errlen)
				n += (size_t)snprintf(p + n, errlen - n, "%s%u: %s", j++ ? ", " : "", i + 1, names[i]);
		if (n < errlen)
			snprintf(p + n, errlen - n, "): name it as K:%s, K the store's place among the --db", arg);
		return -EINVAL;
	}
	*id = best->id;
	if (best->how == 'l' && nlabel > 1) {
		if (ndb > 1)
			snprintf(note, notelen, "label '%s' names %d runs in %u store%s; using the latest, run %u:%lld",
				 arg, nlabel, nstores, nstores == 1 ? "" : "s", *which + 1, (long long)*id);
		else
			snprintf(note, notelen, "label '%s' names %d runs; using the latest, run %lld", arg, nlabel,
				 (long long)*id);
	}
	return 0;
}
