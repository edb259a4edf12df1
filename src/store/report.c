#include "store/report.h"
#include "sys/cpulat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "core/cpustat.h"

static int fail_sql(sqlite3 *h, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(h));
	return -EIO;
}

int report_resolve(struct db *db, const char *arg, int64_t *id, char *note, size_t notelen,
		   char *err, size_t errlen)
{
	sqlite3 *h = db_sqlite(db);
	sqlite3_stmt *st;
	char *end;
	long long v = strtoll(arg, &end, 10);
	int n = 0;

	note[0] = '\0';
	if (*arg && !*end) {
		if (sqlite3_prepare_v2(h, "SELECT id FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
			return fail_sql(h, "looking up the run", err, errlen);
		sqlite3_bind_int64(st, 1, v);
		n = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
		if (n) {
			*id = v;
			return 0;
		}
		/* A label may be all digits too: fall through. */
	}
	if (sqlite3_prepare_v2(h, "SELECT id, (SELECT count(*) FROM runs WHERE label = ?1) FROM runs"
				  " WHERE label = ?1 ORDER BY started DESC, id DESC LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return fail_sql(h, "looking up the label", err, errlen);
	sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		n = sqlite3_column_int(st, 1);
		if (n > 1)
			snprintf(note, notelen, "label '%s' names %d runs; using the latest, run %lld", arg, n,
				 (long long)*id);
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);
	snprintf(err, errlen, "no run '%s' (neither a run id nor a label; see 'wirerate runs')", arg);
	return -ENOENT;
}

static double col_d(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void col_s(sqlite3_stmt *st, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(buf, len, "%s", t ? (const char *)t : "");
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
#define TRIAL_OFFER_SLACK 0.005	/* the generator within this of its load: the load */

static int load_trials(sqlite3 *h, struct rm_run *r, double line_bps, char *err, size_t errlen)
{
	enum { MAXT = 64 };
	double fwd[MAXT], cost[MAXT], loss = 0;
	unsigned int nf = 0, nc = 0;
	struct rm_cell *c = NULL;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(h, "SELECT size, load, tx, rx, tester_limited,"
				  " (SELECT ns_per_frame FROM trial_cpu WHERE trial_id = trials.id), duration_s"
				  " FROM trials WHERE run_id = ? AND test = 'x' AND tx > 0 ORDER BY size, id",
				  -1, &st, NULL) != SQLITE_OK)
		return fail_sql(h, "reading trials", err, errlen);
	sqlite3_bind_int64(st, 1, r->id);
	for (int s = sqlite3_step(st);; s = sqlite3_step(st)) {
		unsigned int size = s == SQLITE_ROW ? (unsigned int)sqlite3_column_int(st, 0) : 0;

		/* A new size (or the end): finish the cell before. */
		if (c && (s != SQLITE_ROW || size != c->size)) {
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
		if (s != SQLITE_ROW)
			break;
		double load = col_d(st, 1), tx = col_d(st, 2), rx = col_d(st, 3), cpu = col_d(st, 5);

		if (!isfinite(load) || !(tx > 0) || !isfinite(rx))
			continue;
		if (!c) {
			if (!(c = (struct rm_cell *)rm_cell_of(r, size)) && !(c = new_cell(r, size, line_bps)))
				continue;
			nf = nc = 0;
			loss = 0;
		}
		/* What was offered: the load asked for, or what the generator
		 * sent when it fell short of that (a tester-limited trial), so
		 * that a trial offered 59k of 100k never reads 100k forwarded. */
		double dur = col_d(st, 6), offered = load;

		if (isfinite(dur) && dur > 0 && tx / dur < load * (1 - TRIAL_OFFER_SLACK))
			offered = tx / dur;
		if (nf < MAXT) {
			fwd[nf++] = offered * rx / tx;
			loss += rx < tx ? (tx - rx) * 100 / tx : 0;
		}
		c->trial_offered_pps = load;
		c->tester_limited |= sqlite3_column_int(st, 4) != 0;
		if (isfinite(cpu) && cpu > 0 && nc < MAXT)
			cost[nc++] = cpu;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The cells of one run from its per-repeat results. */
static int load_cells(sqlite3 *h, struct rm_run *r, double line_bps, char *err, size_t errlen)
{
	enum { MAXR = 64 };
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(h,
			       "SELECT size, max_load, max_is_ceiling, ndr_lower, pdr_lower, at_max, tester_capped,"
			       " width_pps, ns_per_frame, lat_min, lat_median, lat_p99, lat_p999, lat_max, b2b_avg"
			       " FROM results WHERE run_id = ? ORDER BY size, repeat", -1, &st, NULL) != SQLITE_OK)
		return fail_sql(h, "reading results", err, errlen);
	sqlite3_bind_int64(st, 1, r->id);
	double ndr[MAXR], pdr[MAXR], cost[MAXR];
	unsigned int nn = 0, np = 0, nc = 0;
	struct rm_cell *c = NULL;

	for (int s = sqlite3_step(st);; s = sqlite3_step(st)) {
		unsigned int size = s == SQLITE_ROW ? (unsigned int)sqlite3_column_int(st, 0) : 0;

		/* A new size (or the end): finish the cell before. */
		if (c && (s != SQLITE_ROW || size != c->size)) {
			c->repeats = nn;
			c->have_thr = nn > 0;
			c->pdr_med = np ? median(pdr, np) : 0;
			c->ns_per_frame = nc ? median(cost, nc) : 0;
			if (nn) {
				c->ndr_med = median(ndr, nn);
				c->ndr_min = ndr[0];
				c->ndr_max = ndr[nn - 1];
			}
			c = NULL;
		}
		if (s != SQLITE_ROW) {
			if (s != SQLITE_DONE)
				rc = fail_sql(h, "reading results", err, errlen);
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
		/* "At least": the NDR is the highest load the tester could offer. */
		if ((sqlite3_column_int(st, 5) && sqlite3_column_int(st, 2)) || sqlite3_column_int(st, 6))
			c->tester_limited = true;
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
	sqlite3_finalize(st);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(h, "SELECT size, pct, load, loss_pct FROM loss_steps WHERE run_id = ?"
				  " ORDER BY size, pct DESC", -1, &st, NULL) != SQLITE_OK)
		return fail_sql(h, "reading frame loss", err, errlen);
	sqlite3_bind_int64(st, 1, r->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct rm_cell *lc = (struct rm_cell *)rm_cell_of(r, (unsigned int)sqlite3_column_int(st, 0));

		if (lc && lc->nloss < RM_MAX_LOSS)
			lc->loss[lc->nloss++] = (struct rm_loss_point){ col_d(st, 1), col_d(st, 2), col_d(st, 3) };
	}
	sqlite3_finalize(st);
	return load_trials(h, r, line_bps, err, errlen);
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

int report_load(struct db *db, const int64_t *ids, unsigned int n, struct report_model *m,
		char *err, size_t errlen)
{
	sqlite3 *h = db_sqlite(db);
	char boot[64];
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->fail_pct = -1;
	if (n > RM_MAX_RUNS) {
		snprintf(err, errlen, "at most %d runs in one report", RM_MAX_RUNS);
		return -EINVAL;
	}
	db_boot_id(boot, sizeof(boot));
	for (unsigned int i = 0; i < n && !rc; i++) {
		struct rm_run *r = &m->run[m->nruns];
		sqlite3_stmt *st;
		char status[32], runboot[64];
		double line_bps;

		memset(r, 0, sizeof(*r));
		if (sqlite3_prepare_v2(h, "SELECT id, started, test, label, config, status, pid, boot_id, line_bps,"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key = 'kernel.release'),"
					  " (SELECT value FROM env WHERE run_id = runs.id AND key = 'cpu.line_ns')"
					  " FROM runs WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
			return fail_sql(h, "reading runs", err, errlen);
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_ROW) {
			sqlite3_finalize(st);
			snprintf(err, errlen, "no run %lld", (long long)ids[i]);
			return -ENOENT;
		}
		time_t t = (time_t)sqlite3_column_int64(st, 1);
		struct tm tm;

		r->id = sqlite3_column_int64(st, 0);
		strftime(r->when, sizeof(r->when), "%Y-%m-%dT%H:%M:%S", localtime_r(&t, &tm));
		col_s(st, 2, r->test, sizeof(r->test));
		col_s(st, 3, r->label, sizeof(r->label));
		col_s(st, 4, r->config, sizeof(r->config));
		col_s(st, 5, status, sizeof(status));
		col_s(st, 7, runboot, sizeof(runboot));
		r->interrupted = strcmp(db_status_shown(status, sqlite3_column_int64(st, 6), runboot, boot), "complete") != 0;
		line_bps = sqlite3_column_double(st, 8);
		col_s(st, 9, r->kernel, sizeof(r->kernel));
		col_s(st, 10, r->cpu_line, sizeof(r->cpu_line));
		sqlite3_finalize(st);
		if ((rc = load_cells(h, r, line_bps, err, errlen)))
			break;
		for (unsigned int k = 0; k < r->ncells && !rc; k++)
			if ((rc = add_size(m, r->cell[k].size)))
				snprintf(err, errlen, "more than %d frame sizes in these runs", RM_MAX_SIZES);
		m->nruns++;
	}
	if (!rc)
		snprintf(m->title, sizeof(m->title), "wirerate report: %u run%s against run %lld", m->nruns,
			 m->nruns == 1 ? "" : "s", m->nruns ? (long long)m->run[0].id : 0LL);
	return rc;
}

void report_band(const struct rm_cell *c, double *lo, double *hi)
{
	double w = c->width_pps > 0 ? c->width_pps : 0;

	*lo = c->ndr_min - w;
	*hi = c->ndr_max + w;
}

const char *report_verdict_name(enum rm_verdict v)
{
	switch (v) {
	case RM_BASELINE: return "baseline";
	case RM_NOISE: return "noise";
	case RM_BETTER: return "better";
	case RM_WORSE: return "worse";
	default: return "none";
	}
}

/* Plain trials compare by what the DUT forwarded, and only at the same
 * offered load (within the search's default width goal, 0.5%). As with
 * the NDR, a cell's band is its trials' range widened by that goal (0.5%
 * of its offered load, how exactly one trial places the rate) and only
 * bands apart are better or worse. A trial in which the tester fell short
 * says nothing about the DUT: no verdict. */
#define TRIAL_BAND 0.005

/* An incomplete run (stopped, or its process died) is compared and shown,
 * but a CI gate does not fail on it, nor on a baseline that is one: its
 * figures may stop short of what the search would have found. */
static bool counts(const struct report_model *m, unsigned int r)
{
	return !m->run[r].interrupted && !m->run[0].interrupted;
}

static void compare_trial(struct report_model *m, unsigned int r, struct rm_cell *c, const struct rm_cell *b,
			  double fail_pct)
{
	double blo, bhi, clo, chi;

	if (r == 0) {
		c->verdict = RM_BASELINE;
		return;
	}
	c->verdict = RM_NONE;
	if (!b || !b->have_trial || !(b->trial_fwd_pps > 0) || !(b->trial_offered_pps > 0) ||
	    fabs(c->trial_offered_pps - b->trial_offered_pps) > TRIAL_BAND * b->trial_offered_pps ||
	    c->tester_limited || b->tester_limited)
		return;
	blo = b->trial_fwd_min - TRIAL_BAND * b->trial_offered_pps;
	bhi = b->trial_fwd_max + TRIAL_BAND * b->trial_offered_pps;
	clo = c->trial_fwd_min - TRIAL_BAND * c->trial_offered_pps;
	chi = c->trial_fwd_max + TRIAL_BAND * c->trial_offered_pps;
	c->diff_pct = (c->trial_fwd_pps - b->trial_fwd_pps) * 100 / b->trial_fwd_pps;
	c->verdict = clo > bhi ? RM_BETTER : chi < blo ? RM_WORSE : RM_NOISE;
	if (c->verdict == RM_WORSE && fail_pct >= 0 && counts(m, r) && (blo - chi) * 100 / b->trial_fwd_pps > fail_pct)
		m->regression = true;
}

void report_compare(struct report_model *m, double fail_pct)
{
	m->fail_pct = fail_pct;
	m->regression = false;
	for (unsigned int r = 0; r < m->nruns; r++) {
		struct rm_run *run = &m->run[r];

		run->placement_moved = r && cpulat_text_moved(m->run[0].cpu_line, run->cpu_line, "in the baseline",
							      run->placement_note, sizeof(run->placement_note));
		if (!run->placement_moved)
			run->placement_note[0] = '\0';
	}
	for (unsigned int r = 0; r < m->nruns; r++) {
		for (unsigned int k = 0; k < m->run[r].ncells; k++) {
			struct rm_cell *c = &m->run[r].cell[k];
			const struct rm_cell *b = rm_cell_of(&m->run[0], c->size);
			double blo, bhi, clo, chi;

			c->diff_pct = 0;
			if (!c->have_thr && c->have_trial) {
				compare_trial(m, r, c, b, fail_pct);
				continue;
			}
			if (!c->have_thr || !b || !b->have_thr || !(b->ndr_med > 0)) {
				c->verdict = r == 0 && c->have_thr ? RM_BASELINE : RM_NONE;
				continue;
			}
			if (r == 0) {
				c->verdict = RM_BASELINE;
				continue;
			}
			c->diff_pct = (c->ndr_med - b->ndr_med) * 100 / b->ndr_med;
			report_band(b, &blo, &bhi);
			report_band(c, &clo, &chi);
			/* Disjoint bands are a change; overlapping ones are noise.
			 * An "at least" figure is a lower bound: it cannot be worse,
			 * and nothing is better than it. */
			if (clo > bhi && !b->tester_limited)
				c->verdict = RM_BETTER;
			else if (chi < blo && !c->tester_limited)
				c->verdict = RM_WORSE;
			else
				c->verdict = RM_NOISE;
			if (c->verdict == RM_WORSE && fail_pct >= 0 && counts(m, r) && (blo - chi) * 100 / b->ndr_med > fail_pct)
				m->regression = true;
		}
	}
}

/* "19.99k" or "49.7%" of line rate; the cell's figure as the table shows it. */
static void fmt_thr(const struct rm_cell *c, char *buf, size_t len)
{
	if (!c || !c->have_thr)
		snprintf(buf, len, "-");
	else if (c->line_pps > 0)
		snprintf(buf, len, "%s%.1f%%", c->tester_limited ? ">=" : "", c->ndr_med * 100 / c->line_pps);
	else
		snprintf(buf, len, "%s%.2fk", c->tester_limited ? ">=" : "", c->ndr_med / 1e3);
}

static void run_name(const struct rm_run *r, char *buf, size_t len)
{
	snprintf(buf, len, "#%lld%s%.20s", (long long)r->id, r->label[0] ? " " : "", r->label);
}

/* The words of a run's config ("placement=bound rules=0 ...") that not
 * every run shares: what the seed 001 table's rows differ by. */
static void config_diff(const struct report_model *m, unsigned int r, char *buf, size_t len)
{
	char cfg[sizeof(m->run[0].config)], *save = NULL;
	size_t off = 0;

	buf[0] = '\0';
	snprintf(cfg, sizeof(cfg), "%s", m->run[r].config);
	for (char *w = strtok_r(cfg, " ", &save); w && off < len; w = strtok_r(NULL, " ", &save)) {
		bool everywhere = true;
		size_t wl = strlen(w);

		for (unsigned int k = 0; k < m->nruns && everywhere; k++) {
			const char *c = m->run[k].config, *p = c;

			everywhere = false;
			while ((p = strstr(p, w))) {
				if ((p == c || p[-1] == ' ') && (p[wl] == ' ' || !p[wl])) {
					everywhere = true;
					break;
				}
				p += wl;
			}
		}
		if (!everywhere)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", w);
	}
	if (!buf[0])
		snprintf(buf, len, "%s", "(same)");
}

/* One column of run r's: w wide, but the last one ends the line as it is. */
static void runs_col(struct out *o, const struct report_model *m, unsigned int r, int w, const char *s)
{
	if (r + 1 < m->nruns)
		out_text(o, "  %-*s", w, s);
	else
		out_text(o, "  %s", s);
}

/* The head of a table with a column per run, each w wide but the last. */
static void runs_header(struct out *o, const struct report_model *m, int w)
{
	char name[64];

	out_text(o, "  %5s", "size");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		runs_col(o, m, r, w, name);
	}
	out_text(o, "\n");
}

/* After a cell's figure: its difference and verdict against the baseline,
 * when it has one. */
static void verdict_suffix(char *cell, size_t len, const struct rm_cell *c)
{
	size_t n = strlen(cell);

	if (c && (c->verdict == RM_BETTER || c->verdict == RM_WORSE || c->verdict == RM_NOISE) && n < len)
		snprintf(cell + n, len - n, " %+.1f%% %s", c->diff_pct, report_verdict_name(c->verdict));
}

/* Plain trials: rows are frame sizes, columns are runs; a cell is what the
 * DUT forwarded at the offered load, and the loss. */
static void print_trials(struct out *o, const struct report_model *m)
{
	out_text(o, "\n  trial (frames/s forwarded, median of repeats +- half their spread, of those offered,"
		 " and the loss), verdict against the first run at the same offered load\n\n");
	runs_header(o, m, 34);
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = rm_cell_of(&m->run[r], m->sizes[s]);
			char cell[112];

			if (!c || !c->have_trial) {
				snprintf(cell, sizeof(cell), "-");
			} else {
				int n = snprintf(cell, sizeof(cell), "%.2fk", c->trial_fwd_pps / 1e3);

				if (c->trials > 1 && c->trial_fwd_pps > 0 && n > 0 && (size_t)n < sizeof(cell))
					n += snprintf(cell + n, sizeof(cell) - (size_t)n, " +-%.1f%%",
						      (c->trial_fwd_max - c->trial_fwd_min) * 50 / c->trial_fwd_pps);
				if (n > 0 && (size_t)n < sizeof(cell))
					snprintf(cell + n, sizeof(cell) - (size_t)n, " of %.4gk, loss %.3f%%%s",
						 c->trial_offered_pps / 1e3, c->trial_loss_pct,
						 c->tester_limited ? " (tester-limited)" : "");
				verdict_suffix(cell, sizeof(cell), c);
			}
			runs_col(o, m, r, 34, cell);
		}
		out_text(o, "\n");
	}
}

static void print_tables(struct out *o, const struct report_model *m)
{
	char name[64], v[64];
	bool pct = false, cfg_differ = false, any_thr = false, any_trial = false;

	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		run_name(run, name, sizeof(name));
		out_text(o, "  %-24s %s, %s%s%s, %s%s\n", name, run->test, run->when,
			 run->kernel[0] ? ", kernel " : "", run->kernel, run->config[0] ? run->config : "-",
			 run->interrupted ? "  [INCOMPLETE]" : "");
		if (run->placement_moved)
			out_text(o, "  %-24s the host had %s: its figures move with that (docs/measurement.md)\n", "",
				 run->placement_note);
		for (unsigned int k = 0; k < run->ncells; k++) {
			pct |= run->cell[k].line_pps > 0;
			any_thr |= run->cell[k].have_thr;
			any_trial |= run->cell[k].have_trial;
		}
		cfg_differ |= strcmp(run->config, m->run[0].config) != 0;
	}
	if (any_trial)
		print_trials(o, m);
	if (any_trial && !any_thr)
		goto by_config;
	/* Seed 002: rows are frame sizes, columns are runs. */
	out_text(o, "\n  throughput (NDR, %s; median of repeats +- half their spread),"
		 " verdict against %s\n\n", pct ? "% of line rate" : "frames/s", "the first run");
	runs_header(o, m, 26);
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = rm_cell_of(&m->run[r], m->sizes[s]);
			char cell[96];

			fmt_thr(c, v, sizeof(v));
			if (c && c->have_thr && c->repeats > 1 && c->ndr_med > 0)
				snprintf(cell, sizeof(cell), "%s +-%.1f%%", v, (c->ndr_max - c->ndr_min) * 50 / c->ndr_med);
			else
				snprintf(cell, sizeof(cell), "%s", v);
			verdict_suffix(cell, sizeof(cell), c);
			runs_col(o, m, r, 26, cell);
		}
		out_text(o, "\n");
	}
by_config:
	/* Seed 001: rows are configurations, kpps per size. */
	if (cfg_differ) {
		/* Columns as wide as their longest entry: run, configuration. */
		int wn = 3, wc = 13;

		for (unsigned int r = 0; r < m->nruns; r++) {
			char diff[96];

			run_name(&m->run[r], name, sizeof(name));
			config_diff(m, r, diff, sizeof(diff));
			wn = (int)strlen(name) > wn ? (int)strlen(name) : wn;
			wc = (int)strlen(diff) > wc ? (int)strlen(diff) : wc;
		}
		out_text(o, "\n  by configuration (kpps, NDR median%s; what differs between the runs)\n  %-*s  %-*s",
			 any_trial ? ", or forwarded in a plain trial" : "", wn, "run", wc, "configuration");
		for (unsigned int s = 0; s < m->nsizes; s++)
			out_text(o, " %8u", m->sizes[s]);
		out_text(o, "\n");
		for (unsigned int r = 0; r < m->nruns; r++) {
			char diff[96];

			run_name(&m->run[r], name, sizeof(name));
			config_diff(m, r, diff, sizeof(diff));
			out_text(o, "  %-*s  %-*s", wn, name, wc, diff);
			for (unsigned int s = 0; s < m->nsizes; s++) {
				const struct rm_cell *c = rm_cell_of(&m->run[r], m->sizes[s]);

				if (c && c->have_thr)
					out_text(o, " %8.1f", c->ndr_med / 1e3);
				else if (c && c->have_trial)
					out_text(o, " %8.1f", c->trial_fwd_pps / 1e3);
				else
					out_text(o, " %8s", "-");
			}
			out_text(o, "\n");
		}
	}
	/* The cost per frame, where it was measured. */
	bool cost = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++)
			cost |= m->run[r].cell[k].ns_per_frame > 0;
	if (cost) {
		out_text(o, "\n  DUT CPU per forwarded frame at the NDR%s (ns)\n  %5s",
			 any_trial ? " or at a plain trial's load" : "", "size");
		for (unsigned int r = 0; r < m->nruns; r++) {
			run_name(&m->run[r], name, sizeof(name));
			out_text(o, r + 1 < m->nruns ? "  %-12s" : "  %s", name);
		}
		out_text(o, "\n");
		for (unsigned int s = 0; s < m->nsizes; s++) {
			out_text(o, "  %5u", m->sizes[s]);
			for (unsigned int r = 0; r < m->nruns; r++) {
				const struct rm_cell *c = rm_cell_of(&m->run[r], m->sizes[s]);

				if (c && c->ns_per_frame > 0)
					out_text(o, r + 1 < m->nruns ? "  %-12.0f" : "  %.0f", c->ns_per_frame);
				else
					out_text(o, r + 1 < m->nruns ? "  %-12s" : "  %s", "-");
			}
			out_text(o, "\n");
		}
	}
}

static void json_cell(struct out *o, const struct rm_cell *c)
{
	out_obj_start(o, NULL);
	out_u64(o, "size", NULL, c->size);
	out_bool(o, "have_throughput", NULL, c->have_thr);
	out_u64(o, "repeats", NULL, c->repeats);
	if (c->have_thr) {
		out_f64(o, "ndr_median_pps", NULL, c->ndr_med);
		out_f64(o, "ndr_min_pps", NULL, c->ndr_min);
		out_f64(o, "ndr_max_pps", NULL, c->ndr_max);
		out_f64(o, "width_pps", NULL, c->width_pps);
		double lo, hi;

		report_band(c, &lo, &hi);
		out_f64(o, "band_lo_pps", NULL, lo);
		out_f64(o, "band_hi_pps", NULL, hi);
	}
	if (c->pdr_med > 0)
		out_f64(o, "pdr_median_pps", NULL, c->pdr_med);
	if (c->line_pps > 0) {
		out_f64(o, "line_pps", NULL, c->line_pps);
		if (c->have_thr)
			out_f64(o, "ndr_pct_line_rate", NULL, c->ndr_med * 100 / c->line_pps);
	}
	out_bool(o, "at_least", NULL, c->tester_limited);
	if (c->have_lat) {
		out_obj_start(o, "latency_ns");
		out_f64(o, "min", NULL, c->lat_min);
		out_f64(o, "median", NULL, c->lat_median);
		out_f64(o, "p99", NULL, c->lat_p99);
		out_f64(o, "p99_9", NULL, c->lat_p999);
		out_f64(o, "max", NULL, c->lat_max);
		out_obj_end(o);
	}
	out_arr_start(o, "frame_loss");
	for (unsigned int i = 0; i < c->nloss; i++) {
		out_obj_start(o, NULL);
		out_f64(o, "offered_pct", NULL, c->loss[i].offered_pct);
		out_f64(o, "offered_pps", NULL, c->loss[i].offered_pps);
		out_f64(o, "loss_pct", NULL, c->loss[i].loss_pct);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (c->ns_per_frame > 0)
		out_f64(o, "ns_per_frame", NULL, c->ns_per_frame);
	if (c->b2b_frames > 0)
		out_f64(o, "b2b_frames", NULL, c->b2b_frames);
	if (c->have_trial) {
		out_obj_start(o, "trial");
		out_u64(o, "trials", NULL, c->trials);
		out_f64(o, "offered_pps", NULL, c->trial_offered_pps);
		out_f64(o, "forwarded_pps", NULL, c->trial_fwd_pps);
		out_f64(o, "forwarded_min_pps", NULL, c->trial_fwd_min);
		out_f64(o, "forwarded_max_pps", NULL, c->trial_fwd_max);
		out_f64(o, "loss_pct", NULL, c->trial_loss_pct);
		out_obj_end(o);
	}
	out_str(o, "verdict", NULL, report_verdict_name(c->verdict));
	out_f64(o, "diff_pct", NULL, c->diff_pct);
	out_obj_end(o);
}

void report_print(struct out *o, const struct report_model *m)
{
	out_str(o, "title", "%s\n\n", m->title);
	if (!out_is_json(o))
		print_tables(o, m);
	out_arr_start(o, "sizes");
	for (unsigned int s = 0; s < m->nsizes; s++)
		out_u64(o, NULL, NULL, m->sizes[s]);
	out_arr_end(o);
	out_arr_start(o, "runs");
	for (unsigned int r = 0; r < m->nruns && out_is_json(o); r++) {
		const struct rm_run *run = &m->run[r];

		out_obj_start(o, NULL);
		out_i64(o, "id", NULL, run->id);
		out_str(o, "label", NULL, run->label);
		out_str(o, "when", NULL, run->when);
		out_str(o, "test", NULL, run->test);
		out_str(o, "kernel", NULL, run->kernel);
		out_str(o, "config", NULL, run->config);
		if (run->cpu_line[0])
			out_str(o, "cpu_line_ns", NULL, run->cpu_line);
		else
			out_null(o, "cpu_line_ns");
		out_bool(o, "placement_moved", NULL, run->placement_moved);
		out_bool(o, "interrupted", NULL, run->interrupted);
		out_bool(o, "baseline", NULL, r == 0);
		out_arr_start(o, "cells");
		for (unsigned int k = 0; k < run->ncells; k++)
			json_cell(o, &run->cell[k]);
		out_arr_end(o);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (m->fail_pct >= 0) {
		out_f64(o, "fail_on_regression_pct", "\n  --fail-on-regression %g%%: ", m->fail_pct);
		out_bool(o, "regression", NULL, m->regression);
		out_text(o, "%s", m->regression ? "REGRESSION: a cell is worse than the baseline by more than that beyond noise"
						: "no regression beyond noise");
		for (unsigned int r = 0; r < m->nruns; r++)
			if (m->run[r].interrupted) {
				out_text(o, " (incomplete runs not counted)");
				break;
			}
		out_text(o, "\n");
	} else {
		out_null(o, "fail_on_regression_pct");
		out_bool(o, "regression", NULL, m->regression);
	}
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v, bool have)
{
	if (have && isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputs(",", f);
}

/* The columns that say which run a line is from. */
#define CSV_RUN_HEADER "run_id,label,when,test,kernel,config,interrupted"

static void csv_run(FILE *f, const struct rm_run *run)
{
	fprintf(f, "%lld,", (long long)run->id);
	csv_str(f, run->label);
	fprintf(f, ",%s,", run->when);
	csv_str(f, run->test);
	fputc(',', f);
	csv_str(f, run->kernel);
	fputc(',', f);
	csv_str(f, run->config);
	fprintf(f, ",%d", run->interrupted);
}

void report_csv(const struct report_model *m, FILE *f)
{
	fputs(CSV_RUN_HEADER ",size,repeats,ndr_median_pps,ndr_min_pps,"
	      "ndr_max_pps,width_pps,pdr_median_pps,line_pps,ndr_pct_line_rate,at_least,lat_min_ns,"
	      "lat_median_ns,lat_p99_ns,lat_p99_9_ns,lat_max_ns,ns_per_frame,b2b_frames,verdict,diff_pct,"
	      "trials,trial_offered_pps,trial_forwarded_pps,trial_forwarded_min_pps,trial_forwarded_max_pps,"
	      "trial_loss_pct\n", f);
	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		for (unsigned int k = 0; k < run->ncells; k++) {
			const struct rm_cell *c = &run->cell[k];

			csv_run(f, run);
			fprintf(f, ",%u,%u", c->size, c->repeats);
			csv_num(f, c->ndr_med, c->have_thr);
			csv_num(f, c->ndr_min, c->have_thr);
			csv_num(f, c->ndr_max, c->have_thr);
			csv_num(f, c->width_pps, c->have_thr);
			csv_num(f, c->pdr_med, c->pdr_med > 0);
			csv_num(f, c->line_pps, c->line_pps > 0);
			csv_num(f, c->line_pps > 0 ? c->ndr_med * 100 / c->line_pps : 0, c->have_thr && c->line_pps > 0);
			fprintf(f, ",%d", c->tester_limited);
			csv_num(f, c->lat_min, c->have_lat);
			csv_num(f, c->lat_median, c->have_lat);
			csv_num(f, c->lat_p99, c->have_lat);
			csv_num(f, c->lat_p999, c->have_lat);
			csv_num(f, c->lat_max, c->have_lat);
			csv_num(f, c->ns_per_frame, c->ns_per_frame > 0);
			csv_num(f, c->b2b_frames, c->b2b_frames > 0);
			fprintf(f, ",%s", report_verdict_name(c->verdict));
			csv_num(f, c->diff_pct, c->verdict >= RM_NOISE);
			csv_num(f, c->trials, c->have_trial);
			csv_num(f, c->trial_offered_pps, c->have_trial);
			csv_num(f, c->trial_fwd_pps, c->have_trial);
			csv_num(f, c->trial_fwd_min, c->have_trial);
			csv_num(f, c->trial_fwd_max, c->have_trial);
			csv_num(f, c->trial_loss_pct, c->have_trial);
			fputc('\n', f);
		}
	}
}

void report_csv_loss(const struct report_model *m, FILE *f)
{
	fputs(CSV_RUN_HEADER ",size,step,offered_pct,offered_pps,loss_pct\n", f);
	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		for (unsigned int k = 0; k < run->ncells; k++) {
			const struct rm_cell *c = &run->cell[k];

			for (unsigned int i = 0; i < c->nloss; i++) {
				csv_run(f, run);
				fprintf(f, ",%u,%u", c->size, i + 1);
				csv_num(f, c->loss[i].offered_pct, true);
				csv_num(f, c->loss[i].offered_pps, true);
				csv_num(f, c->loss[i].loss_pct, true);
				fputc('\n', f);
			}
		}
	}
}
