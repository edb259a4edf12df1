#include "engine/rfc2544.h"

#include "core/cpustat.h"
#include "os/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct ctx {
	const struct r2544_cfg *cfg;
	struct r2544_result *res;
	struct trial_result *tr;
	const volatile sig_atomic_t *stop;
	r2544_progress_fn progress;
	void *pctx;
	uint16_t next_id;
	unsigned int row;
	unsigned int rep;		/* repeat of the throughput search in progress */
	uint64_t t0;
	/* this search's clean full-length trials' DUT cost, to report the
	 * one at its NDR (a pass above it, at a noisy load, is not that) */
	unsigned int ncost;
	struct { double load, ns; const char *source; } cost[64];
};

static bool stopped(const struct ctx *c)
{
	return c->stop && *c->stop;
}

/* Sleep in short steps so that a stop is seen promptly. */
static void settle(const struct ctx *c)
{
	uint64_t end = mono_ns() + c->cfg->settle_ns;

	while (!stopped(c) && mono_ns() < end)
		usleep(20000);
}

/* One trial of this row's size at load for duration; fills c->tr. */
static int run(struct ctx *c, char test, double load, uint64_t duration_ns, char *err, size_t errlen)
{
	struct trial_cfg t = c->cfg->base;
	struct r2544_row *row = &c->res->row[c->row];
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

	if (cpuset_count(&c->cfg->watch) && !c->cfg->runner &&
	    (rc = cpucost_create(&c->cfg->watch, c->cfg->calib, &cost, err, errlen)))
		return rc;
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
	struct r2544_trial rt;
	uint64_t tx = 0, rx = 0;

	for (unsigned int d = 0; d < c->tr->ndirs; d++) {
		tx += c->tr->dir[d].tx;
		rx += c->tr->dir[d].rx;
	}
	rt = (struct r2544_trial){ .size = row->size, .test = test, .load = load,
				   .duration_ns = duration_ns, .tx = tx, .rx = rx,
				   .tester_limited = c->tr->tester_limited, .cpu_soak_pct = -1,
				   .repeat = test == 't' ? c->rep : 0 };
	if (cost) {
		struct cpucost_result cr;

		cpucost_result(cost, rx, &cr);
		if (cr.valid) {
			rt.cpu_valid = true;
			rt.cpu_busy_pct = cr.busy_cpu_s / cr.seconds * 100;
			rt.cpu_soak_pct = cr.soak_cpu_s >= 0 ? cr.soak_cpu_s / cr.seconds * 100 : -1;
			rt.ns_per_frame = cr.ns_per_frame;
			rt.cpu_source = cr.source;
			/* The cost at the throughput rate: a full-length clean trial. */
			if (test != 'b' && rx >= tx && duration_ns == c->cfg->final_ns &&
			    c->ncost < sizeof(c->cost) / sizeof(c->cost[0])) {
				c->cost[c->ncost].load = load;
				c->cost[c->ncost].ns = cr.ns_per_frame;
				c->cost[c->ncost++].source = cr.source;
			}
		}
	}
	cpucost_destroy(cost);
	if (c->res->ntrials < R2544_MAX_TRIALS)
		c->res->trials[c->res->ntrials++] = rt;
	if (c->cfg->on_trial && (rc = c->cfg->on_trial(c->cfg->hook_ctx, &rt, err, errlen)))
		return rc;
	return 0;
}

static void totals(const struct trial_result *tr, uint64_t *tx, uint64_t *rx)
{
	*tx = *rx = 0;
	for (unsigned int d = 0; d < tr->ndirs; d++) {
		*tx += tr->dir[d].tx;
		*rx += tr->dir[d].rx;
	}
}

static void report(struct ctx *c, const char *test, unsigned int n, double load,
		   const struct search_outcome *bounds)
{
	struct r2544_progress p = { .size = c->res->row[c->row].size, .test = test, .trial = n,
				    .load = load, .bounds = bounds, .eta_s = -1 };
	uint64_t tx, rx;

	if (!c->progress)
		return;
	totals(c->tr, &tx, &rx);
	p.loss_pct = tx ? (double)(tx - (rx < tx ? rx : tx)) * 100.0 / (double)tx : 0;
	if (c->row > 0) {
		double per_row = (double)(mono_ns() - c->t0) / NSEC_PER_SEC / c->row;

		p.eta_s = per_row * (double)(c->res->nrows - c->row);
	}
	c->progress(c->pctx, &p);
}

