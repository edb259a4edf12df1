#include "engine/rfc2544.h"
#include "core/lossattr.h"

#include "core/stat.h"
#include "os/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ctx {
	const struct rfc2544_cfg *cfg;
	struct rfc2544_result *res;
	struct trial_result *tr;
	const volatile sig_atomic_t *stop;
	rfc2544_progress_fn progress;
	void *pctx;
	uint16_t next_id;
	unsigned int row;
	unsigned int rep;		/* repeat of the throughput search in progress */
	unsigned int set;		/* its goal set: 0 the first, k more[k - 1] */
	uint64_t t0;
	uint64_t rows_ns;		/* from t0 to the end of the last finished row */
	/* this search's clean full-length trials' DUT cost, to report the
	 * one at its NDR (a pass above it, at a noisy load, is not that) */
	unsigned int ncost;
	struct { double load, ns; const char *source; } cost[64];
	/* this row's throughput trials, every repeat: the noise floor's input,
	 * and where each one's lost frames went most (its largest place) */
	struct nf_trial *nft;
	struct nf_where *nfw;
	unsigned int nnft;
};

/* A throughput trial's largest place of loss: "dut-ingress ring of dut0". */
struct nf_where {
	char place[LOSSATTR_DETAIL + 16];
	uint64_t frames;
};

#define NF_TRIALS 2048	/* throughput trials kept per row for the noise floor */

static bool stopped(const struct ctx *c)
{
	return c->stop && *c->stop;
}

/* The largest place of a trial's loss over its directions, "" when the
 * trial lost nothing or has no attribution. */
static void nf_where_of(const struct trial_result *tr, struct nf_where *w)
{
	memset(w, 0, sizeof(*w));
	if (!tr->loss_valid)
		return;
	for (unsigned int d = 0; d < tr->ndirs; d++)
		for (unsigned int k = 0; k < tr->loss[d].n; k++) {
			const struct lossattr_entry *e = &tr->loss[d].e[k];

			if (e->frames > w->frames) {
				w->frames = e->frames;
				snprintf(w->place, sizeof(w->place), "%s%s%s", lossattr_place_name(e->place),
					 e->detail[0] ? " " : "", e->detail);
			}
		}
}

/* Sleep in short steps so that a stop is seen promptly. */
static void settle(const struct ctx *c)
{
	uint64_t end = clock_mono_ns() + c->cfg->settle_ns;

	while (!stopped(c) && clock_mono_ns() < end)
		usleep(20000);
}

