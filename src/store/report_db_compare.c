/* Each cell of a loaded report compared with the baseline's (the first
 * run): report_db_compare (report_db.h). The verdict rule is in
 * docs/store.md. */
#include "store/report_db.h"

#include <math.h>
#include <stdbool.h>

#include "core/interval.h"
#include "core/stat.h"
#include "os/cpulat.h"

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

static void compare_trial(unsigned int r, struct rm_cell *c, const struct rm_cell *b)
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
	c->worse_by_pct = (blo - chi) * 100 / b->trial_fwd_pps;
}

/* A stream's received throughput against the baseline's: ranges apart by
 * more than STREAM_BAND of the baseline are a change (one run is no
 * measure of its own spread: -I's runs give one, and a stream's figure
 * moves by more than a trial's from run to run). */
#define STREAM_BAND 0.05

static void compare_stream(unsigned int r, struct rm_cell *c, const struct rm_cell *b)
{
	double blo, bhi;

	if (r == 0) {
		c->verdict = RM_BASELINE;
		return;
	}
	c->verdict = RM_NONE;
	if (!b || !b->have_stream || !(b->st_recv_mbps > 0))
		return;
	blo = b->st_recv_min - STREAM_BAND * b->st_recv_mbps;
	bhi = b->st_recv_max + STREAM_BAND * b->st_recv_mbps;
	c->diff_pct = (c->st_recv_mbps - b->st_recv_mbps) * 100 / b->st_recv_mbps;
	c->verdict = c->st_recv_min > bhi ? RM_BETTER : c->st_recv_max < blo ? RM_WORSE : RM_NOISE;
	c->worse_by_pct = (blo - c->st_recv_max) * 100 / b->st_recv_mbps;
}

/* An NDR against the baseline's: intervals apart are a change;
 * overlapping ones are noise. An "at least" figure is a bound, never a
 * value: it is better only above the other's whole interval, the other
 * worse only below its lowest, else not comparable. */
static void compare_ndr(unsigned int r, struct rm_cell *c, const struct rm_cell *b)
{
	double blo, bhi, clo, chi;

	if (!c->have_thr || !b || !b->have_thr || !(b->ndr_med > 0)) {
		c->verdict = r == 0 && c->have_thr ? RM_BASELINE : RM_NONE;
		return;
	}
	if (r == 0) {
		c->verdict = RM_BASELINE;
		return;
	}
	c->diff_pct = (c->ndr_med - b->ndr_med) * 100 / b->ndr_med;
	report_db_band(b, &blo, &bhi);
	report_db_band(c, &clo, &chi);
	struct interval bi = { .n = 1, .median = b->ndr_med, .lo = blo, .hi = bhi };
	struct interval ci = { .n = 1, .median = c->ndr_med, .lo = clo, .hi = chi };
	struct interval_verdict iv;

	interval_compare(&ci, c->tester_limited, &bi, b->tester_limited, &iv);
	c->verdict = iv.cmp == ICMP_HIGHER ? RM_BETTER : iv.cmp == ICMP_LOWER ? RM_WORSE :
		     iv.cmp == ICMP_OVERLAP ? RM_NOISE : RM_NOT_COMPARABLE;
	c->diff_at_least = iv.at_least;
	c->worse_by_pct = (blo - chi) * 100 / b->ndr_med;
}

/* Rounds: the figures of the rounds both have, the baseline's in bv. */
static unsigned int common_rounds(const struct rm_cell *c, const struct rm_cell *b, double *bv, double *cv)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		if (isfinite(b->round_v[k]) && isfinite(c->round_v[k])) {
			bv[n] = b->round_v[k];
			cv[n++] = c->round_v[k];
		}
	return n;
}

/* The baseline's drift: its rounds' range over their median, percent;
 * 0 with fewer than two. */
static double drift_of(const struct rm_cell *b)
{
	double lo = INFINITY, hi = -INFINITY, v[RM_MAX_ROUNDS];
	unsigned int n = 0;

	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		if (isfinite(b->round_v[k])) {
			v[n++] = b->round_v[k];
			lo = fmin(lo, b->round_v[k]);
			hi = fmax(hi, b->round_v[k]);
		}
	return n < 2 ? 0 : (hi - lo) * 100 / stat_median(v, n, NULL, NULL);
}

/* A stream's DUT service demand in the rounds both have, paired: more
 * CPU per KB is worse. */
static void by_rounds_sd(struct rm_cell *c, const struct rm_cell *b)
{
	double bv[RM_MAX_ROUNDS], cv[RM_MAX_ROUNDS];
	unsigned int n = 0;

	c->have_paired_sd = false;
	c->sd_verdict = RM_NONE;
	if (!c->have_stream || !b->have_stream)
		return;
	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		if (isfinite(b->round_sd[k]) && isfinite(c->round_sd[k])) {
			bv[n] = b->round_sd[k];
			cv[n++] = c->round_sd[k];
		}
	if (n < 2)
		return;
	paired_compare(bv, cv, n, -1, &c->paired_sd);
	c->have_paired_sd = true;
	c->sd_verdict = c->paired_sd.verdict == PAIRED_BETTER ? RM_WORSE : c->paired_sd.verdict == PAIRED_WORSE ?
			RM_BETTER : c->paired_sd.verdict == PAIRED_SAME ? RM_NOISE : RM_CANNOT_TELL;
}

/* A cell compared with a baseline that has rounds. With two rounds or
 * more in common, neither a bound and (plain trials) the same load, the
 * verdict is the paired one. Else the baseline's drift: a verdict by
 * less than the baseline moved by itself is none that can be told. */
static void by_rounds(struct rm_cell *c, const struct rm_cell *b)
{
	double bv[RM_MAX_ROUNDS], cv[RM_MAX_ROUNDS];
	unsigned int n;

	c->have_paired = false;
	c->drift_pct = drift_of(b);
	by_rounds_sd(c, b);
	if (c->verdict == RM_NONE || c->verdict == RM_NOT_COMPARABLE || c->tester_limited || b->tester_limited)
		return;
	if ((n = common_rounds(c, b, bv, cv)) >= 2) {
		paired_compare(bv, cv, n, -1, &c->paired);
		c->have_paired = true;
		c->diff_pct = c->paired.diff_pct;
		c->verdict = c->paired.verdict == PAIRED_BETTER ? RM_BETTER : c->paired.verdict == PAIRED_WORSE ?
			     RM_WORSE : c->paired.verdict == PAIRED_SAME ? RM_NOISE : RM_CANNOT_TELL;
		c->worse_by_pct = -c->paired.hi_pct;
		return;
	}
	if ((c->verdict == RM_BETTER || c->verdict == RM_WORSE) && fabs(c->diff_pct) <= c->drift_pct)
		c->verdict = RM_CANNOT_TELL;
}

void report_db_compare(struct report_model *m, double fail_pct)
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
			const struct rm_cell *b = report_model_cell_of(&m->run[0], c->size);

			c->diff_pct = 0;
			c->diff_at_least = false;
			c->worse_by_pct = 0;
			c->have_paired = false;
			c->have_paired_sd = false;
			c->sd_verdict = RM_NONE;
			c->drift_pct = 0;
			if (!c->have_thr && c->have_stream)
				compare_stream(r, c, b);
			else if (!c->have_thr && c->have_trial)
				compare_trial(r, c, b);
			else
				compare_ndr(r, c, b);
			if (r && b && m->run[0].nrounds)
				by_rounds(c, b);
			if (c->verdict == RM_WORSE && fail_pct >= 0 && counts(m, r) && c->worse_by_pct > fail_pct)
				m->regression = true;
		}
	}
}