static int search_once(struct ctx *c, struct search_outcome *out, char *err, size_t errlen)
{
	struct r2544_row *row = &c->res->row[c->row];
	const struct r2544_cfg *cfg = c->cfg;
	struct search_cfg sc = {
		.min_load = cfg->min_load, .max_load = row->max_load,
		.precision = cfg->precision * row->max_load, .pdr_ratio = cfg->pdr_ratio,
		.final_ns = cfg->final_ns, .initial_ns = cfg->initial_ns,
		.exceed_ratio = cfg->exceed_ratio, .duration_sum_ns = cfg->duration_sum_ns,
	};
	uint64_t per_load = 1;
	struct search *s;
	double load;
	uint64_t dur, tx, rx;
	unsigned int n = 0;
	int rc = 0;

	/* 60 trials when one trial decides a load; as many times more as a
	 * load may need trials (each counts), up to 600. */
	if (cfg->final_ns && cfg->duration_sum_ns > cfg->final_ns)
		per_load = (cfg->duration_sum_ns + cfg->final_ns - 1) / cfg->final_ns;
	sc.max_trials = per_load >= 10 ? 600 : 60 * (unsigned int)per_load;

	if (sc.min_load >= sc.max_load)
		sc.min_load = sc.max_load / 100;
	if (!(s = search_create(&sc, err, errlen)))
		return -EINVAL;
	while (search_next(s, &load, &dur)) {
		if ((rc = run(c, 't', load, dur, err, errlen)))
			break;
		totals(c->tr, &tx, &rx);
		search_feed(s, load, dur, tx, rx, c->tr->tester_limited);
		search_outcome(s, out);
		row->thr = *out;
		report(c, "throughput", ++n, load, out);
	}
	search_outcome(s, out);
	search_destroy(s);
	return rc;
}

/* Median, min and max of the valid bounds of every repeat; *median_rep is
 * the repeat holding the median (the lower middle for an even count), so
 * the row's figures all come from one real search. */
static unsigned int spread(const struct r2544_row *row, bool pdr, double *med, double *lo, double *hi,
			   unsigned int *median_rep)
{
	double v[R2544_MAX_REPEATS];
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

/* The DUT's cost at a search's NDR: its clean full-length trial at the
 * highest load not above the NDR's lower bound. */
static void ndr_cost(struct ctx *c, struct r2544_row *row, const struct search_outcome *o)
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
	struct r2544_row *row = &c->res->row[c->row];
	unsigned int reps = c->cfg->repeats ? c->cfg->repeats : 1, mid = 0;
	double cost_load[R2544_MAX_REPEATS] = { 0 };
	int rc = 0;

	if (reps > R2544_MAX_REPEATS)
		reps = R2544_MAX_REPEATS;
	for (c->rep = 0; c->rep < reps; c->rep++) {
		/* The cost is of this repeat's NDR, not the best load of any. */
		row->ns_per_frame_ndr = row->ndr_cost_load = 0;
		c->ncost = 0;
		if ((rc = search_once(c, &row->rep[c->rep], err, errlen)))
			break;
		ndr_cost(c, row, &row->rep[c->rep]);
		row->rep_ns_per_frame[c->rep] = row->ns_per_frame_ndr;
		cost_load[c->rep] = row->ndr_cost_load;
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
	row->thr_done = !rc;
	return rc;
}

/* RFC 2544 26.2 and RFC 8219: the distribution over every tagged frame of
 * every run at the throughput rate, so a rare slow frame in one run is not
 * averaged away. */
static int do_latency(struct ctx *c, char *err, size_t errlen)
{
	struct r2544_row *row = &c->res->row[c->row];
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
	struct r2544_row *row = &c->res->row[c->row];
	unsigned int clean = 0;
	int rc = 0;

	for (int pct = 100; pct >= 10 && clean < 2 && row->nloss < R2544_MAX_STEPS; pct -= 10) {
		struct r2544_loss_step *st = &row->loss[row->nloss];
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
	struct r2544_row *row = &c->res->row[c->row];
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

int r2544_run(const struct r2544_cfg *cfg, struct r2544_result *res,
	      const volatile sig_atomic_t *stop, r2544_progress_fn progress,
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
	}
	c.t0 = mono_ns();
	for (c.row = 0; c.row < res->nrows && !rc; c.row++) {
		/* Latency and back-to-back need the throughput rate. */
		if (cfg->tests & (R2544_THROUGHPUT | R2544_LATENCY | R2544_B2B))
			rc = do_throughput(&c, err, errlen);
		if (!rc && (cfg->tests & R2544_LATENCY))
			rc = do_latency(&c, err, errlen);
		if (!rc && (cfg->tests & R2544_LOSS))
			rc = do_loss(&c, err, errlen);
		if (!rc && (cfg->tests & R2544_B2B))
			rc = do_b2b(&c, err, errlen);
		if (!rc && cfg->on_row)
			rc = cfg->on_row(cfg->hook_ctx, &res->row[c.row], err, errlen);
	}
	res->elapsed_ns = mono_ns() - c.t0;
	free(c.tr);
	if (rc == -EINTR) {
		res->interrupted = true;
		return 0;
	}
	return rc;
}
