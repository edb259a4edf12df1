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

	s->h->measuring(s->ctx, size, false);
	rc = app_ceiling_placement(&s->cfg->base, size, &s->cfg->base.trial_id, s->stop, out, err, errlen);
	s->h->measuring(s->ctx, size, true);
	return rc;
}

/* Each row's maximum load, the planned time said before and Ctrl-C
 * caught meanwhile. Through the lab, the tester's ceiling is measured in
 * the placement of the search's own trials: a back-to-back one can be
 * ten times what the generator offers through the DUT. */
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
	s->h->planned(s->ctx, &s->est);
	s->stop = s->cli->stop(s->cli->ctx, true);
	rc = app_rfc2544_plan_max_loads(s->po, &s->cfg->base, &h, s->plan, err, errlen);
	s->stop = s->cli->stop(s->cli->ctx, false);
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

/* Each trial to the printing hooks once the engine's hooks set up
 * before (the store's) have it. */
struct search_hooks {
	int (*on_trial)(void *ctx, const struct rfc2544_trial *t, char *err, size_t errlen);
	int (*on_row)(void *ctx, const struct rfc2544_row *row, char *err, size_t errlen);
	void *ctx;
	const struct app_rfc2544_setup *s;
};

static int search_trial(void *ctx, const struct rfc2544_trial *t, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;
	int rc;

	if (h->on_trial && (rc = h->on_trial(h->ctx, t, err, errlen)))
		return rc;
	h->s->h->on_trial(h->s->ctx, t);
	return 0;
}

static int search_row(void *ctx, const struct rfc2544_row *row, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;

	return h->on_row ? h->on_row(h->ctx, row, err, errlen) : 0;
}

int app_rfc2544_run_search(struct app_rfc2544_setup *s, struct rfc2544_result *res, char *err, size_t errlen)
{
	struct rfc2544_cfg *cfg = s->cfg;
	struct search_hooks h = { .on_trial = cfg->on_trial, .on_row = cfg->on_row, .ctx = cfg->hook_ctx, .s = s };
	int rc;

	cfg->on_trial = search_trial;
	cfg->on_row = search_row;
	cfg->hook_ctx = &h;
	rc = rfc2544_run(cfg, res, s->stop, s->h->progress, s->ctx, err, errlen);
	/* h is gone with this call: the hooks as they were */
	cfg->on_trial = h.on_trial;
	cfg->on_row = h.on_row;
	cfg->hook_ctx = h.ctx;
	return rc;
}

/* The run up to its search: 0, or -errno after the error is said (not
 * for no memory). */
static int set_up(struct app_rfc2544_job *j)
{
	struct app_rfc2544_setup *s = &j->s;
	char err[1024];

	j->fail = APP_RFC2544_FAIL_PREPARE;
	if ((j->rc = app_rfc2544_run_prepare(s->po, s->to, err, sizeof(err)))) {
		s->cli->say(s->cli->ctx, APP_SAY_ERROR, err);
		return j->rc;
	}
	if (!(s->cfg = calloc(1, sizeof(*s->cfg))))
		return j->rc = -ENOMEM;
	j->fail = APP_RFC2544_FAIL_SETUP;
	if ((j->rc = app_rfc2544_run_set_up(s, err, sizeof(err))))
		s->cli->say(s->cli->ctx, APP_SAY_ERROR, err);
	else
		j->fail = APP_RFC2544_FAIL_NONE;
	return j->rc;
}

/* The search under Ctrl-C, then the last rows and the row's end stored
 * and the result printed; a failed search said, its row marked failed. */
static void search(struct app_rfc2544_job *j, struct rfc2544_result *res)
{
	struct app_rfc2544_setup *s = &j->s;
	const struct app_cli_hooks *cli = s->cli;
	char headline[512], err[512];
	int rc;

	s->h->searching(s->ctx, &s->est);
	s->stop = cli->stop(cli->ctx, true);
	rc = app_rfc2544_run_search(s, res, err, sizeof(err));
	s->stop = cli->stop(cli->ctx, false);
	s->h->quiet(s->ctx);
	if (rc) {
		j->fail = APP_RFC2544_FAIL_SEARCH;
		j->rc = rc;
		cli->say(cli->ctx, APP_SAY_ERROR, err);
		app_run_store_end_say(s->so, "failed", NULL, cli);
		return;
	}
	if (app_run_store_rfc2544_finish(s->so, res, headline, sizeof(headline), err, sizeof(err)))
		app_cli_hooks_say(cli, APP_SAY_WARNING, "storing the last rows in %s: %s", s->so->ses.path, err);
	app_run_store_end_say(s->so, res->interrupted ? "interrupted" : "complete", headline, cli);
	s->h->end(s->ctx, s, res);
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
	j->s.cli->stop(j->s.cli->ctx, false);
	app_run_store_end_say(j->s.so, "failed", NULL, j->s.cli);
	free(j->s.cfg);
	j->s.cfg = NULL;
	free(res);
	app_run_store_release(j->s.so);
	app_trial_plan_release(j->s.to);
	return j->rc;
}
