#include "store/report_db.h"
#include "os/procstat.h"
#include "os/timefmt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/sql.h"

#include "core/stat.h"
#include "core/lossattr.h"
#include "core/ns.h"

static double col_d(struct sql_st *st, int i)
{
	return sql_col_type(st, i) == SQL_NULL ? NAN : sql_col_double(st, i);
}

static void col_s(struct sql_st *st, int i, char *buf, size_t len)
{
	const char *t = sql_col_text(st, i);

	snprintf(buf, len, "%s", t);
}

static double median(double *v, unsigned int n)
{
	return n ? stat_median(v, n, NULL, NULL) : NAN;
}

/* A run's next cell, for a frame size; NULL when the run has them all. */
static struct rm_cell *new_cell(struct rm_run *r, unsigned int size, double line_bps)
{
	struct rm_cell *c;

	if (r->ncells == RM_MAX_SIZES)
		return NULL;
	c = &r->cell[r->ncells++];
	memset(c, 0, sizeof(*c));
	c->size = size;
	if (line_bps > 0 && size)
		c->line_pps = line_bps / ((size + 20.0) * 8);
	return c;
}

/* The plain trials of a run (`wirerate trial [--repeat N]`, test 'x'):
 * per frame size the median of what they forwarded, their range and the
 * mean loss. */
double report_db_trial_forwarded(double load, double tx, double rx, double dur)
{
	double offered = load;

	if (!(tx > 0))
		return NAN;
	if (isfinite(dur) && dur > 0 && tx / dur < load * (1 - TRIAL_OFFER_SLACK))
		offered = tx / dur;
	return offered * rx / tx;
}

static int load_trials(struct sql *h, struct rm_run *r, double line_bps, char *err, size_t errlen)
{
	enum { MAXT = 64 };
	double fwd[MAXT], cost[MAXT], loss = 0;
	unsigned int nf = 0, nc = 0;
	struct rm_cell *c = NULL;
	struct sql_st *st;

	if (sql_prepare(h, "SELECT size, load, tx, rx, tester_limited,"
				  " (SELECT ns_per_frame FROM trial_cpu WHERE trial_id = trials.id), duration_s"
				  " FROM trials WHERE run_id = ? AND test = 'x' AND tx > 0"
				  " AND NOT EXISTS (SELECT 1 FROM stream_trial s WHERE s.trial_id = trials.id)"
				  " ORDER BY size, id", &st))
		return sql_fail(h, "reading trials", err, errlen);
	sql_bind_int(st, 1, r->id);
	for (int s = sql_step(st);; s = sql_step(st)) {
		unsigned int size = s == 1 ? (unsigned int)sql_col_int(st, 0) : 0;

		/* A new size (or the end): finish the cell before. */
		if (c && (s != 1 || size != c->size)) {
			c->have_trial = nf > 0;
			c->trials = nf;
			if (nf) {
				c->trial_fwd_pps = median(fwd, nf);
				c->trial_fwd_min = fwd[0];
				c->trial_fwd_max = fwd[nf - 1];
				c->trial_loss_pct = loss / nf;
			}
			if (nc && !(c->ns_per_frame > 0))
				c->ns_per_frame = median(cost, nc);
			c = NULL;
		}
		if (s != 1)
			break;
		double load = col_d(st, 1), tx = col_d(st, 2), rx = col_d(st, 3), cpu = col_d(st, 5);

		if (!isfinite(load) || !(tx > 0) || !isfinite(rx))
			continue;
		if (!c) {
			if (!(c = (struct rm_cell *)report_model_cell_of(r, size)) && !(c = new_cell(r, size, line_bps)))
				continue;
			nf = nc = 0;
			loss = 0;
		}
		if (nf < MAXT) {
			fwd[nf++] = report_db_trial_forwarded(load, tx, rx, col_d(st, 6));
			loss += rx < tx ? (tx - rx) * 100 / tx : 0;
		}
		c->trial_offered_pps = load;
		/* a tester that fell short says nothing of the DUT, unless the
		 * DUT still lost a share of what it was offered: then it was
		 * full, and what came out is its own (TRIAL_SATURATED) */
		c->tester_limited |= sql_col_int(st, 4) != 0 && (tx - rx) < TRIAL_SATURATED * tx;
		if (isfinite(cpu) && cpu > 0 && nc < MAXT)
			cost[nc++] = cpu;
	}
	sql_finalize(st);
	return 0;
}

