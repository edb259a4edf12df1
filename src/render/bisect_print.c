#include "render/bisect_print.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "render/trend_print.h"

static const char *num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 1e6)
		snprintf(buf, len, "%.3fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.2fk", v / 1e3);
	else
		snprintf(buf, len, "%.1f", v);
	return buf;
}

static void stamp(FILE *f)
{
	time_t t = time(NULL);
	struct tm tm;
	char b[16] = "";

	if (localtime_r(&t, &tm))
		strftime(b, sizeof(b), "%H:%M:%S", &tm);
	fprintf(f, "[%s] ", b);
}

void bisect_print_begin(FILE *f, const struct app_bisect *b, bool resumed)
{
	const struct app_bisect_spec *s = &b->spec;

	stamp(f);
	fprintf(f, "bisect #%" PRId64 " ", b->id);
	out_put_text(f, s->name, false);
	fprintf(f, "%s: %zu candidates (", resumed ? " resumed" : "", b->n);
	out_put_text(f, b->c[0].shown, false);
	fprintf(f, " .. ");
	out_put_text(f, b->c[b->n - 1].shown, false);
	fprintf(f, "), %s in %s, --repeat %u, up to %u measurements a candidate; logs in ",
		bisect_db_figure_name(s->figure), bisect_db_figure_unit(s->figure), s->repeat, s->max_rounds);
	out_put_text(f, s->logs, false);
	fprintf(f, "\n");
	fflush(f);
}

/* The median of a candidate's values, NAN when none. */
static double cand_median(const struct app_bisect_cand *c, struct interval *iv)
{
	if (!c->n || interval_median(c->v, c->n, INTERVAL_GOAL, iv))
		return NAN;
	return iv->median;
}

/* Candidate i's figure as the verdicts used it: an end's reference (its
 * measurements before the first candidate's, when the drift checks ran:
 * the later ones are checks of the host, not of the end), else all its
 * values. */
static double cand_figure(const struct app_bisect *b, size_t i, struct interval *iv)
{
	const struct bisect_state *st = &b->st;

	if (st->ordered && st->ends_known && (i == 0 || i + 1 == b->n)) {
		*iv = i ? st->bad_iv : st->good_iv;
		return iv->median;
	}
	return cand_median(&b->c[i], iv);
}

static void step(void *ctx, const struct app_bisect *b, size_t i, const char *what)
{
	const struct bisect_print_run *v = ctx;
	FILE *f = stdout;

	if (v->json)
		return;
	stamp(f);
	fprintf(f, "%zu/%zu ", i, b->n - 1);
	out_put_text(f, b->c[i].shown, false);
	fprintf(f, ": ");
	out_put_text(f, what, false);
	fprintf(f, "\n");
	fflush(f);
}

const struct app_bisect_hooks bisect_print_hooks = { .step = step };

static const char *action_name(enum bisect_action a)
{
	switch (a) {
	case BISECT_FOUND:
		return "found";
	case BISECT_RANGE:
		return "range";
	case BISECT_NO_DIFFERENCE:
		return "no-difference";
	case BISECT_END_FAILED:
		return "end-failed";
	default:
		return "running";
	}
}

static void cand_out(struct out *o, const struct app_bisect *b, size_t i)
{
	const struct app_bisect_cand *c = &b->c[i];
	struct interval iv = { 0 };
	double med = cand_figure(b, i, &iv);
	char m[24], lo[24], hi[24];

	out_obj_start(o, NULL);
	out_u64(o, "index", "  %3llu  ", i);
	out_str(o, "candidate", NULL, c->id);
	out_str(o, "shown", "%-34.34s", c->shown);
	out_str(o, "verdict", " %-8s", bisect_mark_name(b->marks[i]));
	if (c->n) {
		out_text(o, " %s%9s", c->bound ? ">=" : "  ", num(med, m, sizeof(m)));
		out_text(o, "  [%s, %s]", num(iv.lo, lo, sizeof(lo)), num(iv.hi, hi, sizeof(hi)));
		out_f64(o, "median", NULL, med);
		out_f64(o, "lo", NULL, iv.lo);
		out_f64(o, "hi", NULL, iv.hi);
		out_f64(o, "coverage", NULL, iv.coverage);
	} else {
		out_null(o, "median");
	}
	out_bool(o, "at_least", NULL, c->bound);
	out_u64(o, "values", c->n ? "  %llu values" : NULL, c->n);
	out_u64(o, "rounds", c->rounds ? ", %llu measurement(s)" : NULL, c->rounds);
	out_arr_start(o, "values_all");
	for (unsigned int k = 0; k < c->n; k++)
		out_f64(o, NULL, NULL, c->v[k]);
	out_arr_end(o);
	out_arr_start(o, "runs");
	for (unsigned int k = 0; k < c->nruns; k++)
		out_i64(o, NULL, k ? ",%lld" : ", runs %lld", c->runs[k]);
	out_arr_end(o);
	if (c->failed)
		out_str(o, "reason", "  (%s)", c->reason);
	else
		out_null(o, "reason");
	out_text(o, "\n");
	out_obj_end(o);
}