/* One trial of this row's size at load for duration; fills c->tr. */
static int run(struct ctx *c, char test, double load, uint64_t duration_ns, char *err, size_t errlen)
{
	struct trial_cfg t = c->cfg->base;
	struct rfc2544_row *row = &c->res->row[c->row];
	int rc;

	if (c->cfg->nsizes) {
		t.sizes[0] = row->size;
		t.nsizes = 1;
	}
	t.rate_pps = load;
	t.duration_ns = duration_ns;
	t.trial_id = c->next_id;
	c->next_id = (uint16_t)((c->next_id + 1) & 0x7fff);
	if (!c->next_id)
		c->next_id = 1;
	if (c->res->trials_run)
		settle(c);
	if (stopped(c)) {
		c->res->interrupted = true;
		return -EINTR;
	}
	struct cpucost *cost = NULL;

	if (c->cfg->dut && cpuset_count(&c->cfg->watch) && !c->cfg->runner &&
	    (rc = cpucost_create(c->cfg->dut, &c->cfg->watch, c->cfg->soak, c->cfg->soak_path, &cost, err, errlen)))
		return rc;
	if (cost && c->cfg->profile)
		cpucost_profile(cost, c->cfg->profile_hz, c->cfg->profile_top);
	t.cost = cost;
	rc = c->cfg->runner ? c->cfg->runner(c->cfg->runner_ctx, &t, c->tr, c->stop, err, errlen)
			    : trial_run(&t, c->tr, c->stop, NULL, NULL, err, errlen);
	if (rc) {
		cpucost_destroy(cost);
		return rc;
	}
	c->res->trials_run++;
	if (c->tr->interrupted) {
		cpucost_destroy(cost);
		c->res->interrupted = true;
		return -EINTR;
	}
	struct rfc2544_trial rt;
	uint64_t tx = 0, rx = 0, refused = 0;

	/* tx: the frames of the load, sent or refused by the DUT's full
	 * ingress (struct trial_dir_result's dut_refused) */
	for (unsigned int d = 0; d < c->tr->ndirs; d++) {
		tx += c->tr->dir[d].tx + c->tr->dir[d].dut_refused;
		rx += c->tr->dir[d].rx;
		refused += c->tr->dir[d].dut_refused;
	}
	rt = (struct rfc2544_trial){ .size = row->size, .test = test, .load = load,
				   .duration_ns = duration_ns, .elapsed_ns = c->tr->elapsed_ns,
				   .tx = tx, .rx = rx, .dut_refused = refused,
				   .tester_limited = c->tr->tester_limited, .cpu_soak_pct = -1,
				   .repeat = test == 't' || test == 'g' ? c->rep : 0,
				   .goalset = test == 'g' ? c->set : 0,
				   .loss = c->tr->loss_valid ? c->tr->loss : NULL, .nloss = c->tr->ndirs };
	struct lossattr_cpu_hint hint = { .stall_ms = -1 };

	struct cpucost_result cr;

	if (cost) {
		cpucost_result(cost, rx, &cr);
		cpucost_hint(&cr, &hint);
		if (cr.valid) {
			rt.cpu_valid = true;
			rt.cpu_busy_pct = cr.busy_cpu_s / cr.seconds * 100;
			rt.cpu_soak_pct = cr.soak_cpu_s >= 0 ? cr.soak_cpu_s / cr.seconds * 100 : -1;
			rt.soak_trusted = cr.soak_checked ? (cr.soak_trusted ? 1 : -1) : 0;
			rt.ns_per_frame = cr.ns_per_frame;
			rt.cpu_source = cr.source;
			rt.profile = cr.profiled ? &cr.profile : NULL;
			/* The cost at the throughput rate: a full-length clean trial. */
			if (test != 'b' && test != 'g' && rx >= tx && duration_ns == c->cfg->final_ns &&
			    c->ncost < sizeof(c->cost) / sizeof(c->cost[0])) {
				c->cost[c->ncost].load = load;
				c->cost[c->ncost].ns = cr.ns_per_frame;
				c->cost[c->ncost++].source = cr.source;
			}
		}
	}
	cpucost_destroy(cost);
	if (rt.loss) {
		uint64_t sent[TRIAL_MAX_DIRS] = { 0 };

		for (unsigned int d = 0; d < c->tr->ndirs; d++)
			sent[d] = c->tr->dir[d].tx + c->tr->dir[d].dut_refused;
		rt.limit = lossattr_limit(rt.loss, rt.nloss, sent, rt.tester_limited, &hint, rt.limit_text,
					  sizeof(rt.limit_text));
	} else {
		rt.limit = rt.tester_limited ? LIMIT_TESTER : rx < tx ? LIMIT_UNKNOWN : LIMIT_NONE;
	}
	if (c->cfg->on_trial && (rc = c->cfg->on_trial(c->cfg->hook_ctx, &rt, err, errlen)))
		return rc;
	/* kept without the attribution: it is the next trial's buffer */
	rt.loss = NULL;
	rt.nloss = 0;
	if (c->res->ntrials < RFC2544_MAX_TRIALS)
		c->res->trials[c->res->ntrials++] = rt;
	return 0;
}

/* A trial's frames for the search: what was sent and, where the DUT's
 * full ingress held the generator back, what it refused of the load, so
 * that a DUT which pushes back fails the load as one that drops would. */
static void totals(const struct trial_result *tr, uint64_t *tx, uint64_t *rx)
{
	*tx = *rx = 0;
	for (unsigned int d = 0; d < tr->ndirs; d++) {
		*tx += tr->dir[d].tx + tr->dir[d].dut_refused;
		*rx += tr->dir[d].rx;
	}
}