/* netperf's service demand: us of CPU (busy share x CPUs x ns) per KB. */
static double service_demand(double busy_pct, double cpus, double ns, double bytes)
{
	if (!isfinite(busy_pct) || !(cpus > 0) || !(ns > 0) || !(bytes > 0))
		return -1;
	return busy_pct / 100 * cpus * ns / NSEC_PER_USEC / (bytes / 1024);
}

/* A median of the figures that are there (>= 0); -1 when none is. */
static double median_known(double *v, unsigned int n)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		if (v[i] >= 0)
			v[k++] = v[i];
	return k ? median(v, k) : -1;
}

/* A stream's runs, per message size: see rm_cell. */
static int load_streams(struct sql *h, struct rm_run *r, char *err, size_t errlen)
{
	enum { MAXT = 64 };
	double recv[MAXT], sent[MAXT], ssd[MAXT], rsd[MAXT], dsd[MAXT], cost[MAXT], loss = 0;
	unsigned int n = 0, nc = 0;
	struct rm_cell *c = NULL;
	struct sql_st *st;

	if (sql_prepare(h, "SELECT t.size, t.tx, t.rx, s.senders, s.sent_bytes, s.recv_bytes, s.send_ns, s.recv_ns,"
			   " s.send_cpus, s.send_busy_pct, s.recv_cpus, s.recv_busy_pct,"
			   " (SELECT ns_per_frame FROM trial_cpu WHERE trial_id = t.id)"
			   " FROM trials t JOIN stream_trial s ON s.trial_id = t.id"
			   " WHERE t.run_id = ? AND t.tx > 0 ORDER BY t.size, t.id", &st))
		return sql_fail(h, "reading streams", err, errlen);
	sql_bind_int(st, 1, r->id);
	for (int step = sql_step(st);; step = sql_step(st)) {
		unsigned int size = step == 1 ? (unsigned int)sql_col_int(st, 0) : 0;

		if (c && (step != 1 || size != c->size)) {
			c->have_stream = n > 0;
			c->stream_runs = n;
			if (n) {
				c->st_recv_mbps = median(recv, n);
				c->st_recv_min = recv[0];
				c->st_recv_max = recv[n - 1];
				c->st_send_mbps = median(sent, n);
				c->st_loss_pct = loss / n;
				c->st_send_sd = median_known(ssd, n);
				c->st_recv_sd = median_known(rsd, n);
				c->st_dut_sd = median_known(dsd, n);
			}
			if (nc && !(c->ns_per_frame > 0))
				c->ns_per_frame = median(cost, nc);
			c = NULL;
		}
		if (step != 1)
			break;
		double tx = col_d(st, 1), rx = col_d(st, 2), sb = col_d(st, 4), rb = col_d(st, 5);
		double sns = col_d(st, 6), rns = col_d(st, 7), dut = col_d(st, 12);

		if (!(tx > 0) || !isfinite(rx) || !(sns > 0) || !(rns > 0) || !isfinite(sb) || !isfinite(rb))
			continue;
		if (!c) {
			if (!(c = (struct rm_cell *)report_model_cell_of(r, size)) && !(c = new_cell(r, size, 0)))
				continue;
			n = nc = 0;
			loss = 0;
		}
		if (n < MAXT) {
			recv[n] = rb * 8 / ns_to_s(rns) / 1e6;
			sent[n] = sb * 8 / ns_to_s(sns) / 1e6;
			ssd[n] = service_demand(col_d(st, 9), col_d(st, 8), sns, sb);
			rsd[n] = service_demand(col_d(st, 11), col_d(st, 10), rns, rb);
			/* the DUT: its CPU per datagram forwarded, one frame each */
			dsd[n] = isfinite(dut) && dut > 0 && size ? dut / 1e3 * 1024 / size : -1;
			loss += rx < tx ? (tx - rx) * 100 / tx : 0;
			n++;
		}
		if ((unsigned int)sql_col_int(st, 3) > c->stream_senders)
			c->stream_senders = (unsigned int)sql_col_int(st, 3);
		if (isfinite(dut) && dut > 0 && nc < MAXT)
			cost[nc++] = dut;
	}
	sql_finalize(st);
	return 0;
}

