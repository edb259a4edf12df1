#include "app/rfc2544_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/trial_dut.h"
#include "app/trial_plan.h"
#include "core/errmsg.h"
#include "store/calib.h"

int app_rfc2544_run_prepare(const struct app_rfc2544_opts *po, struct trial_setup *to, char *err, size_t errlen)
{
	int rc;

	if ((rc = app_trial_plan_resolve(to, err, errlen)) || (rc = app_trial_dut_open(to, err, errlen)))
		return rc;
	if (app_rfc2544_plan_check_sizes(po, &to->plan.cfg, err, errlen) || app_rfc2544_plan_check_mtu(po, &to->plan.cfg, err, errlen))
		return -EINVAL;
	return 0;
}

/* app_rfc2544_host.placed: a short measurement through the lab's DUT. */
static int placed_ceiling(void *ctx, unsigned int size, struct app_ceiling *out, char *err, size_t errlen)
{
	struct app_rfc2544_setup *s = ctx;
	int rc;

	if (s->measuring)
		s->measuring(s->ctx, size, false);
	rc = app_ceiling_placement(&s->cfg->base, size, &s->cfg->base.trial_id, s->stop, out, err, errlen);
	if (s->measuring)
		s->measuring(s->ctx, size, true);
	return rc;
}

/* Each row's maximum load. Through the lab, the tester's ceiling is
 * measured in the placement of the search's own trials: a back-to-back
 * one can be ten times what the generator offers through the DUT. */
static int max_loads(struct app_rfc2544_setup *s, char *err, size_t errlen)
{
	char key[sizeof(((struct calib_entry *)0)->port_type)];
	const struct trial_setup *to = s->to;
	struct app_rfc2544_host h = { .line_bps = to->plan.line_bps, .calib_path = to->plan.calib_path, .calib_key = key,
				    .lab = to->plan.lab, .prefix = to->plan.prefix };
	int rc;

	app_trial_plan_calib_key(to, key, sizeof(key));
	if (to->plan.lab && !to->plan.direct) {
		h.placed = placed_ceiling;
		h.ctx = s;
	}
	app_rfc2544_plan_estimate(s->po, s->plan, &s->cfg->base, h.placed != NULL, &s->est);
	if (s->loads_begin)
		s->loads_begin(s->ctx, &s->est);
	rc = app_rfc2544_plan_max_loads(s->po, &s->cfg->base, &h, s->plan, err, errlen);
	if (s->loads_end)
		s->loads_end(s->ctx);
	return rc;
}

int app_rfc2544_run_set_up(struct app_rfc2544_setup *s, char *err, size_t errlen)
{
	char e[512];
	int rc;

	s->cfg->base = s->to->plan.cfg;
	if ((rc = app_trial_dut_watch(s->to, s->cfg, err, errlen)) || (rc = app_run_store_open(s->so, err, errlen)) ||
	    (rc = max_loads(s, err, errlen)))
		return rc;
	app_rfc2544_plan_deviations(s->po, &s->to->plan.cfg, s->to->plan.line_bps, s->plan);
	app_rfc2544_plan_fill(s->po, s->plan, s->cfg);
	if ((rc = app_run_store_rfc2544_begin(s->so, s->to, s->po, s->plan, s->cfg, e, sizeof(e)))) {
		snprintf(err, errlen, "%s: %s", s->so->ses.path, e);
		return errmsg_host(rc);
	}
	return 0;
}

/* --json-stream: each trial to the caller once the hooks set up before
 * (the store's) have it. */
struct search_hooks {
	int (*on_trial)(void *ctx, const struct rfc2544_trial *t, char *err, size_t errlen);
	int (*on_row)(void *ctx, const struct rfc2544_row *row, char *err, size_t errlen);
	void *ctx;
	struct app_rfc2544_run_search *x;
};

static int search_trial(void *ctx, const struct rfc2544_trial *t, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;
	int rc;

	if (h->on_trial && (rc = h->on_trial(h->ctx, t, err, errlen)))
		return rc;
	h->x->on_trial(h->x->ctx, t);
	return 0;
}

static int search_row(void *ctx, const struct rfc2544_row *row, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;

	return h->on_row ? h->on_row(h->ctx, row, err, errlen) : 0;
}