static void report(struct ctx *c, const char *test, unsigned int n, double load,
		   const struct search_outcome *bounds)
{
	struct rfc2544_progress p = { .size = c->res->row[c->row].size, .test = test, .trial = n,
				    .load = load, .bounds = bounds, .eta_s = -1 };
	uint64_t tx, rx;

	if (!c->progress)
		return;
	totals(c->tr, &tx, &rx);
	p.loss_pct = tx ? (double)(tx - (rx < tx ? rx : tx)) * 100.0 / (double)tx : 0;
	if (c->row > 0) {
		/* the finished rows' pace over every row, less the time spent */
		double per_row = (double)c->rows_ns / NSEC_PER_SEC / c->row;

		p.eta_s = per_row * (double)c->res->nrows - (double)(clock_mono_ns() - c->t0) / NSEC_PER_SEC;
		if (p.eta_s < 0)
			p.eta_s = 0;
	}
	c->progress(c->pctx, &p);
}

static int search_once(struct ctx *c, const struct rfc2544_goalset *gs, struct search_outcome *out, char *err,
		       size_t errlen)
{
	struct rfc2544_row *row = &c->res->row[c->row];
	const struct rfc2544_cfg *cfg = c->cfg;
	struct search_cfg sc = {
		.min_load = cfg->min_load, .max_load = row->max_load,
		.precision = INFINITY, .final_ns = gs->final_ns, .initial_ns = gs->initial_ns,
	};
	uint64_t per_load = 1, most = gs->final_ns;
	struct search *s;
	double load;
	uint64_t dur, tx, rx;
	unsigned int n = 0;
	int rc = 0;

	/* every goal reads every trial (core/search.h) */
	for (unsigned int k = 0; k < gs->ngoals && k < SEARCH_GOALS; k++) {
		const struct rfc2544_goal_attr *a = &gs->goal[k];
		double w = a->width > 0 ? a->width : cfg->precision;	/* a goal without one: the run's */

		sc.goals[k] = (struct search_target){ .loss_ratio = a->loss_ratio, .exceed_ratio = a->exceed_ratio,
						      .duration_sum_ns = a->duration_sum_ns, .precision = w * row->max_load };
		sc.precision = fmin(sc.precision, sc.goals[k].precision);
		if (a->duration_sum_ns > most)
			most = a->duration_sum_ns;
		sc.ngoals = k + 1;
	}
	if (!sc.ngoals)		/* none given: the NDR, at the run's width */
		sc.precision = cfg->precision * row->max_load;
	/* 60 trials when one trial decides a load; as many times more as a
	 * load may need trials (each counts), up to 600. */
	if (gs->final_ns && most > gs->final_ns)
		per_load = (most + gs->final_ns - 1) / gs->final_ns;
	sc.max_trials = per_load >= 10 ? 600 : 60 * (unsigned int)per_load;

	if (sc.min_load >= sc.max_load)
		sc.min_load = sc.max_load / 100;
	if (!(s = search_create(&sc, err, errlen)))
		return -EINVAL;
	while (search_next(s, &load, &dur)) {
		if ((rc = run(c, c->set ? 'g' : 't', load, dur, err, errlen)))
			break;
		totals(c->tr, &tx, &rx);
		search_feed(s, load, dur, tx, rx, c->tr->tester_limited);
		/* the noise floor is the first search's, at its durations */
		if (!c->set && c->nft && c->nnft < NF_TRIALS) {
			if (c->nfw)
				nf_where_of(c->tr, &c->nfw[c->nnft]);
			c->nft[c->nnft++] = (struct nf_trial){ .load = load, .duration_ns = dur, .tx = tx, .rx = rx,
							       .limited = c->tr->tester_limited };
		}
		search_outcome(s, out);
		if (!c->set)
			row->thr = *out;
		report(c, c->set ? "goal search" : "throughput", ++n, load, out);
	}
	search_outcome(s, out);
	search_destroy(s);
	return rc;
}

/* Median, min and max of the valid bounds of every repeat; *median_rep is
 * the repeat holding the median (the lower middle for an even count), so
 * the row's figures all come from one real search. */
static unsigned int spread(const struct rfc2544_row *row, bool pdr, double *med, double *lo, double *hi,
			   unsigned int *median_rep)
{
	double v[RFC2544_MAX_REPEATS];
	unsigned int n = 0;

	for (unsigned int i = 0; i < row->nrep; i++) {
		const struct search_bound *b = pdr ? &row->rep[i].pdr : &row->rep[i].ndr;

		if (b->lower_valid)
			v[n++] = b->lower;
	}
	*med = *lo = *hi = 0;
	if (!n)
		return 0;
	*med = stat_median(v, n, lo, hi);
	if (median_rep) {
		double target = v[(n - 1) / 2];

		for (unsigned int i = 0; i < row->nrep; i++)
			if (row->rep[i].ndr.lower_valid && row->rep[i].ndr.lower == target)
				*median_rep = i;
	}
	return n;
}

