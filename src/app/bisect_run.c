#include "app/bisect_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/bisect_prepare.h"
#include "app/bisect_source.h"
#include "app/trend.h"
#include "os/fs.h"
#include "os/selfexec.h"
#include "os/stop.h"
#include "store/report_db.h"
#include "store/db_runs.h"

#define CHILD_CANNOT_RUN 1

void app_bisect_run_said(const struct app_bisect *b, size_t i, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	b->h->step(b->ctx, b, i, line);
}

/* The settings as the bisection run's environment: one key each. */
struct kvbuf {
	struct db_kv kv[32];
	char num[8][24];
	char measure[8192];
	size_t n;
};

static void kv_add(struct kvbuf *k, const char *key, const char *v)
{
	if (v && *v && k->n < sizeof(k->kv) / sizeof(k->kv[0]))
		k->kv[k->n++] = (struct db_kv){ key, v };
}

static void spec_env(const struct app_bisect *b, struct kvbuf *k)
{
	const struct app_bisect_spec *s = &b->spec;
	size_t at = 0;

	k->n = 0;
	k->measure[0] = '\0';
	for (int i = 0; i < s->nmeasure; i++)
		at += (size_t)snprintf(k->measure + at, at < sizeof(k->measure) ? sizeof(k->measure) - at : 0,
				       "%s%s", i ? "\n" : "", s->measure[i]);
	snprintf(k->num[0], sizeof(k->num[0]), "%u", s->size);
	snprintf(k->num[1], sizeof(k->num[1]), "%u", s->repeat);
	snprintf(k->num[2], sizeof(k->num[2]), "%u", s->max_rounds);
	snprintf(k->num[3], sizeof(k->num[3]), "%u", s->timeout_s);
	snprintf(k->num[4], sizeof(k->num[4]), "%u", s->dut_wait_s);
	kv_add(k, "bisect.name", s->name);
	kv_add(k, "bisect.tree", s->tree);
	kv_add(k, "bisect.good", s->good);
	kv_add(k, "bisect.bad", s->bad);
	kv_add(k, "bisect.kernels", s->kernels);
	kv_add(k, "bisect.build", s->build);
	kv_add(k, "bisect.apply", s->apply);
	kv_add(k, "bisect.install", s->install);
	kv_add(k, "bisect.release", s->release);
	kv_add(k, "bisect.boot", s->boot);
	kv_add(k, "bisect.modules", s->modules);
	kv_add(k, "bisect.lab_on", s->lab_on ? "1" : NULL);
	kv_add(k, "bisect.no_drift_checks", s->no_drift_checks ? "1" : NULL);
	kv_add(k, "bisect.lab", s->lab);
	kv_add(k, "bisect.prefix", s->prefix);
	kv_add(k, "bisect.figure", bisect_db_figure_name(s->figure));
	kv_add(k, "bisect.size", k->num[0]);
	kv_add(k, "bisect.repeat", k->num[1]);
	kv_add(k, "bisect.rounds", k->num[2]);
	kv_add(k, "bisect.timeout", k->num[3]);
	kv_add(k, "bisect.dut_wait", k->num[4]);
	kv_add(k, "bisect.measure", k->measure);
	kv_add(k, "bisect.logs", s->logs);
	kv_add(k, "bisect.head", b->head);
}

static void default_logs(struct app_bisect *b)
{
	struct app_bisect_spec *s = &b->spec;
	const char *home = getenv("HOME");
	char dir[4096];

	if (s->logs[0])
		return;
	if (!db_is_uri(s->db_path)) {
		snprintf(dir, sizeof(dir), "%s", s->db_path);
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
	} else
		snprintf(dir, sizeof(dir), "%s/.local/share/wirerate", home && *home ? home : "/tmp");
	snprintf(s->logs, sizeof(s->logs), "%.4000s/bisect-%" PRId64, dir, b->id);
}