/* Where the plain trials of each size lost their frames: the stored
 * attribution added up over the trials and directions. */
static int load_trial_loss(struct sql *h, struct rm_run *r, char *err, size_t errlen)
{
	struct lossattr *a = malloc(sizeof(*a));
	struct sql_st *st = NULL, *tot = NULL;
	int rc = 0;

	if (!a)
		return -ENOMEM;
	if (sql_prepare(h, "SELECT l.place, l.detail, SUM(l.frames) FROM trial_loss l"
				  " JOIN trials t ON t.id = l.trial_id"
				  " WHERE t.run_id = ? AND t.size = ? AND t.test = 'x' GROUP BY l.place, l.detail", &st) ||
	    sql_prepare(h, "SELECT COUNT(*), SUM(d.lost), SUM(d.over) FROM trial_loss_dir d"
				  " JOIN trials t ON t.id = d.trial_id WHERE t.run_id = ? AND t.size = ? AND t.test = 'x'", &tot)) {
		rc = sql_fail(h, "reading the loss attribution", err, errlen);
		goto out;
	}
	for (unsigned int i = 0; i < r->ncells; i++) {
		struct rm_cell *c = &r->cell[i];
		int64_t n = 0, lost = 0, over = 0;

		if (!c->have_trial)
			continue;
		sql_reset(tot);
		sql_bind_int(tot, 1, r->id);
		sql_bind_int(tot, 2, (int)c->size);
		if (sql_step(tot) == 1) {
			n = sql_col_int(tot, 0);
			lost = sql_col_int(tot, 1);
			over = sql_col_int(tot, 2);
		}
		/* runs from before the attribution have no rows: nothing said */
		if (n <= 0 || lost < 0 || over < 0)
			continue;
		memset(a, 0, sizeof(*a));
		a->lost = (uint64_t)lost;
		a->over = (uint64_t)over;
		sql_reset(st);
		sql_bind_int(st, 1, r->id);
		sql_bind_int(st, 2, (int)c->size);
		while (sql_step(st) == 1) {
			const char *pl = sql_col_text(st, 0);
			const char *de = sql_col_text(st, 1);
			int64_t fr = sql_col_int(st, 2);
			enum lossattr_place p;

			/* a row this build does not know is left out, not misread */
			if (!pl || lossattr_place_parse(pl, &p) || fr <= 0)
				continue;
			lossattr_add(a, p, de ? de : "", (uint64_t)fr);
		}
		c->have_loss = true;
		c->loss_lost = a->lost;
		c->loss_over = a->over;
		lossattr_format(a, c->loss_text, sizeof(c->loss_text));
	}
out:
	sql_finalize(st);
	sql_finalize(tot);
	free(a);
	return rc;
}

/* A stored bound is "at least" when no load failed above it (no upper)
 * and it is not simply the line rate: the max load was a cap (the
 * tester's ceiling, --max-load), or the search stopped below it (the
 * tester fell short). Runs migrated from version 1 kept no max load:
 * never a bound. A PDR the tester stopped says nothing of the NDR. */
static bool stored_bound(double lower, double upper, double max_load, bool max_is_cap)
{
	return isfinite(lower) && isnan(upper) && isfinite(max_load) &&
	       (max_is_cap || lower < max_load * (1 - 1e-9));
}

/* The noise floor of one cell from the run's stored throughput trials of
 * its size (every repeat), against its median PDR when the run had a PDR
 * goal. Trials the store could not give are simply not read. */
#define NF_LOAD_MAX 4096