/* The medians' intervals over the repeats (core/interval), and whether
 * any repeat's figure is a bound. */
static void intervals(struct rfc2544_row *row)
{
	for (int pdr = 0; pdr < 2; pdr++) {
		double v[RFC2544_MAX_REPEATS];
		unsigned int n = 0, nb = 0;

		for (unsigned int i = 0; i < row->nrep; i++) {
			const struct search_bound *b = pdr ? &row->rep[i].pdr : &row->rep[i].ndr;

			if (!b->lower_valid)
				continue;
			v[n++] = b->lower;
			nb += rfc2544_bound_note(row, &row->rep[i], pdr, NULL, 0);
		}
		if (n)
			interval_median(v, n, INTERVAL_GOAL, pdr ? &row->pdr_iv : &row->ndr_iv);
		/* One bound among the repeats makes the median one too: where
		 * its true value lies among the others is not known. */
		if (pdr) {
			row->pdr_bound = nb > 0;
			row->pdr_nbound = nb;
		} else {
			row->ndr_bound = nb > 0;
			row->ndr_nbound = nb;
		}
	}
}

/* The noise floor under the NDR, from every throughput trial of the row:
 * against the median PDR (where loss rises with load) when there is one.
 * When the NDR is limited by it, where those frames went: the place that
 * took most of the sporadic loss, over the lossy trials up to the highest
 * load the floor was seen at. */
static void noise_floor(struct ctx *c, struct rfc2544_row *row)
{
	struct nf_cfg nc = { .ndr = row->ndr_iv.n ? row->ndr_iv.median : 0 };
	uint64_t lost = 0, best = 0;
	unsigned int at = 0;

	if (c->cfg->pdr_ratio > 0 && row->pdr_iv.n)
		nc.ref_load = row->pdr_iv.median;
	if (c->nft)
		noisefloor_detect(c->nft, c->nnft, &nc, &row->nf);
	row->nf_where[0] = 0;
	if (!row->nf.limited || !c->nfw)
		return;
	for (unsigned int i = 0; i < c->nnft; i++) {
		const struct nf_trial *t = &c->nft[i];
		uint64_t sum = 0;

		if (t->limited || t->rx >= t->tx || t->load > row->nf.load_hi)
			continue;
		lost += t->tx - t->rx;
		if (!c->nfw[i].place[0])
			continue;
		/* the frames of every trial whose largest place is this one */
		for (unsigned int j = 0; j < c->nnft; j++)
			if (!c->nft[j].limited && c->nft[j].rx < c->nft[j].tx && c->nft[j].load <= row->nf.load_hi &&
			    !strcmp(c->nfw[j].place, c->nfw[i].place))
				sum += c->nfw[j].frames;
		if (sum > best) {
			best = sum;
			at = i;
		}
	}
	if (best)
		snprintf(row->nf_where, sizeof(row->nf_where), "%s %llu of %llu frames", c->nfw[at].place,
			 (unsigned long long)best, (unsigned long long)lost);
}

/* rfc2544_bound_note for bound b of outcome o. */
static bool bound_note(const struct rfc2544_row *row, const struct search_outcome *o, const struct search_bound *b,
		       char *why, size_t len)
{
	char sz[24];

	if (why && len)
		why[0] = '\0';
	if (!b->lower_valid || b->upper_valid)
		return false;		/* the DUT failed above it, or nothing passed */
	if (row->size)
		snprintf(sz, sizeof(sz), "%u B", row->size);
	else
		snprintf(sz, sizeof(sz), "imix");
	if (b->tester_capped && o->limit_load > 0) {
		if (why)
			snprintf(why, len, "at %s the tester fell short at %.0f frames/s (the generator managed %.0f), "
				 "so nothing at or above that was measured", sz, o->limit_load, o->limit_got);
		return true;
	}
	if (!b->at_max) {
		if (why)
			snprintf(why, len, "no load failed at %s before the search stopped", sz);
		return true;
	}
	switch (row->max_from) {
	case RFC2544_MAX_CEILING:
		if (why)
			snprintf(why, len, "passed at %s at the tester's calibrated ceiling, %.0f frames/s", sz,
				 row->max_load);
		return true;
	case RFC2544_MAX_GIVEN:
		if (why)
			snprintf(why, len, "passed at %s at the --max-load given, %.0f frames/s", sz, row->max_load);
		return true;
	case RFC2544_MAX_LINE:
	default:
		if (why)
			snprintf(why, len, "at line rate");
		return false;
	}
}