int app_bisect_run_create(struct app_bisect *b, char *err, size_t errlen)
{
	const char *tags[] = { "bisect" };
	char config[160];
	struct kvbuf *k = calloc(1, sizeof(*k));
	struct db *db = NULL;
	int rc;

	if (!k)
		return -ENOMEM;
	snprintf(config, sizeof(config), "figure=%s size=%u repeat=%u candidates=%zu",
		 bisect_db_figure_name(b->spec.figure), b->spec.size, b->spec.repeat, b->n);
	spec_env(b, k);
	struct db_run_info ri = { .test = "bisect", .label = b->spec.name, .tags = tags, .ntags = 1, .sizes = "",
				  .config = config, .where = b->spec.tree[0] ? b->spec.tree : "kernels", .repeats = 1 };

	if (!(rc = db_open(b->spec.db_path, true, &db, err, errlen)) &&
	    !(rc = db_run_begin(db, &ri, k->kv, k->n, &b->id, err, errlen)))
		rc = db_run_end(db, b->id, "interrupted", "started", err, errlen);
	db_close(db);
	free(k);
	if (!rc)
		default_logs(b);
	return rc;
}

/* The bisection's settings back from its environment. */
static int on_spec(void *ctx, const char *key, const char *v)
{
	struct app_bisect *b = ctx;
	struct app_bisect_spec *s = &b->spec;
	static const struct {
		const char *key;
		size_t off, len;
	} str[] = {
#define S(k, f) { "bisect." k, offsetof(struct app_bisect_spec, f), sizeof(((struct app_bisect_spec *)0)->f) }
		S("name", name), S("tree", tree), S("good", good), S("bad", bad), S("kernels", kernels),
		S("build", build), S("apply", apply), S("install", install), S("release", release), S("boot", boot),
		S("modules", modules), S("lab", lab), S("prefix", prefix), S("logs", logs),
#undef S
	};

	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (!strcmp(key, str[i].key)) {
			snprintf((char *)s + str[i].off, str[i].len, "%s", v);
			return 0;
		}
	if (!strcmp(key, "bisect.lab_on"))
		s->lab_on = !strcmp(v, "1");
	else if (!strcmp(key, "bisect.no_drift_checks"))
		s->no_drift_checks = !strcmp(v, "1");
	else if (!strcmp(key, "bisect.head"))
		snprintf(b->head, sizeof(b->head), "%s", v);
	else if (!strcmp(key, "bisect.figure"))
		return bisect_db_figure_parse(v, &s->figure);
	else if (!strcmp(key, "bisect.size"))
		s->size = (unsigned int)strtoul(v, NULL, 10);
	else if (!strcmp(key, "bisect.repeat"))
		s->repeat = (unsigned int)strtoul(v, NULL, 10);
	else if (!strcmp(key, "bisect.rounds"))
		s->max_rounds = (unsigned int)strtoul(v, NULL, 10);
	else if (!strcmp(key, "bisect.timeout"))
		s->timeout_s = (unsigned int)strtoul(v, NULL, 10);
	else if (!strcmp(key, "bisect.dut_wait"))
		s->dut_wait_s = (unsigned int)strtoul(v, NULL, 10);
	else if (!strcmp(key, "bisect.measure")) {
		char *copy = strdup(v), *save = NULL;

		if (!copy)
			return -ENOMEM;
		s->nmeasure = 0;
		for (char *w = strtok_r(copy, "\n", &save); w && s->nmeasure < BISECT_ARGV_MAX - 1;
		     w = strtok_r(NULL, "\n", &save))
			s->measure[s->nmeasure++] = w;
		s->measure[s->nmeasure] = NULL;
		b->measure_buf = copy;
	}
	return 0;
}

struct newest {
	int64_t id;
	bool any;
};

static int on_newest(void *ctx, const struct db_run_row *r)
{
	struct newest *n = ctx;

	if (!strcmp(r->test, "bisect") && (n->any || strcmp(r->status, "complete")))
		n->id = r->id;
	return 0;
}