static int load_noise_floor(struct sql *h, const struct rm_run *r, struct rm_cell *c, bool pdr_goal,
			    char *err, size_t errlen)
{
	struct nf_cfg nc = { .ndr = c->ndr_iv.n ? c->ndr_iv.median : 0,
			     .ref_load = pdr_goal && c->pdr_iv.n ? c->pdr_iv.median : 0 };
	struct nf_trial *t;
	struct sql_st *st;
	size_t n = 0;

	if (!(t = calloc(NF_LOAD_MAX, sizeof(*t)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (sql_prepare(h, "SELECT load, duration_s, tx, rx, tester_limited FROM trials"
				  " WHERE run_id = ? AND size = ? AND test = 't' ORDER BY id", &st)) {
		free(t);
		return sql_fail(h, "reading trials", err, errlen);
	}
	sql_bind_int(st, 1, r->id);
	sql_bind_int(st, 2, c->size);
	while (n < NF_LOAD_MAX && sql_step(st) == 1) {
		double load = col_d(st, 0), dur = col_d(st, 1);
		int64_t tx = sql_col_int(st, 2), rx = sql_col_int(st, 3);

		/* anything may have written the store: only sane rows */
		if (!isfinite(load) || !(load > 0) || !isfinite(dur) || !(dur > 0) || dur > 1e6 || tx <= 0 || rx < 0)
			continue;
		t[n++] = (struct nf_trial){ .load = load, .duration_ns = (uint64_t)(dur * NSEC_PER_SEC), .tx = (uint64_t)tx,
					    .rx = (uint64_t)rx, .limited = sql_col_int(st, 4) != 0 };
	}
	sql_finalize(st);
	noisefloor_detect(t, n, &nc, &c->nf);
	free(t);
	return 0;
}

/* The cells of one run from its per-repeat results. */
/* Each cell's profile: of its plain trials the last with one; of its
 * throughput trials the one at the highest load that lost nothing (the
 * NDR's), else the highest. */
static int load_profiles(struct sql *h, struct rm_run *r, char *err, size_t errlen)
{
	struct sql_st *pick = NULL, *top = NULL;
	int rc = 0;

	if (sql_prepare(h, "SELECT c.trial_id, c.profile_busy_pct, c.profile_softirq_pct FROM trial_cpu c"
			   " JOIN trials t ON t.id = c.trial_id WHERE t.run_id = ? AND t.size = ?"
			   " AND c.profile_samples IS NOT NULL"
			   " ORDER BY t.test = 'x' DESC, t.rx >= t.tx DESC, t.load DESC, t.id DESC LIMIT 1", &pick) ||
	    sql_prepare(h, "SELECT symbol, pct FROM trial_profile WHERE trial_id = ? ORDER BY pos", &top)) {
		rc = sql_fail(h, "reading the profiles", err, errlen);
		goto out;
	}
	for (unsigned int i = 0; i < r->ncells; i++) {
		struct rm_cell *c = &r->cell[i];
		int64_t trial;

		sql_reset(pick);
		sql_bind_int(pick, 1, r->id);
		sql_bind_int(pick, 2, c->size);
		if (sql_step(pick) != 1)
			continue;
		trial = sql_col_int(pick, 0);
		c->have_prof = true;
		c->prof_busy_pct = sql_col_double(pick, 1);
		c->prof_softirq_pct = sql_col_double(pick, 2);
		sql_reset(top);
		sql_bind_int(top, 1, trial);
		while (c->nprof < RM_MAX_PROF && sql_step(top) == 1) {
			struct rm_prof *p = &c->prof[c->nprof++];

			snprintf(p->symbol, sizeof(p->symbol), "%s", sql_col_text(top, 0));
			p->pct = sql_col_double(top, 1);
		}
	}
out:
	sql_finalize(pick);
	sql_finalize(top);
	return rc;
}

enum { MAXR = 64 };	/* repeats read per size */

/* Each cell's goal results (RFC 9971), medians over its repeats. */
static int load_goals(struct sql *h, struct rm_run *r, char *err, size_t errlen)
{
	struct sql_st *st;
	double v[3][MAXR];
	unsigned int nv[3] = { 0 };
	struct rm_cell *c = NULL;
	struct rm_goal *g = NULL;
	int rc = 0;

	if (sql_prepare(h, "SELECT size, pos, name, spec, rlb, rub, cond_tput, irregular FROM goal_results"
			   " WHERE run_id = ? ORDER BY size, pos, repeat", &st))
		return sql_fail(h, "reading goal results", err, errlen);
	sql_bind_int(st, 1, r->id);
	for (int s = sql_step(st);; s = sql_step(st)) {
		unsigned int size = s == 1 ? (unsigned int)sql_col_int(st, 0) : 0;
		int64_t pos = s == 1 ? sql_col_int(st, 1) : -1;

		/* a new goal (or the end): its medians */
		if (g && (s != 1 || size != c->size || pos != (int64_t)(g - c->goal))) {
			g->rlb = nv[0] ? median(v[0], nv[0]) : NAN;
			g->rub = nv[1] ? median(v[1], nv[1]) : NAN;
			g->cond = nv[2] ? median(v[2], nv[2]) : NAN;
			g = NULL;
		}
		if (s != 1) {
			if (s != 0)
				rc = sql_fail(h, "reading goal results", err, errlen);
			break;
		}
		if (!g) {
			c = (struct rm_cell *)report_model_cell_of(r, size);
			/* the goals come in order from 0; a gap or too many is not ours */
			if (!c || pos != (int64_t)c->ngoal || c->ngoal >= RM_MAX_GOALS)
				continue;
			g = &c->goal[c->ngoal++];
			snprintf(g->name, sizeof(g->name), "%s", sql_col_text(st, 2));
			snprintf(g->spec, sizeof(g->spec), "%s", sql_col_text(st, 3));
			nv[0] = nv[1] = nv[2] = 0;
		}
		g->repeats++;
		for (int k = 0; k < 3; k++) {
			double x = col_d(st, 4 + k);

			if (isfinite(x) && nv[k] < MAXR)
				v[k][nv[k]++] = x;
		}
		if (sql_col_text(st, 7)[0] && !g->irregular++)
			snprintf(g->why, sizeof(g->why), "%s", sql_col_text(st, 7));
	}
	sql_finalize(st);
	return rc;
}

static int load_cells(struct sql *h, struct rm_run *r, double line_bps, bool pdr_goal, char *err, size_t errlen)
{
	struct sql_st *st;
	int rc = 0;

	if (sql_prepare(h,
			       "SELECT size, max_load, max_is_ceiling, ndr_lower, pdr_lower, at_max, tester_capped,"
			       " width_pps, ns_per_frame, lat_min, lat_median, lat_p99, lat_p999, lat_max, b2b_avg,"
			       " ndr_upper, pdr_upper"
			       " FROM results WHERE run_id = ? ORDER BY size, repeat", &st))
		return sql_fail(h, "reading results", err, errlen);
	sql_bind_int(st, 1, r->id);
	double ndr[MAXR], pdr[MAXR], cost[MAXR];
	unsigned int nn = 0, np = 0, nc = 0;
	struct rm_cell *c = NULL;

	for (int s = sql_step(st);; s = sql_step(st)) {
		unsigned int size = s == 1 ? (unsigned int)sql_col_int(st, 0) : 0;

		/* A new size (or the end): finish the cell before. */
		if (c && (s != 1 || size != c->size)) {
			c->repeats = nn;
			c->have_thr = nn > 0;
			if (nn)
				interval_median(ndr, nn, INTERVAL_GOAL, &c->ndr_iv);
			if (np)
				interval_median(pdr, np, INTERVAL_GOAL, &c->pdr_iv);
			c->pdr_med = np ? median(pdr, np) : 0;
			c->ns_per_frame = nc ? median(cost, nc) : 0;
			if (nn) {
				c->ndr_med = median(ndr, nn);
				c->ndr_min = ndr[0];
				c->ndr_max = ndr[nn - 1];
			}
			c = NULL;
		}
		if (s != 1) {
			if (s != 0)
				rc = sql_fail(h, "reading results", err, errlen);
			break;
		}
		if (!c) {
			if (!(c = new_cell(r, size, line_bps)))
				continue;
			nn = np = nc = 0;
		}
		double v = col_d(st, 3), w = col_d(st, 7), cpu = col_d(st, 8);

		if (isfinite(v) && nn < MAXR)
			ndr[nn++] = v;
		if (isfinite(v = col_d(st, 4)) && np < MAXR)
			pdr[np++] = v;
		if (isfinite(cpu) && cpu > 0 && nc < MAXR)
			cost[nc++] = cpu;
		if (isfinite(w) && w > c->width_pps)
			c->width_pps = w;
		if (isfinite(w = col_d(st, 1)) && w > 0 && (!(c->max_load > 0) || w < c->max_load))
			c->max_load = w;
		/* "At least": a repeat's own bound was stopped by the tester. */
		if (stored_bound(col_d(st, 3), col_d(st, 15), col_d(st, 1), sql_col_int(st, 2)))
			c->tester_limited = true;
		if (stored_bound(col_d(st, 4), col_d(st, 16), col_d(st, 1), sql_col_int(st, 2)))
			c->pdr_bound = true;
		if (!c->have_lat && isfinite(col_d(st, 9))) {
			c->have_lat = true;
			c->lat_min = col_d(st, 9);
			c->lat_median = col_d(st, 10);
			c->lat_p99 = col_d(st, 11);
			c->lat_p999 = col_d(st, 12);
			c->lat_max = col_d(st, 13);
		}
		if (isfinite(col_d(st, 14)))
			c->b2b_frames = col_d(st, 14);
	}
	sql_finalize(st);
	if (rc)
		return rc;
	if (sql_prepare(h, "SELECT size, pct, load, loss_pct FROM loss_steps WHERE run_id = ?"
				  " ORDER BY size, pct DESC", &st))
		return sql_fail(h, "reading frame loss", err, errlen);
	sql_bind_int(st, 1, r->id);
	while (sql_step(st) == 1) {
		struct rm_cell *lc = (struct rm_cell *)report_model_cell_of(r, (unsigned int)sql_col_int(st, 0));

		if (lc && lc->nloss < RM_MAX_LOSS)
			lc->loss[lc->nloss++] = (struct rm_loss_point){ col_d(st, 1), col_d(st, 2), col_d(st, 3) };
	}
	sql_finalize(st);
	/* every size with a search, even one that found no NDR at all (its
	 * least load lost a frame): that is the floor's doing too */
	for (unsigned int k = 0; k < r->ncells; k++)
		if ((rc = load_noise_floor(h, r, &r->cell[k], pdr_goal, err, errlen)))
			return rc;
	if ((rc = load_trials(h, r, line_bps, err, errlen)) || (rc = load_trial_loss(h, r, err, errlen)) ||
	    (rc = load_streams(h, r, err, errlen)) || (rc = load_goals(h, r, err, errlen)))
		return rc;
	return load_profiles(h, r, err, errlen);
}

static int add_size(struct report_model *m, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < m->nsizes; i++)
		if (m->sizes[i] == size)
			return 0;
	if (m->nsizes == RM_MAX_SIZES)
		return -E2BIG;
	for (i = m->nsizes; i > 0 && m->sizes[i - 1] > size; i--)
		m->sizes[i] = m->sizes[i - 1];
	m->sizes[i] = size;
	m->nsizes++;
	return 0;
}

int report_db_load(struct db *db, const int64_t *ids, unsigned int n, struct report_model *m,
		char *err, size_t errlen)
{
	struct db *dbs[RM_MAX_IDS];

	for (unsigned int i = 0; i < n && i < RM_MAX_IDS; i++)
		dbs[i] = db;
	return report_db_load_stores(dbs, ids, n, m, err, errlen);
}

int report_db_load_stores(struct db *const *dbs, const int64_t *ids, unsigned int n, struct report_model *m,
		       char *err, size_t errlen)
{
	struct rm_run *r = malloc(sizeof(*r));
	char boot[64];
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->fail_pct = -1;
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (n > RM_MAX_IDS) {
		snprintf(err, errlen, "at most %d runs in one report", RM_MAX_IDS);
		free(r);
		return -EINVAL;
	}
	procstat_boot_id(NULL, boot, sizeof(boot));
	for (unsigned int i = 0; i < n && !rc; i++) {
		struct sql *h = db_sql(dbs[i]);
		struct sql_st *st;
		char status[32], runboot[64];
		int64_t pid, round;
		double line_bps;
		bool pdr_goal;

		memset(r, 0, sizeof(*r));
		if (sql_prepare(h, "SELECT id, started, test, label, config, status, pid, boot_id, line_bps,"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key IN ('dut.kernel.release', 'kernel.release')"
					  "  ORDER BY key = 'dut.kernel.release' DESC LIMIT 1),"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key = 'cpu.line_ns'),"
					  " pdr_ratio,"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key = 'run.round'),"
					  " uuid, place,"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key = 'dut.name')"
					  " FROM runs WHERE id = ?", &st)) {
			rc = sql_fail(h, "reading runs", err, errlen);
			break;
		}
		sql_bind_int(st, 1, ids[i]);
		if (sql_step(st) != 1) {
			sql_finalize(st);
			snprintf(err, errlen, "no run %lld", (long long)ids[i]);
			rc = -ENOENT;
			break;
		}
		r->id = sql_col_int(st, 0);
		r->arg = i;
		snprintf(r->ref, sizeof(r->ref), "%lld", (long long)r->id);
		if (timefmt_local(r->when, sizeof(r->when), sql_col_int(st, 1), "%Y-%m-%dT%H:%M:%S%z"))
			r->when[0] = '\0';
		col_s(st, 2, r->test, sizeof(r->test));
		col_s(st, 3, r->label, sizeof(r->label));
		col_s(st, 4, r->config, sizeof(r->config));
		col_s(st, 5, status, sizeof(status));
		col_s(st, 7, runboot, sizeof(runboot));
		pid = sql_col_int(st, 6);
		line_bps = sql_col_double(st, 8);
		col_s(st, 9, r->kernel, sizeof(r->kernel));
		col_s(st, 10, r->cpu_line, sizeof(r->cpu_line));
		pdr_goal = sql_col_double(st, 11) > 0;
		/* a round stored as text: a number from 1, else none */
		round = sql_col_type(st, 12) == SQL_NULL ? 0 : atoll(sql_col_text(st, 12));
		r->started = sql_col_int(st, 1);
		col_s(st, 13, r->uuid, sizeof(r->uuid));
		col_s(st, 14, r->place, sizeof(r->place));
		col_s(st, 15, r->dut, sizeof(r->dut));
		sql_finalize(st);
		r->interrupted = strcmp(db_run_status(dbs[i], status, r->id, pid, runboot, boot), "complete") != 0;
		if ((rc = load_cells(h, r, line_bps, pdr_goal, err, errlen)))
			break;
		if ((rc = report_db_rounds_add(m, r, round > 0 && round <= RM_MAX_ROUNDS ? (unsigned int)round : 0,
					       dbs[i] == dbs[0] ? 0 : (uintptr_t)dbs[i], err, errlen)))
			break;
		for (unsigned int k = 0; k < r->ncells && !rc; k++)
			if ((rc = add_size(m, r->cell[k].size)))
				snprintf(err, errlen, "more than %d frame sizes in these runs", RM_MAX_SIZES);
	}
	free(r);
	if (!rc) {
		report_db_rounds_finish(m);
		report_db_title(m);
	}
	return rc;
}

