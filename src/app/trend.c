#include "app/trend.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/runs.h"
#include "store/report_db.h"

/* Keys that differ from run to run whatever changed: not an explanation. */
static const char *const restless[] = {
	"cpu.line_ns",		/* how far apart the host had two CPUs: moves on a VM */
	"lab.prefix",		/* the lab's name */
};

/* The same share of a load as report's plain-trial comparison. */
#define TREND_LOAD_BAND 0.005

struct kv {
	char *key, *value;
};

struct env {
	struct kv *kv;
	size_t n;
};

struct cand {
	int64_t id, started;
	unsigned int store;		/* index into the stores */
	char test[32];
	char uuid[40];
};

struct cands {
	struct cand *c;
	size_t n, cap;
	unsigned int store;		/* the store being listed */
	int rc;
};

static void on_run(void *ctx, const struct app_run_entry *e)
{
	struct cands *cs = ctx;

	if (cs->rc || strcmp(e->status, "complete"))
		return;
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 64;
		struct cand *c = realloc(cs->c, cap * sizeof(*c));

		if (!c) {
			cs->rc = -ENOMEM;
			return;
		}
		cs->c = c;
		cs->cap = cap;
	}
	/* a run synced into several of the stores is one point, the first
	 * store's */
	for (size_t i = 0; e->row->uuid[0] && i < cs->n; i++)
		if (!strcmp(cs->c[i].uuid, e->row->uuid))
			return;
	cs->c[cs->n].id = e->row->id;
	cs->c[cs->n].started = e->row->started;
	cs->c[cs->n].store = cs->store;
	snprintf(cs->c[cs->n].test, sizeof(cs->c[0].test), "%s", e->row->test);
	snprintf(cs->c[cs->n].uuid, sizeof(cs->c[0].uuid), "%s", e->row->uuid);
	cs->n++;
}

/* Oldest first over all the stores; a tie in time keeps the stores'
 * order, and each store's own. */
static int by_time(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->started != y->started)
		return x->started < y->started ? -1 : 1;
	if (x->store != y->store)
		return x->store < y->store ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int on_env(void *ctx, const char *key, const char *value)
{
	struct env *e = ctx;
	struct kv *kv = realloc(e->kv, (e->n + 1) * sizeof(*kv));

	if (!kv)
		return -ENOMEM;
	e->kv = kv;
	kv[e->n].key = strdup(key);
	kv[e->n].value = strdup(value);
	if (!kv[e->n].key || !kv[e->n].value) {
		free(kv[e->n].key);
		free(kv[e->n].value);
		return -ENOMEM;
	}
	e->n++;
	return 0;
}

static void env_free(struct env *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->kv[i].key);
		free(e->kv[i].value);
	}
	free(e->kv);
}

/* key's value in e (sorted by key), NULL when it has none */
static const char *env_get(const struct env *e, const char *key)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(e->kv[mid].key, key);

		if (!c)
			return e->kv[mid].value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool is_restless(const char *key)
{
	for (size_t i = 0; i < sizeof(restless) / sizeof(restless[0]); i++)
		if (!strcmp(key, restless[i]))
			return true;
	return false;
}

/* Every run of [from, to) has value v for key (NULL: none). */
static bool steady(const struct env *env, size_t from, size_t to, const char *key, const char *v)
{
	for (size_t i = from; i < to; i++) {
		const char *w = env_get(&env[i], key);

		if ((w == NULL) != (v == NULL) || (w && strcmp(w, v)))
			return false;
	}
	return true;
}

static void add_diff(struct trend_change *c, const char *key, const char *a, const char *b, bool st)
{
	struct trend_diff *d;

	if (c->ndiff == TREND_MAX_DIFFS) {
		/* a steady key takes the place of the last unsteady one */
		if (!st || c->diff[TREND_MAX_DIFFS - 1].steady) {
			c->more = true;
			return;
		}
		c->more = true;
		c->ndiff--;
	}
	/* steady ones first, each kind in key order */
	size_t at = c->ndiff;

	if (st)
		while (at > 0 && !c->diff[at - 1].steady)
			at--;
	memmove(&c->diff[at + 1], &c->diff[at], (c->ndiff - at) * sizeof(c->diff[0]));
	d = &c->diff[at];
	snprintf(d->key, sizeof(d->key), "%s", key);
	snprintf(d->before, sizeof(d->before), "%s", a ? a : "");
	snprintf(d->after, sizeof(d->after), "%s", b ? b : "");
	d->steady = st;
	c->ndiff++;
}