int app_bisect_run_open(struct app_bisect *b, const char *db_path, int64_t id, bool any, char *err, size_t errlen)
{
	struct db *db = NULL;
	struct db_run_filter f = { .tag = "bisect" };
	struct newest nw = { .any = any };
	int rc;

	snprintf(b->spec.db_path, sizeof(b->spec.db_path), "%s", db_path);
	if ((rc = db_open(db_path, false, &db, err, errlen)))
		return rc;
	if (!id) {
		if (!(rc = db_runs_list(db, &f, on_newest, &nw, err, errlen)) && !(id = nw.id)) {
			if (any)
				snprintf(err, errlen, "no bisection stored in %s", db_path);
			else
				snprintf(err, errlen, "no bisection to resume in %s (each one stored is complete)",
					 db_path);
			rc = -ENOENT;
		}
	}
	if (!rc) {
		b->id = id;
		if ((rc = db_runs_env(db, id, on_spec, b, err, errlen)) && !*err)
			snprintf(err, errlen, "run %" PRId64 "'s bisection settings do not read back", id);
	}
	db_close(db);
	if (!rc && !b->spec.nmeasure) {
		snprintf(err, errlen, "run %" PRId64 " is not a bisection", id);
		rc = -ENOENT;
	}
	if (!rc)
		default_logs(b);
	return rc ? rc : app_bisect_source_candidates(b, err, errlen);
}

/* The candidate a step's run belongs to, from its tags; -1 none. */
static long step_of(const struct app_bisect *b, const char *tags)
{
	char want[48];
	const char *p;
	size_t wl;

	wl = (size_t)snprintf(want, sizeof(want), "bisect-step:%" PRId64 ":", b->id);
	for (p = tags; (p = strstr(p, want)); p += wl) {
		if (p != tags && p[-1] != ',')
			continue;
		char *end;
		long i = strtol(p + wl, &end, 10);

		if ((*end == ',' || !*end) && i >= 0 && (size_t)i < b->n)
			return i;
	}
	return -1;
}

struct gather {
	struct app_bisect *b;
	bool cand_seen;		/* a candidate between the ends was measured (the runs come in order) */
	struct db *db;
	char *err;
	size_t errlen;
};