void report_db_title(struct report_model *m)
{
	bool rounds = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		rounds |= m->run[r].nrounds > 1;
	if (rounds)
		snprintf(m->title, sizeof(m->title), "wirerate report: %u configuration%s in rounds against run %s",
			 m->nruns, m->nruns == 1 ? "" : "s", m->run[0].ref);
	else
		snprintf(m->title, sizeof(m->title), "wirerate report: %u run%s against run %s", m->nruns,
			 m->nruns == 1 ? "" : "s", m->nruns ? m->run[0].ref : "0");
}

void report_db_band(const struct rm_cell *c, double *lo, double *hi)
{
	double w = c->width_pps > 0 ? c->width_pps : 0;

	*lo = (c->ndr_iv.n ? c->ndr_iv.lo : c->ndr_min) - w;
	*hi = (c->ndr_iv.n ? c->ndr_iv.hi : c->ndr_max) + w;
}

const char *report_db_verdict_name(enum rm_verdict v)
{
	switch (v) {
	case RM_BASELINE: return "baseline";
	case RM_NOISE: return "noise";
	case RM_BETTER: return "better";
	case RM_WORSE: return "worse";
	case RM_NOT_COMPARABLE: return "not comparable";
	case RM_CANNOT_TELL: return "cannot tell";
	default: return "none";
	}
}