bool rfc2544_bound_note(const struct rfc2544_row *row, const struct search_outcome *o, bool pdr,
		      char *why, size_t len)
{
	return bound_note(row, o, pdr ? &o->pdr : &o->ndr, why, len);
}

void rfc2544_goal_result(const struct rfc2544_row *row, const struct search_outcome *o, int slot,
			 const struct search_goal *g, struct rfc2544_goal_result *out)
{
	const struct search_bound *b = slot >= 0 && (unsigned int)slot < o->ngoals ? &o->goal[slot]
				       : g->loss_ratio > 0 ? &o->pdr : &o->ndr;
	char why[sizeof(out->irregular) - 32];

	*out = (struct rfc2544_goal_result){ .rlb = b->lower_valid ? b->lower : NAN,
					   .rub = b->upper_valid ? b->upper : NAN,
					   .cond = b->lower_valid && b->cond_valid ? b->cond_tput : NAN };
	out->at_least = bound_note(row, o, b, why, sizeof(why));
	if (!b->lower_valid && b->upper_valid)
		snprintf(out->irregular, sizeof(out->irregular),
			 "min load failed: no load passed down to %.0f frames/s", b->upper);
	else if (!b->lower_valid)
		snprintf(out->irregular, sizeof(out->irregular), "no bound: no full-length trial was run");
	else if (!b->upper_valid && why[0])
		snprintf(out->irregular, sizeof(out->irregular), "max load reached: %s", why);
	else if (b->noisy)
		snprintf(out->irregular, sizeof(out->irregular),
			 "noisy: %.0f frames/s, at or above the upper bound, passed too", b->noisy_load);
	else if (!o->done)
		snprintf(out->irregular, sizeof(out->irregular), "width not reached: the search hit its trial cap");
}

const struct search_outcome *rfc2544_set_outcome(const struct rfc2544_row *row, unsigned int rep, unsigned int set)
{
	if (rep >= RFC2544_MAX_REPEATS)
		rep = 0;
	return set && set < GOAL_MAX ? &row->more[rep][set - 1] : &row->rep[rep];
}

/* The kept throughput trial of row at load that failed bound pdr's goal
 * (any loss for the NDR), the one that lost the most; NULL: none kept. */
static const struct rfc2544_trial *failed_at(const struct rfc2544_result *res, const struct rfc2544_row *row,
					   double load, bool pdr, double pdr_ratio)
{
	const struct rfc2544_trial *best = NULL;
	double worst = -1;

	for (unsigned int i = 0; i < res->ntrials; i++) {
		const struct rfc2544_trial *t = &res->trials[i];
		double ratio = t->tx ? (double)(t->tx - (t->rx < t->tx ? t->rx : t->tx)) / (double)t->tx : 0;

		if (t->test != 't' || t->size != row->size || fabs(t->load - load) > load * 1e-9 ||
		    t->tester_limited || (pdr ? ratio <= pdr_ratio : ratio <= 0))
			continue;
		if (ratio > worst) {
			worst = ratio;
			best = t;
		}
	}
	return best;
}