/* Room in c for more values and one more measurement: 0 or -ENOMEM. */
static int cand_room(struct app_bisect_cand *c, unsigned int more)
{
	if (c->n + more > c->vcap) {
		unsigned int cap = c->vcap ? c->vcap : 16;
		double *v;

		while (cap < c->n + more)
			cap *= 2;
		if (!(v = realloc(c->v, cap * sizeof(*v))))
			return -ENOMEM;
		c->v = v;
		c->vcap = cap;
	}
	if (c->nm + 1 > c->mcap) {
		unsigned int cap = c->mcap ? 2 * c->mcap : 4;
		struct bisect_meas *m = realloc(c->m, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		c->m = m;
		c->mcap = cap;
	}
	return 0;
}

static int on_step(void *ctx, const struct db_run_row *r)
{
	struct gather *g = ctx;
	long i = step_of(g->b, r->tags);
	struct app_bisect_cand *c;
	unsigned int n = 0, room = g->b->spec.repeat > 64 ? g->b->spec.repeat : 64;
	bool bound = false;
	int rc;

	if (i < 0)
		return 0;
	c = &g->b->c[i];
	if (!strcmp(r->test, "bisect skip")) {
		c->failed = true;
		snprintf(c->reason, sizeof(c->reason), "%s", r->headline);
		return 0;
	}
	if (strcmp(r->status, "complete"))
		return 0;
	if (c->n + room > BISECT_VALUES_MAX)
		room = c->n < BISECT_VALUES_MAX ? BISECT_VALUES_MAX - c->n : 0;
	if ((rc = cand_room(c, room))) {
		snprintf(g->err, g->errlen, "out of memory");
		return rc;
	}
	if ((rc = bisect_db_values(g->db, r->id, g->b->spec.figure, g->b->spec.size, c->v + c->n, room, &n, &bound,
				  g->err, g->errlen)))
		return rc;
	/* the run's place in the order: its id (the steps run one at a
	 * time, each stored as it starts); its values' address is set at
	 * the end, once v has stopped moving */
	if (n)
		c->m[c->nm++] = (struct bisect_meas){ .n = n, .seq = r->id };
	c->n += n;
	c->bound |= bound;
	if (i == 0 || (size_t)i + 1 == g->b->n)
		c->bound_first |= bound && !g->cand_seen;
	else
		g->cand_seen = true;
	c->rounds++;
	if (c->nruns < sizeof(c->runs) / sizeof(c->runs[0]))
		c->runs[c->nruns++] = r->id;
	return 0;
}

int app_bisect_run_state(struct app_bisect *b, char *err, size_t errlen)
{
	char tag[32];
	struct db_run_filter f = { .tag = tag };
	struct bisect_cand *bc = calloc(b->n, sizeof(*bc));
	struct gather g = { .b = b, .err = err, .errlen = errlen };
	int rc;

	if (!bc)
		return -ENOMEM;
	for (size_t i = 0; i < b->n; i++) {
		struct app_bisect_cand *c = &b->c[i];

		c->n = c->rounds = c->nruns = c->nm = 0;
		c->bound = c->bound_first = c->failed = false;
		c->reason[0] = '\0';
	}
	snprintf(tag, sizeof(tag), "bisect:%" PRId64, b->id);
	if (!(rc = db_open(b->spec.db_path, false, &g.db, err, errlen)))
		rc = db_runs_list(g.db, &f, on_step, &g, err, errlen);
	db_close(g.db);
	for (size_t i = 0; !rc && i < b->n; i++) {
		struct app_bisect_cand *c = &b->c[i];
		unsigned int at = 0;

		for (unsigned int k = 0; k < c->nm; at += c->m[k++].n)
			c->m[k].v = c->v + at;
		bc[i] = (struct bisect_cand){ .v = c->v, .n = c->n, .rounds = c->rounds, .failed = c->failed,
					      .m = c->nm && !b->spec.no_drift_checks ? c->m : NULL,
					      .nm = b->spec.no_drift_checks ? 0 : c->nm };
	}
	if (!rc && (rc = bisect_decide(bc, b->n, b->spec.max_rounds, b->marks, &b->st)))
		snprintf(err, errlen, "the steps' figures cannot be judged");
	free(bc);
	return rc;
}

int app_bisect_run_figure(const char *given, const char *test, enum bisect_figure *f, char *err, size_t errlen)
{
	bool rfc = !strcmp(test, "rfc2544"), stream = !strcmp(test, "stream");

	if (!given) {
		*f = rfc ? BISECT_FIG_NDR : stream ? BISECT_FIG_RECEIVED : BISECT_FIG_FORWARDED;
		return 0;
	}
	if (bisect_db_figure_parse(given, f)) {
		snprintf(err, errlen, "--figure '%.32s': ndr, pdr, forwarded, cpu-per-frame, received or service-demand",
			 given);
		return -EINVAL;
	}
	if (bisect_db_figure_rfc2544(*f) != rfc || bisect_db_figure_stream(*f) != stream) {
		snprintf(err, errlen, "--figure %s is %s, and the measurement is %s", given,
			 bisect_db_figure_rfc2544(*f) ? "an rfc2544 throughput figure" :
			 bisect_db_figure_stream(*f) ? "a stream's figure (received, service-demand)" :
			 "a trial's figure (forwarded, cpu-per-frame)", test);
		return -EINVAL;
	}
	return 0;
}

/* A skip, stored as a run of its own with the reason as its headline. */
static int store_skip(struct app_bisect *b, size_t i, const char *why, char *err, size_t errlen)
{
	char tag[32], step[48], label[64];
	const char *tags[] = { tag, step };
	struct db_run_info ri = { .test = "bisect skip", .label = label, .tags = tags, .ntags = 2, .sizes = "",
				  .config = "", .where = "", .repeats = 1 };
	struct db_kv env[] = { { "bisect.candidate", b->c[i].id } };
	struct db *db = NULL;
	int64_t id;
	int rc;

	snprintf(tag, sizeof(tag), "bisect:%" PRId64, b->id);
	snprintf(step, sizeof(step), "bisect-step:%" PRId64 ":%zu", b->id, i);
	snprintf(label, sizeof(label), "%.*s %zu/skip", BISECT_NAME_MAX, b->spec.name, i);
	if (!(rc = db_open(b->spec.db_path, false, &db, err, errlen)) &&
	    !(rc = db_run_begin(db, &ri, env, 1, &id, err, errlen)))
		rc = db_run_end(db, id, "failed", why, err, errlen);
	db_close(db);
	return rc;
}

/* What candidate i's measurement is asked: the test's words, the lab,
 * the repeats, and the label and tags its run is found by. */
struct measure {
	struct app_child what;
	char label[64], tags[3][80];
};

static void measure_of(const struct app_bisect *b, size_t i, struct measure *m)
{
	const struct app_bisect_spec *s = &b->spec;

	snprintf(m->label, sizeof(m->label), "%.*s %zu/%.16s", BISECT_NAME_MAX, s->name, i, b->c[i].shown);
	snprintf(m->tags[0], sizeof(m->tags[0]), "bisect:%" PRId64, b->id);
	snprintf(m->tags[1], sizeof(m->tags[1]), "bisect-step:%" PRId64 ":%zu", b->id, i);
	snprintf(m->tags[2], sizeof(m->tags[2]), "bisect-candidate:%.60s", b->c[i].id);
	m->what = (struct app_child){ .cmd = APP_CHILD_TEST, .words = s->measure, .nwords = s->nmeasure,
				      .prefix = b->lab_spec ? s->prefix : NULL, .repeat = s->repeat,
				      .label = m->label, .tags = { m->tags[0], m->tags[1], m->tags[2] }, .ntags = 3,
				      .db = s->db_path };
}

/* The words of a step's measuring: why an end is measured again. */
static void measuring_why(const struct app_bisect *b, size_t i, char *out, size_t len)
{
	const struct bisect_state *st = &b->st;

	if (st->ends_moved)
		snprintf(out, len, "measuring again: the ends' own measurements disagree (the host moved while "
				   "they were measured)");
	else if (st->check_next && st->check_for < b->n)
		snprintf(out, len, "measuring: the drift check beside %zu %s", st->check_for, b->c[st->check_for].shown);
	else if (st->check_next)
		snprintf(out, len, "measuring: the final drift check (the good end once more)");
	else
		snprintf(out, len, "%s", i && i + 1 < b->n && b->c[i].rounds ? "measuring again" : "measuring");
}

/* What an end's drift check found, said on its step once it is stored. */
static void say_check(const struct app_bisect *b, size_t i)
{
	const struct bisect_state *st = &b->st;
	const char *end = i ? "bad" : "good";
	size_t f = st->checked_for;

	if (!st->checked || st->checked_end != i)
		return;
	if (f < b->n && st->checked_during)
		app_bisect_run_said(b, i, "re-measured %s end %s: the host moved %+.1f%% while %zu %s was measured (beyond "
				"the ends' noise, 3 x %.1f%%): that measurement counts for nothing",
			  end, b->c[i].shown, st->checked_during_pct, f, b->c[f].shown, st->noise_pct);
	else if (f < b->n && st->checked_moved)
		app_bisect_run_said(b, i, "re-measured %s end %s: the host moved %+.1f%% since the ends were measured (beyond "
				"their noise, 3 x %.1f%%): %zu %s judged on its paired difference beside it: %s",
			  end, b->c[i].shown, st->checked_pct, st->noise_pct, f, b->c[f].shown,
			  bisect_mark_name(b->marks[f]));
	else if (f < b->n)
		app_bisect_run_said(b, i, "drift check: %s end %+.1f%% from the ends' measurement (within 3 x %.1f%%): %zu %s: %s",
			  end, st->checked_pct, st->noise_pct, f, b->c[f].shown, bisect_mark_name(b->marks[f]));
	if (!st->final_checked || i)
		return;
	if (st->drifted)
		app_bisect_run_said(b, i, "the host drifted %+.1f%% since the ends were measured (beyond their noise, 3 x "
				"%.1f%%): a verdict by less than that is 'cannot tell'",
			  st->final_pct, st->noise_pct);
	else
		app_bisect_run_said(b, i, "final drift check: good end %+.1f%% from the ends' measurement (within 3 x %.1f%%)",
			  st->final_pct, st->noise_pct);
}

/* One step: candidate i prepared (unless it was the last one) and
 * measured once. 0 (a skip is stored too), -EINTR, or -EIO. */
static int step(struct app_bisect *b, size_t i, long *prepared)
{
	char why[768], err[512], log[4600];
	struct measure m;
	int rc = 0, st, fd;

	if (*prepared != (long)i) {
		*prepared = -1;
		if ((rc = app_bisect_prepare(b, i, why, sizeof(why))) < 0)
			return rc;
		if (rc)
			goto skip;
		*prepared = (long)i;
	}
	measuring_why(b, i, why, sizeof(why));
	app_bisect_run_said(b, i, "%s", why);
	measure_of(b, i, &m);
	snprintf(log, sizeof(log), "%s/measure-%zu.log", b->spec.logs, i);
	if ((fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s: %s", log, strerror(errno));
		return -EIO;
	}
	st = app_child_run(b->argv, b->cli->ctx, &m.what, fd, CHILD_CANNOT_RUN);
	close(fd);
	if (st == 130 || stop_requested())
		return -EINTR;
	if (st < 0) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "cannot run the measurement: %s", strerror(-st));
		return -EIO;
	}
	if (st) {
		snprintf(why, sizeof(why), "the measurement failed (exit %d): see %.300s", st, log);
		*prepared = -1;
		goto skip;
	}
	/* its figure: none is a skip too (the test did not give it) */
	unsigned int before = b->c[i].n, rounds = b->c[i].rounds;

	if ((rc = app_bisect_run_state(b, err, sizeof(err)))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
		return -EIO;
	}
	if (b->c[i].rounds == rounds) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "the measurement stored no run in %s", b->spec.db_path);
		return -EIO;
	}
	if (b->c[i].n > before) {
		say_check(b, i);
		return 0;
	}
	snprintf(why, sizeof(why), "the measurement gave no %s figure%s", bisect_db_figure_name(b->spec.figure),
		 b->spec.size ? " at that size" : "");