/* What differs between the runs on each side of change c: every key of
 * either run, merged in key order. */
static void explain(struct trend_change *c, const struct env *env, size_t g0, size_t at, size_t g2)
{
	const struct env *a = &env[at - 1], *b = &env[at];
	size_t i = 0, j = 0;

	while (i < a->n || j < b->n) {
		int cmp = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->kv[i].key, b->kv[j].key);
		const char *key = cmp <= 0 ? a->kv[i].key : b->kv[j].key;
		const char *va = cmp <= 0 ? a->kv[i].value : NULL, *vb = cmp >= 0 ? b->kv[j].value : NULL;

		if ((!va || !vb || strcmp(va, vb)) && !is_restless(key))
			add_diff(c, key, va, vb, steady(env, g0, at, key, va) && steady(env, at, g2, key, vb));
		i += cmp <= 0;
		j += cmp >= 0;
	}
}

int app_trend_explain(struct db *db, const int64_t *before, size_t nb, const int64_t *after, size_t na,
		      struct trend_change *c, char *err, size_t errlen)
{
	size_t n = nb + na;
	struct env *env;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	if (!nb || !na)
		return 0;
	if (!(env = calloc(n, sizeof(*env)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; !rc && i < n; i++)
		if ((rc = db_runs_env(db, i < nb ? before[i] : after[i - nb], on_env, &env[i], err, errlen)) == -ENOMEM)
			snprintf(err, errlen, "out of memory");
	if (!rc) {
		c->at = nb;
		explain(c, env, 0, nb, n);
	}
	for (size_t i = 0; i < n; i++)
		env_free(&env[i]);
	free(env);
	return rc;
}

void app_trend_free(struct trend *t)
{
	free(t->p);
	t->p = NULL;
	t->n = 0;
}

/* The series' candidates: every complete run f lets through in the ndb
 * stores, oldest first. */
static int gather(struct db *const *dbs, unsigned int ndb, const struct db_run_filter *f, struct cands *cs,
		  char *err, size_t errlen)
{
	int rc;

	for (cs->store = 0; cs->store < ndb; cs->store++) {
		if ((rc = app_runs_list(dbs[cs->store], f, on_run, cs, err, errlen)))
			return rc;
		if (cs->rc) {
			snprintf(err, errlen, "out of memory");
			return cs->rc;
		}
	}
	if (!cs->n) {
		snprintf(err, errlen, "no complete run to follow%s", f->label || f->tag || f->dut ? " with that label, tag or DUT" : "");
		return -EINVAL;
	}
	qsort(cs->c, cs->n, sizeof(cs->c[0]), by_time);
	return 0;
}

/* The newest run of the test sets the size and, for trials, the load. */
static int pick_size(struct db *const *dbs, const struct cands *cs, unsigned int size, struct report_model *m,
		     struct trend *t, char *err, size_t errlen)
{
	int rc;

	for (size_t k = cs->n; k-- > 0;) {
		const struct rm_cell *c;

		if (strcmp(cs->c[k].test, t->test))
			continue;
		if ((rc = report_db_load(dbs[cs->c[k].store], &cs->c[k].id, 1, m, err, errlen)))
			return rc;
		t->size = size ? size : m->sizes[0];
		if ((c = report_model_cell_of(&m->run[0], t->size))) {
			t->trials = !c->have_thr && c->have_trial;
			t->offered_pps = c->trial_offered_pps;
		}
		break;
	}
	if (!t->size) {
		snprintf(err, errlen, "no complete run of '%s' to follow", t->test);
		return -EINVAL;
	}
	return 0;
}

/* A run's cell is a point of the series: a search's NDR, or a plain
 * trial's forwarded rate at the series' load, not limited by the tester. */
static bool in_series(const struct trend *t, const struct rm_cell *c)
{
	if (!c)
		return false;
	if (t->trials)
		return c->have_trial && !c->tester_limited && c->trial_fwd_pps >= 0 &&
		       !(fabs(c->trial_offered_pps - t->offered_pps) > TREND_LOAD_BAND * t->offered_pps);
	return c->have_thr && c->ndr_med > 0;
}

/* The series' points, each with its run's environment (env[i], x[i] its
 * value). */
static int points(struct db *const *dbs, unsigned int ndb, const struct cands *cs, struct report_model *m,
		  struct trend *t, struct env *env, double *x, char *err, size_t errlen)
{
	int rc;

	for (size_t k = 0; k < cs->n; k++) {
		struct trend_point *p = &t->p[t->n];
		const struct rm_cell *c;

		if (strcmp(cs->c[k].test, t->test))
			continue;
		if ((rc = report_db_load(dbs[cs->c[k].store], &cs->c[k].id, 1, m, err, errlen)))
			return rc;
		c = report_model_cell_of(&m->run[0], t->size);
		if (!in_series(t, c)) {
			t->skipped++;
			continue;
		}
		p->id = m->run[0].id;
		if (ndb > 1)
			snprintf(p->ref, sizeof(p->ref), "%u:%lld", cs->c[k].store + 1, (long long)p->id);
		else
			snprintf(p->ref, sizeof(p->ref), "%lld", (long long)p->id);
		snprintf(p->label, sizeof(p->label), "%s", m->run[0].label);
		snprintf(p->when, sizeof(p->when), "%s", m->run[0].when);
		p->value = t->trials ? c->trial_fwd_pps : c->ndr_med;
		p->bound = !t->trials && c->tester_limited;
		x[t->n] = p->value;
		if ((rc = db_runs_env(dbs[cs->c[k].store], p->id, on_env, &env[t->n], err, errlen))) {
			if (rc == -ENOMEM)
				snprintf(err, errlen, "out of memory");
			return rc;
		}
		t->n++;
	}
	if (t->n < TREND_MIN_RUNS) {
		snprintf(err, errlen, "a series too short to judge: %zu run(s) of '%s' with a figure at %u bytes%s "
			 "(a change needs at least %d: two on each side)", t->n, t->test, t->size,
			 t->skipped ? " (others left out: another size or load, or tester-limited)" : "", TREND_MIN_RUNS);
		return -EINVAL;
	}
	return 0;
}

/* Where the series' level changes, and what changed with it. */
static int judge(struct trend *t, struct env *env, const double *x, char *err, size_t errlen)
{
	struct cp_result cp;
	int rc;

	if ((rc = changepoint_find(x, t->n, &cp))) {
		snprintf(err, errlen, "the series' figures cannot be judged");
		return rc;
	}
	t->sigma = cp.sigma;
	t->nc = cp.nchanges;
	for (size_t g = 0, i = 0; i < t->n; i++) {
		if (g < cp.nchanges && i == cp.at[g])
			g++;
		t->p[i].group = (unsigned int)g;
	}
	for (size_t g = 0; g < cp.nchanges; g++) {
		struct trend_change *c = &t->c[g];
		size_t g0 = g ? cp.at[g - 1] : 0, g2 = g + 1 < cp.nchanges ? cp.at[g + 1] : t->n;

		c->at = cp.at[g];
		c->before = cp.mean[g];
		c->after = cp.mean[g + 1];
		c->pct = c->before ? (c->after - c->before) * 100 / c->before : 0;
		c->worse = c->after < c->before;
		explain(c, env, g0, c->at, g2);
	}
	return 0;
}

int app_trend(struct db *const *dbs, unsigned int ndb, const struct db_run_filter *f, const char *test,
	      unsigned int size, struct trend *t, char *err, size_t errlen)
{
	struct cands cs = { 0 };
	struct report_model *m = NULL;
	struct env *env = NULL;
	double *x = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((rc = gather(dbs, ndb, f, &cs, err, errlen)))
		goto out;
	snprintf(t->test, sizeof(t->test), "%s", test ? test : cs.c[cs.n - 1].test);
	if (!(m = calloc(1, sizeof(*m))) || !(t->p = calloc(cs.n, sizeof(*t->p))) ||
	    !(env = calloc(cs.n, sizeof(*env))) || !(x = calloc(cs.n, sizeof(*x)))) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if (!(rc = pick_size(dbs, &cs, size, m, t, err, errlen)) &&
	    !(rc = points(dbs, ndb, &cs, m, t, env, x, err, errlen)))
		rc = judge(t, env, x, err, errlen);
out:
	for (size_t i = 0; env && i < cs.n; i++)
		env_free(&env[i]);
	free(env);
	free(x);
	free(m);
	free(cs.c);
	if (rc)
		app_trend_free(t);
	return rc;
}
