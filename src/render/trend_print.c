#include "render/trend_print.h"

#include <stdio.h>


static const char *pps(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.3fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.2fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

void trend_print_differed(struct out *o, const struct trend_change *c)
{
	out_arr_start(o, "differed");
	for (unsigned int i = 0; i < c->ndiff; i++) {
		const struct trend_diff *d = &c->diff[i];

		out_obj_start(o, NULL);
		if (!i || d->steady != c->diff[i - 1].steady)
			out_text(o, "%s    %s", i ? "\n" : "", d->steady ? "what differed, the same on each side:" :
								 "also differed between the two runs:");
		out_str(o, "key", " %s", d->key);
		if (d->before[0])
			out_str(o, "before", " %s", d->before);
		else
			out_null(o, "before");
		out_text(o, "%s -> ", d->before[0] ? "" : " (none)");
		if (d->after[0])
			out_str(o, "after", "%s", d->after);
		else
			out_null(o, "after");
		out_text(o, "%s", d->after[0] ? "" : "(none)");
		out_bool(o, "steady", NULL, d->steady);
		out_text(o, "%s", i + 1 < c->ndiff && d->steady == c->diff[i + 1].steady ? ";" : "");
		out_obj_end(o);
	}
	out_arr_end(o);
	out_bool(o, "more", c->more ? " (and more)" : NULL, c->more);
	out_text(o, "%s", c->ndiff ? "\n" : "    nothing in the runs' environment differed\n");
}

void trend_print(struct out *o, const struct trend *t, double fail_pct, bool regression)
{
	char a[32], b[32];
	double noise_pct = 0, sum = 0;

	for (size_t i = 0; i < t->n; i++)
		sum += t->p[i].value;
	if (t->n && sum > 0)
		noise_pct = t->sigma * 100 / (sum / (double)t->n);
	out_str(o, "test", "wirerate trend: %s, ", t->test);
	out_u64(o, "size", "%llu-byte frames, ", t->size);
	out_str(o, "metric", NULL, t->trials ? "forwarded" : "ndr");
	if (t->trials)
		out_f64(o, "offered_pps", "frames/s forwarded of %.0f offered", t->offered_pps);
	else
		out_text(o, "NDR (frames/s, median of repeats)");
	out_u64(o, "runs", "; %llu runs", t->n);
	out_u64(o, "groups", ", %llu group(s)", t->nc + 1);
	out_f64(o, "noise_pps", NULL, t->sigma);
	out_f64(o, "noise_pct", ", run-to-run noise %.2f%%", noise_pct);
	out_u64(o, "skipped", t->skipped ? " (%llu run(s) left out: another size or load, or tester-limited)" : NULL,
		t->skipped);
	out_text(o, "\n\n     run  started                    label                  frames/s  group\n");
	out_arr_start(o, "points");
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_point *p = &t->p[i];

		out_obj_start(o, NULL);
		out_i64(o, "id", NULL, p->id);
		out_str(o, "ref", "  #%-6s", p->ref);
		if (p->when[0])
			out_str(o, "when", "%-26s", p->when);
		else
			out_null(o, "when");
		out_str(o, "label", " %-20.20s", p->label);
		out_text(o, " %s%9s", p->bound ? ">=" : "  ", pps(p->value, a, sizeof(a)));
		out_f64(o, "value_pps", NULL, p->value);
		out_bool(o, "at_least", NULL, p->bound);
		out_u64(o, "group", "  %llu\n", p->group + 1);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_text(o, "\n");
	out_arr_start(o, "changes");
	for (size_t g = 0; g < t->nc; g++) {
		const struct trend_change *c = &t->c[g];
		const struct trend_point *p = &t->p[c->at];

		out_obj_start(o, NULL);
		out_i64(o, "run_id", NULL, p->id);
		out_str(o, "ref", "  change at run #%s", p->ref);
		out_u64(o, "index", NULL, c->at);
		if (!out_is_json(o))	/* the label escaped, as out_str does */
			out_str(o, NULL, " (%s", p->label);
		out_text(o, "%s%s)", p->label[0] && p->when[0] ? ", " : "", p->when);
		out_f64(o, "before_pps", NULL, c->before);
		out_f64(o, "after_pps", NULL, c->after);
		out_text(o, ": %s -> %s", pps(c->before, a, sizeof(a)), pps(c->after, b, sizeof(b)));
		out_f64(o, "pct", " (%+.1f%%)", c->pct);
		out_str(o, "verdict", ", %s\n", c->worse ? "worse" : "better");
		trend_print_differed(o, c);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!t->nc)
		out_text(o, "  no change beyond the noise\n");
	if (fail_pct >= 0) {
		out_f64(o, "fail_on_regression_pct", "  --fail-on-regression %g%%: ", fail_pct);
		out_text(o, "%s\n", regression ? "REGRESSION: the last change is worse by more than that" :
						 "no regression at the last change");
	} else {
		out_null(o, "fail_on_regression_pct");
	}
	out_bool(o, "regression", NULL, regression);
}