skip:
	app_bisect_run_said(b, i, "skip: %s", why);
	if ((rc = store_skip(b, i, why, err, sizeof(err)))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
		return -EIO;
	}
	return 0;
}

/* The headline of the bisection's end, for 'runs' and its record. */
static void headline(const struct app_bisect *b, char *out, size_t len)
{
	const struct bisect_state *st = &b->st;

	switch (st->action) {
	case BISECT_FOUND:
		snprintf(out, len, "first bad: %s", b->c[st->first_bad].shown);
		break;
	case BISECT_RANGE:
		snprintf(out, len, "first bad: one of %zu (%s .. %s; %s between)", st->first_bad - st->last_good,
			 b->c[st->last_good + 1].shown, b->c[st->first_bad].shown,
			 st->drifted ? "skipped or cannot tell" : "skipped");
		break;
	case BISECT_NO_DIFFERENCE:
		snprintf(out, len, "good and bad do not differ beyond their noise");
		break;
	case BISECT_END_FAILED:
		snprintf(out, len, "the %s end could not be measured: %s", st->next ? "bad" : "good",
			 b->c[st->next].reason);
		break;
	default:
		snprintf(out, len, "undecided");
	}
	if (st->drifted && (st->action == BISECT_FOUND || st->action == BISECT_RANGE)) {
		size_t l = strlen(out);

		snprintf(out + l, len - l, " (the host drifted %+.1f%%)", st->final_pct);
	}
}

