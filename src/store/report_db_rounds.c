/* Runs in rounds made one column each: report_db_rounds_add and
 * report_db_rounds_finish (report_db.h). A matrix stores every
 * configuration's rounds as runs of one label, each with its round
 * (run.round); the report shows the configuration once, its figure over
 * the rounds, and report_db_compare pairs its rounds with the
 * baseline's. */
#include "store/report_db.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/interval.h"
#include "core/stat.h"

/* The store each column's runs came from, by column: a key. */
static uintptr_t store_of[RM_MAX_RUNS];

double report_db_rounds_figure(const struct rm_cell *c)
{
	if (c->have_thr)
		return c->ndr_med > 0 ? c->ndr_med : NAN;
	if (c->have_trial)
		return c->trial_fwd_pps > 0 ? c->trial_fwd_pps : NAN;
	if (c->have_stream)
		return c->st_recv_mbps > 0 ? c->st_recv_mbps : NAN;
	return NAN;
}

static void no_rounds(struct rm_cell *c)
{
	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		c->round_v[k] = c->round_sd[k] = NAN;
}

/* The column of r's label, test and store that has rounds, or -1. */
static int column_of(const struct report_model *m, const struct rm_run *r, uintptr_t store)
{
	for (unsigned int j = 0; j < m->nruns; j++) {
		const struct rm_run *c = &m->run[j];

		if (c->nrounds && store_of[j] == store && !strcmp(c->label, r->label) && !strcmp(c->test, r->test))
			return (int)j;
	}
	return -1;
}

int report_db_rounds_add(struct report_model *m, const struct rm_run *r, unsigned int round, uintptr_t store,
			 char *err, size_t errlen)
{
	int j = round && r->label[0] ? column_of(m, r, store) : -1;
	struct rm_run *col;

	if (j < 0) {
		if (m->nruns == RM_MAX_RUNS) {
			snprintf(err, errlen, "more than %d runs (or configurations) in one report", RM_MAX_RUNS);
			return -E2BIG;
		}
		store_of[m->nruns] = store;
		col = &m->run[m->nruns++];
		*col = *r;
		col->nrounds = 0;
		for (unsigned int k = 0; k < col->ncells; k++)
			no_rounds(&col->cell[k]);
	} else {
		col = &m->run[j];
		for (unsigned int k = 0; k < col->nrounds; k++)
			if (col->round_no[k] == round) {
				snprintf(err, errlen, "runs %lld and %lld are both round %u of '%s'",
					 (long long)col->round_id[k], (long long)r->id, round, r->label);
				return -EINVAL;
			}
		/* a round stopped short makes the whole column so */
		col->interrupted |= r->interrupted;
	}
	if (!round)
		return 0;
	if (col->nrounds < RM_MAX_ROUNDS) {
		col->round_id[col->nrounds] = r->id;
		col->round_no[col->nrounds++] = round;
	}
	for (unsigned int k = 0; k < r->ncells; k++) {
		struct rm_cell *c = (struct rm_cell *)report_model_cell_of(col, r->cell[k].size);

		if (!c) {
			if (col->ncells == RM_MAX_SIZES)
				continue;
			c = &col->cell[col->ncells++];
			*c = r->cell[k];
			no_rounds(c);
		}
		c->round_v[round - 1] = report_db_rounds_figure(&r->cell[k]);
		c->round_sd[round - 1] = r->cell[k].have_stream && r->cell[k].st_dut_sd > 0 ? r->cell[k].st_dut_sd : NAN;
		/* a bound in any round makes the column's a bound */
		if (c != &r->cell[k])
			c->tester_limited |= r->cell[k].tester_limited;
	}
	return 0;
}

/* The least and the most of v[0..n). */
static void range_of(const double *v, unsigned int n, double *lo, double *hi)
{
	*lo = *hi = v[0];
	for (unsigned int k = 1; k < n; k++) {
		*lo = fmin(*lo, v[k]);
		*hi = fmax(*hi, v[k]);
	}
}

/* Cell c's figure over its rounds: the median, the range and the
 * interval of the median, in place of the first round's. */
static void over_rounds(struct rm_cell *c)
{
	double v[RM_MAX_ROUNDS];
	unsigned int n = 0;
	struct interval iv;
	double med;

	for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
		if (isfinite(c->round_v[k]))
			v[n++] = c->round_v[k];
	if (n < 2 || interval_median(v, n, INTERVAL_GOAL, &iv))
		return;
	med = stat_median(v, n, NULL, NULL);
	if (c->have_thr) {
		c->ndr_med = med;
		c->ndr_iv = iv;
		range_of(v, n, &c->ndr_min, &c->ndr_max);
		c->repeats = n;
	} else if (c->have_trial) {
		c->trial_fwd_pps = med;
		range_of(v, n, &c->trial_fwd_min, &c->trial_fwd_max);
		c->trials = n;
	} else if (c->have_stream) {
		c->st_recv_mbps = med;
		range_of(v, n, &c->st_recv_min, &c->st_recv_max);
		c->stream_runs = n;
		n = 0;
		for (unsigned int k = 0; k < RM_MAX_ROUNDS; k++)
			if (isfinite(c->round_sd[k]))
				v[n++] = c->round_sd[k];
		/* the DUT's cost the same median, per datagram too */
		if (n) {
			c->st_dut_sd = stat_median(v, n, NULL, NULL);
			c->ns_per_frame = c->st_dut_sd * 1000 * c->size / 1024;
		}
	}
}

void report_db_rounds_finish(struct report_model *m)
{
	for (unsigned int j = 0; j < m->nruns; j++)
		for (unsigned int k = 0; m->run[j].nrounds > 1 && k < m->run[j].ncells; k++)
			over_rounds(&m->run[j].cell[k]);
}