int app_rfc2544_run_search(struct app_rfc2544_setup *s, struct app_rfc2544_run_search *x, struct rfc2544_result *res, char *err,
		     size_t errlen)
{
	struct rfc2544_cfg *cfg = s->cfg;
	struct search_hooks h = { .on_trial = cfg->on_trial, .on_row = cfg->on_row, .ctx = cfg->hook_ctx, .x = x };
	int rc;

	if (x->on_trial) {
		cfg->on_trial = search_trial;
		cfg->on_row = search_row;
		cfg->hook_ctx = &h;
	}
	rc = rfc2544_run(cfg, res, x->stop, x->progress, x->progress_ctx, err, errlen);
	/* h is gone with this call: the hooks as they were */
	cfg->on_trial = h.on_trial;
	cfg->on_row = h.on_row;
	cfg->hook_ctx = h.ctx;
	return rc;
}

/* app_rfc2544_setup's hooks, through the job's: the planned time said and
 * Ctrl-C caught before the maximum loads, let go after. */
static void loads_begin(void *ctx, const struct app_rfc2544_plan_estimate *est)
{
	struct app_rfc2544_job *j = ctx;

	j->h->planned(j->h->print_ctx, est);
	j->s.stop = j->h->stop(j->h->ctx, true);
}

static void loads_end(void *ctx)
{
	struct app_rfc2544_job *j = ctx;

	j->h->stop(j->h->ctx, false);
}

static void measuring(void *ctx, unsigned int size, bool done)
{
	struct app_rfc2544_job *j = ctx;

	j->h->measuring(j->h->print_ctx, size, done);
}

/* A file the end did not write (its warn), to the CLI. */
static void say_warning(void *ctx, const char *line)
{
	struct app_rfc2544_job *j = ctx;

	j->h->say(j->h->ctx, true, line);
}

/* The run up to its search: 0, or -errno after the error is said (not
 * for no memory). */
static int set_up(struct app_rfc2544_job *j)
{
	struct app_rfc2544_setup *s = &j->s;
	char err[1024];

	j->fail = APP_RFC2544_FAIL_PREPARE;
	if ((j->rc = app_rfc2544_run_prepare(s->po, s->to, err, sizeof(err)))) {
		j->h->say(j->h->ctx, false, err);
		return j->rc;
	}
	if (!(s->cfg = calloc(1, sizeof(*s->cfg))))
		return j->rc = -ENOMEM;
	s->loads_begin = loads_begin;
	s->loads_end = loads_end;
	s->measuring = measuring;
	s->ctx = j;
	j->fail = APP_RFC2544_FAIL_SETUP;
	if ((j->rc = app_rfc2544_run_set_up(s, err, sizeof(err))))
		j->h->say(j->h->ctx, false, err);
	else
		j->fail = APP_RFC2544_FAIL_NONE;
	return j->rc;
}

/* The search under Ctrl-C, then the last rows and the row's end stored
 * and the result printed; a failed search said, its row marked failed. */
static void search(struct app_rfc2544_job *j, struct rfc2544_result *res)
{
	const struct app_rfc2544_hooks *h = j->h;
	struct app_rfc2544_run_search x = { .progress = h->progress, .progress_ctx = h->print_ctx, .on_trial = h->on_trial,
				      .ctx = h->print_ctx };
	char headline[512], err[512], line[sizeof(j->s.so->ses.path) + 640];
	int rc;

	h->searching(h->print_ctx, &j->s.est);
	x.stop = h->stop(h->ctx, true);
	rc = app_rfc2544_run_search(&j->s, &x, res, err, sizeof(err));
	h->stop(h->ctx, false);
	h->quiet(h->print_ctx);
	if (rc) {
		j->fail = APP_RFC2544_FAIL_SEARCH;
		j->rc = rc;
		h->say(h->ctx, false, err);
		h->store_end(j->s.so, "failed", NULL);
		return;
	}
	if (app_run_store_rfc2544_finish(j->s.so, res, headline, sizeof(headline), err, sizeof(err))) {
		snprintf(line, sizeof(line), "storing the last rows in %s: %s", j->s.so->ses.path, err);
		h->say(h->ctx, true, line);
	}
	h->store_end(j->s.so, res->interrupted ? "interrupted" : "complete", headline);
	h->end(h->print_ctx, &j->s, res, say_warning, j);
	j->interrupted = res->interrupted;
}

int app_rfc2544_run_go(struct app_rfc2544_job *j)
{
	struct rfc2544_result *res = NULL;

	if (!set_up(j) && !(res = calloc(1, sizeof(*res)))) {
		j->fail = APP_RFC2544_FAIL_PREPARE;
		j->rc = -ENOMEM;
	} else if (res) {
		search(j, res);
	}
	j->h->stop(j->h->ctx, false);
	j->h->store_end(j->s.so, "failed", NULL);
	free(j->s.cfg);
	j->s.cfg = NULL;
	free(res);
	app_run_store_release(j->s.so);
	app_trial_plan_release(j->s.to);
	return j->rc;
}