static int mark_end(struct app_bisect *b, const char *status, char *err, size_t errlen)
{
	char line[512];
	struct db *db = NULL;
	int rc;

	headline(b, line, sizeof(line));
	if (!(rc = db_open(b->spec.db_path, false, &db, err, errlen)))
		rc = db_run_end(db, b->id, status, line, err, errlen);
	db_close(db);
	return rc;
}

static int hold(struct app_bisect *b, int *lock)
{
	char err[512], held[64];

	if (lab_status_lock(b->spec.prefix, "bisect", true, lock, err, sizeof(err))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
		return -EIO;
	}
	fcntl(*lock, F_SETFD, 0);
	snprintf(held, sizeof(held), "%s:%d", b->spec.prefix, *lock);
	setenv(LAB_LOCK_ENV, held, 1);
	return 0;
}

/* An end whose figure is the tester's bound cannot be compared. */
static bool ends_bounded(struct app_bisect *b)
{
	for (int e = 0; e < 2; e++) {
		const struct app_bisect_cand *c = &b->c[e ? b->n - 1 : 0];

		if ((b->spec.no_drift_checks ? c->bound : c->bound_first) && c->n >= BISECT_END_VALUES) {
			app_cli_hooks_say(b->cli, APP_SAY_ERROR, "the %s end's %s is the tester's bound, not the DUT's (\"at least\"): it cannot be "
			       "compared; raise the measurement's --max-load or --rate",
			    e ? "bad" : "good", bisect_db_figure_name(b->spec.figure));
			return true;
		}
	}
	return false;
}