void rfc2544_agree(const struct rfc2544_result *res, bool pdr, double pdr_ratio, struct rfc2544_agree *out)
{
	double top_lo = -INFINITY, low_hi = INFINITY;

	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < res->nrows; i++) {
		const struct rfc2544_row *row = &res->row[i];
		const struct search_bound *b = pdr ? &row->thr.pdr : &row->thr.ndr;
		const struct interval *iv = pdr ? &row->pdr_iv : &row->ndr_iv;
		struct rfc2544_agree_size *z = &out->s[out->n];
		char why[64];
		bool open;

		if (!row->thr_done || !b->lower_valid)
			continue;
		open = rfc2544_bound_note(row, &row->thr, pdr, why, sizeof(why));
		if (!open && !strcmp(why, "at line rate")) {
			out->nline++;
			continue;
		}
		z->row = i;
		if (row->nrep > 1 && iv->n) {
			/* the interval of the searches' lower bounds, widened
			 * by a search's width above, as report does */
			z->figure = iv->median;
			z->lo = iv->lo;
			z->hi = iv->hi + (b->upper_valid ? b->upper - b->lower : 0);
			open = open || (pdr ? row->pdr_bound : row->ndr_bound);
		} else {
			z->figure = b->lower;
			z->lo = b->lower;
			z->hi = b->upper_valid ? b->upper : INFINITY;
		}
		if (open)
			z->hi = INFINITY;
		z->by = LIMIT_UNKNOWN;
		z->why = "";
		if (z->lo > top_lo)
			top_lo = z->lo;
		if (z->hi < low_hi)
			low_hi = z->hi;
		out->n++;
	}
	if (out->n < 2)
		return;
	out->agree = top_lo <= low_hi;
	out->lo = out->agree ? top_lo : low_hi;
	out->hi = out->agree ? low_hi : top_lo;
	if (out->agree)
		return;
	out->explained = true;
	for (unsigned int k = 0; k < out->n; k++) {
		struct rfc2544_agree_size *z = &out->s[k];
		const struct rfc2544_row *row = &res->row[z->row];
		const struct search_bound *b = pdr ? &row->thr.pdr : &row->thr.ndr;
		const struct rfc2544_trial *t;

		if (!(z->hi < top_lo))
			continue;
		z->below = true;
		t = b->upper_valid ? failed_at(res, row, b->upper, pdr, pdr_ratio) : NULL;
		if (t) {
			z->fail_load = t->load;
			z->by = t->limit;
			z->why = t->limit_text;
		}
		if (z->by == LIMIT_UNKNOWN || z->by == LIMIT_NONE || !z->why[0])
			out->explained = false;
	}
}

/* The DUT's cost at a search's NDR: its clean full-length trial at the
 * highest load not above the NDR's lower bound. */
static void ndr_cost(struct ctx *c, struct rfc2544_row *row, const struct search_outcome *o)
{
	double lim = o->ndr.lower_valid ? o->ndr.lower * (1 + 1e-9) : -1;

	for (unsigned int i = 0; i < c->ncost; i++) {
		if (c->cost[i].load > lim || c->cost[i].load < row->ndr_cost_load)
			continue;
		row->ns_per_frame_ndr = c->cost[i].ns;
		row->ndr_cost_load = c->cost[i].load;
		row->cpu_source = c->cost[i].source;
	}
}

static int do_throughput(struct ctx *c, char *err, size_t errlen)
{
	struct rfc2544_row *row = &c->res->row[c->row];
	unsigned int reps = c->cfg->repeats ? c->cfg->repeats : 1, mid = 0;
	double cost_load[RFC2544_MAX_REPEATS] = { 0 };
	struct rfc2544_goalset first = {
		.final_ns = c->cfg->final_ns, .initial_ns = c->cfg->initial_ns,
		.goal[0] = { .exceed_ratio = c->cfg->exceed_ratio, .width = c->cfg->precision,
			     .duration_sum_ns = c->cfg->duration_sum_ns },
		.ngoals = 1,
	};
	int rc = 0;

	/* the NDR, the PDR, and the first search's further goals */
	if (c->cfg->pdr_ratio > 0) {
		first.goal[1] = first.goal[0];
		first.goal[1].loss_ratio = c->cfg->pdr_ratio;
		first.ngoals = 2;
	}
	for (unsigned int k = 0; k < c->cfg->nalso && first.ngoals < GOAL_MAX; k++)
		first.goal[first.ngoals++] = c->cfg->also[k];

	if (reps > RFC2544_MAX_REPEATS)
		reps = RFC2544_MAX_REPEATS;
	for (c->rep = 0; c->rep < reps; c->rep++) {
		/* The cost is of this repeat's NDR, not the best load of any. */
		row->ns_per_frame_ndr = row->ndr_cost_load = 0;
		c->ncost = 0;
		if ((rc = search_once(c, &first, &row->rep[c->rep], err, errlen)))
			break;
		ndr_cost(c, row, &row->rep[c->rep]);
		row->rep_ns_per_frame[c->rep] = row->ns_per_frame_ndr;
		cost_load[c->rep] = row->ndr_cost_load;
		for (c->set = 1; !rc && c->set <= c->cfg->nmore && c->set < GOAL_MAX; c->set++)
			rc = search_once(c, &c->cfg->more[c->set - 1], &row->more[c->rep][c->set - 1], err, errlen);
		c->set = 0;
		if (rc)
			break;
		row->nrep++;
	}
	c->rep = 0;
	row->ndr_valid = spread(row, false, &row->ndr_med, &row->ndr_min, &row->ndr_max, &mid);
	spread(row, true, &row->pdr_med, &row->pdr_min, &row->pdr_max, NULL);
	if (row->nrep) {
		row->thr = row->rep[mid];
		row->ns_per_frame_ndr = row->rep_ns_per_frame[mid];
		row->ndr_cost_load = cost_load[mid];
	}
	intervals(row);
	noise_floor(c, row);
	row->thr_done = !rc;
	return rc;
}