static void result_out(struct out *o, const struct app_bisect *b, const struct trend_change *diff)
{
	const struct bisect_state *st = &b->st;
	struct interval gi = { 0 }, bi = { 0 };
	char m1[24], m2[24], l1[24], h1[24], l2[24], h2[24];

	out_str(o, "result", "  result: %s", action_name(st->action));
	if (st->action == BISECT_FOUND || st->action == BISECT_RANGE) {
		const struct app_bisect_cand *g = &b->c[st->last_good], *x = &b->c[st->first_bad];
		double gm = cand_figure(b, st->last_good, &gi), xm = cand_figure(b, st->first_bad, &bi);

		/* first_bad is the first candidate measured bad; with skips
		 * between, range_from is where the first bad may begin */
		if (st->action == BISECT_RANGE) {
			out_u64(o, "range_from", ": the first bad is one of %llu", st->last_good + 1);
			out_u64(o, "first_bad", "..%llu (skipped between)", st->first_bad);
		} else
			out_u64(o, "first_bad", ": the first bad is %llu ", st->first_bad);
		out_str(o, "first_bad_candidate", NULL, x->id);
		out_str(o, "first_bad_shown", st->action == BISECT_FOUND ? "%s\n" : "\n", x->shown);
		out_u64(o, "last_good", NULL, st->last_good);
		out_str(o, "last_good_candidate", NULL, g->id);
		out_text(o, "    %s: %s [%s, %s] %s", b->c[st->first_bad].shown, num(xm, m2, sizeof(m2)),
			 num(bi.lo, l2, sizeof(l2)), num(bi.hi, h2, sizeof(h2)), bisect_db_figure_unit(b->spec.figure));
		out_text(o, " against the last good %s: %s [%s, %s]", g->shown, num(gm, m1, sizeof(m1)),
			 num(gi.lo, l1, sizeof(l1)), num(gi.hi, h1, sizeof(h1)));
		out_f64(o, "first_bad_median", NULL, xm);
		out_f64(o, "last_good_median", NULL, gm);
		out_f64(o, "change_pct", " (%+.1f%%)\n", gm > 0 ? (xm - gm) * 100 / gm : NAN);
		if (diff) {
			out_obj_start(o, "environment");
			trend_print_differed(o, diff);
			out_obj_end(o);
		}
	} else if (st->action == BISECT_NO_DIFFERENCE) {
		out_text(o, ": good and bad do not differ beyond their noise (their intervals overlap); nothing to "
			    "bisect: more --repeat narrows the intervals\n");
	} else if (st->action == BISECT_END_FAILED) {
		out_text(o, ": the %s end could not be measured: %s\n", st->next ? "bad" : "good", b->c[st->next].reason);
	} else {
		out_text(o, ": not finished ('wirerate bisect resume %" PRId64 "' goes on)\n", b->id);
	}
}

/* The drift checks: their limit, how many verdicts came from a pair, and
 * what the final look at the good end found. */
static void drift_out(struct out *o, const struct app_bisect *b)
{
	const struct bisect_state *st = &b->st;

	out_bool(o, "drift_checks", NULL, st->ordered);
	if (!st->ordered || !st->ends_known) {
		out_null(o, "drift_limit_pct");
		out_null(o, "final_drift_pct");
		return;
	}
	out_f64(o, "drift_limit_pct", "  drift checks: each candidate beside its nearer end; the host moved when an end is "
				      "beyond %.1f%%", st->limit_pct);
	out_f64(o, "noise_pct", " (3 x the ends' %.1f%% noise)", st->noise_pct);
	out_u64(o, "paired", "; judged on a paired difference: %llu\n", st->paired);
	if (!st->final_checked) {
		out_null(o, "final_drift_pct");
		return;
	}
	out_f64(o, "final_drift_pct", "  host drift: the good end %+.1f%% at the end against the ends' measurement",
		st->final_pct);
	out_bool(o, "drifted", st->drifted ? ": beyond the noise; a verdict by less than that is 'cannot tell'\n"
					   : ": within the noise\n", st->drifted);
}

void bisect_print_log(struct out *o, const struct app_bisect *b, const struct trend_change *diff)
{
	const struct app_bisect_spec *s = &b->spec;
	const struct bisect_state *st = &b->st;
	char sg[24];

	out_i64(o, "id", "bisect #%lld", b->id);
	out_str(o, "name", " %s:", s->name);
	out_u64(o, "candidates", " %llu candidates", b->n);
	out_str(o, "source", " (%s", s->tree[0] ? "git" : "kernels");
	if (s->tree[0])
		out_str(o, "tree", " in %s)", s->tree);
	else
		out_text(o, ")");
	out_str(o, "figure", ", %s", bisect_db_figure_name(s->figure));
	out_str(o, "unit", " in %s", bisect_db_figure_unit(s->figure));
	if (s->size)
		out_u64(o, "size", " at %llu bytes", s->size);
	out_u64(o, "repeat", ", --repeat %llu", s->repeat);
	out_u64(o, "max_rounds", ", up to %llu measurements a candidate\n", s->max_rounds);
	out_arr_start(o, "measure");
	out_text(o, "  measured with: wirerate");
	for (int i = 0; i < s->nmeasure; i++)
		out_str(o, NULL, " %s", s->measure[i]);
	out_arr_end(o);
	out_text(o, "\n");
	if (st->ends_known) {
		out_f64(o, "noise", NULL, st->sigma);
		out_text(o, "  noise: %s %s (the ends' spread, as the verdicts use it)\n", num(st->sigma, sg, sizeof(sg)),
			 bisect_db_figure_unit(s->figure));
	} else {
		out_null(o, "noise");
	}
	out_u64(o, "measured", "  candidates measured besides the ends: %llu\n", st->measured);
	drift_out(o, b);
	out_text(o, "\n    #  candidate                          verdict      median  interval           \n");
	out_arr_start(o, "steps");
	for (size_t i = 0; i < b->n; i++)
		if (b->c[i].n || b->c[i].rounds || b->c[i].failed || i == 0 || i + 1 == b->n)
			cand_out(o, b, i);
	out_arr_end(o);
	out_text(o, "\n");
	result_out(o, b, diff);
}
