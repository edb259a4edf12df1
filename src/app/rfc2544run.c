#include "app/rfc2544run.h"

#include <errno.h>
#include <stdio.h>

#include "app/trialdut.h"
#include "app/trialres.h"
#include "core/errmsg.h"
#include "store/calib.h"

int app_r2544_prepare(const struct app_r2544_opts *po, struct trialopt *to, char *err, size_t errlen)
{
	int rc;

	if ((rc = app_trial_resolve(to, err, errlen)) || (rc = app_trial_dut_open(to, err, errlen)))
		return rc;
	if (app_r2544_check_sizes(po, &to->cfg, err, errlen) || app_r2544_check_mtu(po, &to->cfg, err, errlen))
		return -EINVAL;
	return 0;
}

/* app_r2544_host.placed: a short measurement through the lab's DUT. */
static int placed_ceiling(void *ctx, unsigned int size, struct app_ceiling *out, char *err, size_t errlen)
{
	struct app_r2544_setup *s = ctx;
	int rc;

	if (s->measuring)
		s->measuring(s->ctx, size, false);
	rc = app_placement_ceiling(&s->cfg->base, size, &s->cfg->base.trial_id, s->stop, out, err, errlen);
	if (s->measuring)
		s->measuring(s->ctx, size, true);
	return rc;
}

/* Each row's maximum load. Through the lab, the tester's ceiling is
 * measured in the placement of the search's own trials: a back-to-back
 * one can be ten times what the generator offers through the DUT. */
static int max_loads(struct app_r2544_setup *s, char *err, size_t errlen)
{
	char key[sizeof(((struct calib_entry *)0)->port_type)];
	const struct trialopt *to = s->to;
	struct app_r2544_host h = { .line_bps = to->line_bps, .calib_path = to->calib_path, .calib_key = key,
				    .lab = to->lab, .prefix = to->prefix };
	int rc;

	app_trial_calib_key(to, key, sizeof(key));
	if (to->lab && !to->direct) {
		h.placed = placed_ceiling;
		h.ctx = s;
	}
	app_r2544_estimate(s->po, s->plan, &s->cfg->base, h.placed != NULL, &s->est);
	if (s->loads_begin)
		s->loads_begin(s->ctx, &s->est);
	rc = app_r2544_max_loads(s->po, &s->cfg->base, &h, s->plan, err, errlen);
	if (s->loads_end)
		s->loads_end(s->ctx);
	return rc;
}

int app_r2544_set_up(struct app_r2544_setup *s, char *err, size_t errlen)
{
	char e[512];
	int rc;

	s->cfg->base = s->to->cfg;
	if ((rc = app_r2544_watch(s->to, s->cfg, err, errlen)) || (rc = app_store_open(s->so, err, errlen)) ||
	    (rc = max_loads(s, err, errlen)))
		return rc;
	app_r2544_deviations(s->po, &s->to->cfg, s->to->line_bps, s->plan);
	app_r2544_fill(s->po, s->plan, s->cfg);
	if ((rc = app_store_r2544_begin(s->so, s->to, s->po, s->plan, s->cfg, e, sizeof(e)))) {
		snprintf(err, errlen, "%s: %s", s->so->path, e);
		return errmsg_host(rc);
	}
	return 0;
}

/* --json-stream: each trial to the caller once the hooks set up before
 * (the store's) have it. */
struct search_hooks {
	int (*on_trial)(void *ctx, const struct r2544_trial *t, char *err, size_t errlen);
	int (*on_row)(void *ctx, const struct r2544_row *row, char *err, size_t errlen);
	void *ctx;
	struct app_r2544_search *x;
};

static int search_trial(void *ctx, const struct r2544_trial *t, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;
	int rc;

	if (h->on_trial && (rc = h->on_trial(h->ctx, t, err, errlen)))
		return rc;
	h->x->on_trial(h->x->ctx, t);
	return 0;
}

static int search_row(void *ctx, const struct r2544_row *row, char *err, size_t errlen)
{
	struct search_hooks *h = ctx;

	return h->on_row ? h->on_row(h->ctx, row, err, errlen) : 0;
}

int app_r2544_search(struct app_r2544_setup *s, struct app_r2544_search *x, struct r2544_result *res, char *err,
		     size_t errlen)
{
	struct r2544_cfg *cfg = s->cfg;
	struct search_hooks h = { .on_trial = cfg->on_trial, .on_row = cfg->on_row, .ctx = cfg->hook_ctx, .x = x };
	int rc;

	if (x->on_trial) {
		cfg->on_trial = search_trial;
		cfg->on_row = search_row;
		cfg->hook_ctx = &h;
	}
	rc = r2544_run(cfg, res, x->stop, x->progress, x->progress_ctx, err, errlen);
	/* h is gone with this call: the hooks as they were */
	cfg->on_trial = h.on_trial;
	cfg->on_row = h.on_row;
	cfg->hook_ctx = h.ctx;
	return rc;
}