int app_bisect_run(struct app_bisect *b)
{
	struct stop sigs;
	struct db *db = NULL;
	char err[512];
	long prepared = -1;
	int rc = 0, lock = -1;

	snprintf(err, sizeof(err), "%.500s/.", b->spec.logs);
	if ((rc = fs_mkdir_parents(err))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s: %s", b->spec.logs, strerror(-rc));
		return -EIO;
	}
	/* the bisection is running while this process is: its pid (and on
	 * PostgreSQL its lock) say so */
	if (db_open(b->spec.db_path, false, &db, err, sizeof(err)) || db_run_reopen(db, b->id, err, sizeof(err))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
		db_close(db);
		return -EIO;
	}
	if (b->lab_spec && hold(b, &lock)) {
		db_close(db);
		return -EIO;
	}
	stop_catch_hangup(&sigs);
	while (!rc) {
		if ((rc = app_bisect_run_state(b, err, sizeof(err)))) {
			app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
			rc = -EIO;
			break;
		}
		if (b->st.action != BISECT_MEASURE)
			break;
		if (ends_bounded(b)) {
			rc = -EIO;
			break;
		}
		if (stop_requested()) {
			rc = -EINTR;
			break;
		}
		rc = step(b, b->st.next, &prepared);
	}
	if (b->lab_spec) {
		if (lab_down(b->spec.prefix, err, sizeof(err)))
			app_cli_hooks_say(b->cli, APP_SAY_ERROR, "lab down: %s", err);
		unsetenv(LAB_LOCK_ENV);
		lab_status_unlock(&lock, b->spec.prefix);
	}
	if (b->spec.tree[0] && b->head[0] && app_bisect_source_checkout(b->spec.tree, b->head, err, sizeof(err)))
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "the tree is left at a candidate: checking %s out again: %s", b->head, err);
	if (mark_end(b, rc ? "interrupted" : "complete", err, sizeof(err))) {
		app_cli_hooks_say(b->cli, APP_SAY_ERROR, "%s", err);
		if (!rc)
			rc = -EIO;
	}
	stop_restore(&sigs);
	db_close(db);
	return rc;
}

int app_bisect_run_html(const struct app_bisect *b, const char *file, char *err, size_t errlen)
{
	int64_t runs[16];
	struct app_child what = { .cmd = APP_CHILD_REPORT, .runs = runs, .db = b->spec.db_path, .html = file };
	FILE *null;
	int st;

	for (size_t i = 0; i < b->n && what.nruns < 16; i++)
		if (b->c[i].nruns)
			runs[what.nruns++] = b->c[i].runs[b->c[i].nruns - 1];
	if (!what.nruns) {
		snprintf(err, errlen, "no step was measured yet");
		return -ENOENT;
	}
	null = fopen("/dev/null", "w");
	st = app_child_run(b->argv, b->cli->ctx, &what, null ? fileno(null) : -1, CHILD_CANNOT_RUN);
	if (null)
		fclose(null);
	return st;
}

int app_bisect_run_explain(const struct app_bisect *b, struct trend_change *c, char *err, size_t errlen)
{
	const struct app_bisect_cand *g = &b->c[b->st.last_good], *x = &b->c[b->st.first_bad];
	struct db *db = NULL;
	int rc;

	if ((rc = db_open(b->spec.db_path, false, &db, err, errlen)))
		return rc;
	rc = app_trend_explain(db, g->runs, g->nruns, x->runs, x->nruns, c, err, errlen);
	db_close(db);
	return rc;
}

void app_bisect_run_free(struct app_bisect *b)
{
	for (size_t i = 0; b->c && i < b->n; i++) {
		free(b->c[i].v);
		free(b->c[i].m);
	}
	free(b->c);
	free(b->marks);
	free(b->measure_buf);
	b->c = NULL;
	b->marks = NULL;
	b->measure_buf = NULL;
}