/* RFC 2544 26.2 and RFC 8219: the distribution over every tagged frame of
 * every run at the throughput rate, so a rare slow frame in one run is not
 * averaged away. */
static int do_latency(struct ctx *c, char *err, size_t errlen)
{
	struct rfc2544_row *row = &c->res->row[c->row];
	struct hist *all;
	int rc = 0;

	if (!row->thr.ndr.lower_valid || row->thr.ndr.lower <= 0)
		return 0;	/* no throughput rate to measure at */
	if (!(all = malloc(sizeof(*all)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_reset(all);
	row->lat_load = row->thr.ndr.lower;
	for (unsigned int i = 0; i < c->cfg->latency_runs; i++) {
		if ((rc = run(c, 'l', row->lat_load, c->cfg->latency_ns, err, errlen)))
			break;
		for (unsigned int d = 0; d < c->tr->ndirs; d++)
			hist_merge(all, &c->tr->dir[d].latency);
		row->lat_runs++;
		report(c, "latency", i + 1, row->lat_load, NULL);
	}
	if (all->count) {
		row->lat_frames = all->count;
		row->lat_min = hist_min(all);
		row->lat_median = hist_quantile(all, 0.5);
		row->lat_p99 = hist_quantile(all, 0.99);
		row->lat_p999 = hist_quantile(all, 0.999);
		row->lat_max = hist_max(all);
		row->lat_pdv = row->lat_p999 > row->lat_min ? row->lat_p999 - row->lat_min : 0;
		row->lat_done = !rc;
	}
	free(all);
	return rc;
}

/* RFC 2544 26.3: from 100% down in steps of 10% until two successive
 * trials lose nothing. */
static int do_loss(struct ctx *c, char *err, size_t errlen)
{
	struct rfc2544_row *row = &c->res->row[c->row];
	unsigned int clean = 0;
	int rc = 0;

	for (int pct = 100; pct >= 10 && clean < 2 && row->nloss < RFC2544_MAX_STEPS; pct -= 10) {
		struct rfc2544_loss_step *st = &row->loss[row->nloss];
		double load = row->max_load * pct / 100.0;

		if (load < c->cfg->min_load)
			break;
		if ((rc = run(c, 'f', load, c->cfg->final_ns, err, errlen)))
			break;
		st->pct = pct;
		st->load = load;
		totals(c->tr, &st->tx, &st->rx);
		st->loss_pct = st->tx ? (double)(st->tx - (st->rx < st->tx ? st->rx : st->tx)) * 100.0 / (double)st->tx : 0;
		st->tester_limited = c->tr->tester_limited;
		row->nloss++;
		clean = st->rx >= st->tx && !st->tester_limited ? clean + 1 : 0;
		report(c, "frame loss", row->nloss, load, NULL);
	}
	row->loss_done = !rc;
	return rc;
}

/* RFC 2544 26.4 with RFC 9004: the longest burst at the maximum rate that
 * loses nothing, found by bisection on the burst length, several times. */
static int do_b2b(struct ctx *c, char *err, size_t errlen)
{
	struct rfc2544_row *row = &c->res->row[c->row];
	const double rate = row->max_load;
	uint64_t top = (uint64_t)(rate * (double)c->cfg->b2b_max_ns / NSEC_PER_SEC);
	double sum = 0;
	int rc = 0;

	if (top < 2)
		return 0;
	row->b2b_min = 1e300;
	for (unsigned int r = 0; r < c->cfg->b2b_runs && !rc; r++) {
		uint64_t lo = 0, hi = top + 1, tx, rx, burst = top;
		unsigned int n = 0;

		/* lo passed (0: none yet), hi failed; start at the longest. */
		while (hi - lo > 1 && hi - lo > lo / 200 && n < 24) {
			uint64_t dur = (uint64_t)ceil((double)burst * NSEC_PER_SEC / rate);

			if ((rc = run(c, 'b', rate, dur, err, errlen)))
				break;
			totals(c->tr, &tx, &rx);
			if (rx >= tx && !c->tr->tester_limited)
				lo = burst;
			else
				hi = burst;
			burst = lo + (hi - lo) / 2;
			report(c, "back-to-back", ++n, rate, NULL);
		}
		if (rc)
			break;
		sum += (double)lo;
		row->b2b_min = fmin(row->b2b_min, (double)lo);
		row->b2b_max = fmax(row->b2b_max, (double)lo);
		row->b2b_runs++;
	}
	if (row->b2b_runs) {
		row->b2b_avg = sum / row->b2b_runs;
		row->b2b_implied_s = row->b2b_avg / rate;
		/* RFC 9004: frames the DUT forwarded during the burst were never
		 * buffered; take them out at the measured throughput. */
		if (row->thr.ndr.lower_valid && row->thr.ndr.lower > 0)
			row->b2b_corrected_s = row->b2b_implied_s -
					       row->b2b_implied_s * row->thr.ndr.lower / rate;
		row->b2b_done = !rc;
	} else {
		row->b2b_min = 0;
	}
	return rc;
}

int rfc2544_run(const struct rfc2544_cfg *cfg, struct rfc2544_result *res,
	      const volatile sig_atomic_t *stop, rfc2544_progress_fn progress,
	      void *pctx, char *err, size_t errlen)
{
	struct ctx c = { .cfg = cfg, .res = res, .stop = stop, .progress = progress, .pctx = pctx };
	int rc = 0;

	memset(res, 0, sizeof(*res));
	c.tr = calloc(1, sizeof(*c.tr));
	if (!c.tr) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c.next_id = (uint16_t)((cfg->base.trial_id ? cfg->base.trial_id : 1) & 0x7fff);
	res->nrows = cfg->nsizes ? cfg->nsizes : 1;
	for (unsigned int i = 0; i < res->nrows; i++) {
		res->row[i].size = cfg->nsizes ? cfg->sizes[i] : 0;
		res->row[i].max_load = cfg->max_load[i];
		res->row[i].max_is_ceiling = cfg->max_is_ceiling[i];
		res->row[i].max_from = cfg->max_from[i];
	}
	c.t0 = clock_mono_ns();
	c.nft = calloc(NF_TRIALS, sizeof(*c.nft));	/* without it, no noise floor: not an error */
	c.nfw = calloc(NF_TRIALS, sizeof(*c.nfw));	/* without it, no place for it */
	for (c.row = 0; c.row < res->nrows && !rc; c.row++) {
		c.nnft = 0;
		/* Latency and back-to-back need the throughput rate. */
		if (cfg->tests & (RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_B2B))
			rc = do_throughput(&c, err, errlen);
		if (!rc && (cfg->tests & RFC2544_LATENCY))
			rc = do_latency(&c, err, errlen);
		if (!rc && (cfg->tests & RFC2544_LOSS))
			rc = do_loss(&c, err, errlen);
		if (!rc && (cfg->tests & RFC2544_B2B))
			rc = do_b2b(&c, err, errlen);
		if (!rc && cfg->on_row)
			rc = cfg->on_row(cfg->hook_ctx, &res->row[c.row], err, errlen);
		c.rows_ns = clock_mono_ns() - c.t0;
	}
	res->elapsed_ns = clock_mono_ns() - c.t0;
	if (cfg->tests & (RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_B2B)) {
		rfc2544_agree(res, false, cfg->pdr_ratio, &res->agree[0]);
		rfc2544_agree(res, true, cfg->pdr_ratio, &res->agree[1]);
	}
	free(c.nft);
	free(c.nfw);
	free(c.tr);
	if (rc == -EINTR) {
		res->interrupted = true;
		return 0;
	}
	return rc;
}
