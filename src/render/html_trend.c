/* The page of report --trend --html: the series as a chart with its
 * groups' means and its changes marked, and a table of the changes with
 * what differed. The same head, style and escaping as the report's page
 * (html.c). */
#include "render/html_trend.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/html_impl.h"
#include "store/trend_model.h"
#include "wr_config.h"
#include "wr_revision.h"

#define TREND_CAT_LABELS 40	/* x labels at most: every k-th run beyond */

static void trend_chart(struct page *p, const struct trend *t)
{
	static const char *const legend[] = { "run (a group's shape and colour)", "group mean",
					      "change" };
	struct svgc c;
	const char **cats = calloc(t->n, sizeof(*cats));
	char (*cat)[24] = calloc(t->n, sizeof(*cat)), tip[256], v[32];
	const char *unit;
	double top = 0, scale;
	size_t every;

	if (!cats || !cat) {
		free(cats);
		free(cat);
		return;
	}
	every = t->n > TREND_CAT_LABELS ? (t->n + TREND_CAT_LABELS - 1) / TREND_CAT_LABELS : 1;
	for (size_t i = 0; i < t->n; i++) {
		top = fmax(top, t->p[i].value);
		if (i % every == 0)
			snprintf(cat[i], sizeof(cat[i]), "#%lld", (long long)t->p[i].id);
		cats[i] = cat[i];
	}
	scale = svg_pps_unit(top, &unit);
	snprintf(v, sizeof(v), "%s (%s)", t->trials ? "Forwarded" : "NDR", unit);
	fputs("<figure>", p->f);
	svg_begin(&c, p->f, "chart", CHART_W, 340, legend, 3, "The figure over the runs, with its groups");
	svg_axis_linear(&c.y, 0, fmax(top / scale, 1e-3) * 1.05, 6);
	c.y.label = v;
	c.x.label = "Runs, oldest first";
	svg_axes(&c, cats, (unsigned int)t->n);
	/* each group's mean as a dashed line across its runs */
	for (size_t g = 0, start = 0; g <= t->nc; g++) {
		size_t end = g < t->nc ? t->c[g].at : t->n;
		double mean = 0, xs[2], ys[2];

		for (size_t i = start; i < end; i++)
			mean += t->p[i].value;
		mean /= (double)(end - start ? end - start : 1);
		xs[0] = svg_xcat(&c, (unsigned int)start) - svg_catw(&c) / 2;
		xs[1] = svg_xcat(&c, (unsigned int)(end - 1)) + svg_catw(&c) / 2;
		ys[0] = ys[1] = svg_yv(&c, mean / scale);
		svg_line(&c, xs, ys, 2, svg_colour(1), true);
		start = end;
	}
	/* each change as a line down the plot between its two runs */
	for (size_t g = 0; g < t->nc; g++) {
		double xs[2], ys[2] = { c.py0, c.py1 };

		xs[0] = xs[1] = svg_xcat(&c, (unsigned int)t->c[g].at) - svg_catw(&c) / 2;
		svg_line(&c, xs, ys, 2, svg_colour(2), false);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_point *pt = &t->p[i];

		svg_fmt_pps(v, sizeof(v), pt->value);
		snprintf(tip, sizeof(tip), "#%s %.64s %s: %s%s (group %u)", pt->ref, pt->label, pt->when,
			 pt->bound ? "≥ " : "", v, pt->group + 1);
		svg_marker(&c, svg_xcat(&c, (unsigned int)i), svg_yv(&c, pt->value / scale),
			    svg_shape_of(pt->group), svg_colour(pt->group % 2 ? 3 : 0), pt->bound, tip);
	}
	svg_legend(&c, legend, 3, true);
	svg_end(&c);
	fputs("<figcaption>One marker per run, in time; runs of one group share a shape. Dashed: each "
	      "group's mean. A solid line down the chart: a change beyond the run-to-run noise. Hover a "
	      "marker for its run.</figcaption></figure>\n", p->f);
	free(cats);
	free(cat);
}

int html_trend_write(const struct trend *t, FILE *f, char *err, size_t errlen)
{
	struct page p = { .f = f };
	char title[160], a[32], b[32];

	if (!t || !f || !t->n) {
		snprintf(err, errlen, "no series or no file to write it to");
		return -EINVAL;
	}
	errno = 0;
	snprintf(title, sizeof(title), "wirerate trend: %.32s, %u-byte frames, %zu runs", t->test, t->size, t->n);
	html_head(&p, title);
	fputs("<header class=\"top\"><h1>", f);
	html_esc(&p, title, sizeof(title));
	fprintf(f, "</h1><p class=\"sub\">%s; %zu group%s, %zu change%s beyond the run-to-run noise (",
		t->trials ? "frames/s forwarded of the same offered load" : "NDR (median of repeats)", t->nc + 1,
		t->nc ? "s" : "", t->nc, t->nc == 1 ? "" : "s");
	svg_fmt_pps(a, sizeof(a), t->sigma);
	html_esc(&p, a, sizeof(a));
	fputs(").</p></header>\n<section><h2>The series</h2>\n", f);
	trend_chart(&p, t);
	fputs("</section>\n<section><h2>Changes</h2>\n", f);
	if (!t->nc)
		fputs("<p class=\"note\">No change beyond the noise.</p>\n", f);
	else
		fputs("<div class=\"wrap\"><table class=\"runs\"><thead><tr><th>At run</th><th>Label</th>"
		      "<th>Time</th><th>Before</th><th>After</th><th>Change</th><th>What differed</th>"
		      "</tr></thead><tbody>\n", f);
	for (size_t g = 0; g < t->nc; g++) {
		const struct trend_change *c = &t->c[g];
		const struct trend_point *pt = &t->p[c->at];

		svg_fmt_pps(a, sizeof(a), c->before);
		svg_fmt_pps(b, sizeof(b), c->after);
		fprintf(f, "<tr><th>#%s</th><td>", pt->ref);
		html_esc(&p, pt->label, sizeof(pt->label));
		fputs("</td><td>", f);
		html_esc(&p, pt->when, sizeof(pt->when));
		fputs("</td><td class=\"num\">", f);
		html_esc(&p, a, sizeof(a));
		fputs("</td><td class=\"num\">", f);
		html_esc(&p, b, sizeof(b));
		fprintf(f, "</td><td class=\"num\">%+.1f%% %s</td><td>", isfinite(c->pct) ? c->pct : 0,
			c->worse ? "worse" : "better");
		for (unsigned int i = 0; i < c->ndiff; i++) {
			const struct trend_diff *d = &c->diff[i];

			fputs(i ? "<br>" : "", f);
			fputs(d->steady ? "<b>" : "", f);
			html_esc(&p, d->key, sizeof(d->key));
			fputs(d->steady ? "</b>: " : ": ", f);
			html_esc(&p, d->before[0] ? d->before : "(none)", sizeof(d->before));
			fputs(" → ", f);
			html_esc(&p, d->after[0] ? d->after : "(none)", sizeof(d->after));
		}
		fputs(c->ndiff ? "" : "<span class=\"na\">nothing in the environment</span>", f);
		fputs("</td></tr>\n", f);
	}
	if (t->nc)
		fputs("</tbody></table></div><p class=\"note\">In bold: keys with the same value in every run "
		      "on each side of the change, what explains a step.</p>\n", f);
	fprintf(f, "</section>\n<footer>Generated by wirerate %s (%s). Changes are found by optimal "
		"partitioning with a penalty per change (docs/runs.md).</footer>\n</main>\n</body>\n</html>\n",
		WR_VERSION, WR_REVISION);
	if (fflush(f) || ferror(f)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "writing the HTML trend: %s", strerror(e));
		return -e;
	}
	return 0;
}
