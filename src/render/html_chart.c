/* The HTML report's four charts (throughput, loss, latency, DUT CPU),
 * each a section of inline SVG drawn with svg.h; html.c writes the
 * rest of the page. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/html_impl.h"
#include "core/ns.h"

/* A chart's section with no data says so in a note and ends: true. */
static bool none(struct page *p, bool nodata, const char *what)
{
	if (nodata)
		fprintf(p->f, "<p class=\"note\">%s</p></section>\n", what);
	return nodata;
}

/* (a) Throughput against frame size: a line per run, error bars over the
 * repeats, hollow markers where the tester was the limit. */
static void chart_thr(struct page *p)
{
	bool pct = true, any = false;
	double maxpct = 0, maxpps = 0, scale = 1;
	const char *unit = "pps";
	char ylabel[64], tip[256], v[32], range[80];
	struct svgc c;

	fputs("<section class=\"chapter\"><h2>Throughput against frame size</h2>\n", p->f);
	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *cl = html_thr_at(p, r, s);
			double top;

			if (!cl)
				continue;
			any = true;
			pct = pct && html_ok(cl->line_pps);
			top = cl->repeats > 1 && isfinite(cl->ndr_max) ? fmax(cl->ndr_max, cl->ndr_med)
								      : cl->ndr_med;
			maxpps = fmax(maxpps, top);
			maxpct = html_ok(cl->line_pps) ? fmax(maxpct, top * 100 / cl->line_pps) : maxpct;
		}
	if (none(p, !any, "No run has throughput figures: nothing to chart."))
		return;
	scale = svg_pps_unit(maxpps, &unit);
	snprintf(ylabel, sizeof(ylabel), pct ? "Throughput (%% of line rate)" : "Throughput (%s)",
		 unit);
	fputs("<figure>", p->f);
	svg_begin(&c, p->f, "chart", CHART_W, 340, p->names, p->nruns, "Throughput against frame size");
	svg_axis_linear(&c.y, 0, pct ? fmax(maxpct, 10) : fmax(maxpps / scale, 1e-3), 6);
	c.y.label = ylabel;
	c.x.label = "Frame size (bytes, with FCS)";
	svg_axes(&c, p->cats, p->nsizes);
	for (unsigned int r = 0; r < p->nruns; r++) {
		double xs[RM_MAX_SIZES], ys[RM_MAX_SIZES];
		const char *col = svg_colour(r);

		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *cl = html_thr_at(p, r, s);
			double k;

			xs[s] = ys[s] = NAN;
			if (!cl)
				continue;
			k = pct ? 100 / cl->line_pps : 1 / scale;
			/* runs side by side, a few units apart, so equal figures
			 * (every run at 100%) do not hide each other */
			xs[s] = svg_xcat(&c, s) + (r - (p->nruns - 1) / 2.0) *
				fmin(4, svg_catw(&c) * 0.3 / p->nruns);
			ys[s] = svg_yv(&c, cl->ndr_med * k);
			if (cl->repeats > 1)
				svg_errbar(&c, xs[s], svg_yv(&c, cl->ndr_min * k),
					    svg_yv(&c, cl->ndr_max * k), col);
		}
		svg_line(&c, xs, ys, p->nsizes, col, false);
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *cl = html_thr_at(p, r, s);

			if (!cl || !isfinite(ys[s]))
				continue;
			html_fmt_thr(v, sizeof(v), cl, cl->ndr_med);
			html_fmt_range(range, sizeof(range), cl);
			snprintf(tip, sizeof(tip), "%s, %u B: %s%s%s%s%s", p->name[r], cl->size,
				 cl->tester_limited ? "≥ " : "", v, range[0] ? " (" : "", range,
				 range[0] ? ")" : "");
			svg_marker(&c, xs[s], ys[s], svg_shape_of(r), col, cl->tester_limited, tip);
		}
	}
	svg_legend(&c, p->names, p->nruns, true);
	svg_end(&c);
	fprintf(p->f, "<figcaption>Loss-free rate (NDR, median of the repeats) per frame size, "
		"%s. Bars: the range over repeats. A hollow marker: the tester's own ceiling, the "
		"DUT did at least this. Hover a marker for its figures.</figcaption></figure>"
		"</section>\n", pct ? "as a percentage of line rate" : "in frames per second");
}

/* (b) Loss against offered load, one small chart per frame size. */
static int cmp_load(const void *a, const void *b)
{
	const struct rm_loss_point *x = a, *y = b;

	if (x->offered_pct != y->offered_pct)
		return (x->offered_pct > y->offered_pct) - (x->offered_pct < y->offered_pct);
	return (x->offered_pps > y->offered_pps) - (x->offered_pps < y->offered_pps);
}

static void chart_loss_one(struct page *p, unsigned int size)
{
	bool pct = true;
	double xmax = 0, xmin = INFINITY, ymax = 0, scale = 1;
	const char *unit = "pps";
	char xlabel[64], title[64], tip[200];
	struct svgc c;

	for (unsigned int r = 0; r < p->nruns; r++) {
		const struct rm_cell *cl = html_cell_of(p, r, size);

		for (unsigned int i = 0; cl && i < cl->nloss && i < RM_MAX_LOSS; i++)
			if (!html_ok(cl->loss[i].offered_pct))
				pct = false;
	}
	for (unsigned int r = 0; r < p->nruns; r++) {
		const struct rm_cell *cl = html_cell_of(p, r, size);

		for (unsigned int i = 0; cl && i < cl->nloss && i < RM_MAX_LOSS; i++) {
			const struct rm_loss_point *l = &cl->loss[i];
			double x = pct ? l->offered_pct : l->offered_pps;

			if (isfinite(x)) {
				xmax = fmax(xmax, x);
				xmin = fmin(xmin, x);
			}
			if (isfinite(l->loss_pct))
				ymax = fmax(ymax, l->loss_pct);
		}
	}
	if (!pct) {
		scale = svg_pps_unit(xmax, &unit);
		xmax /= scale;
		xmin /= scale;
	}
	snprintf(xlabel, sizeof(xlabel), pct ? "Offered load (%% of maximum)" : "Offered load (%s)",
		 unit);
	snprintf(title, sizeof(title), "Frame loss against offered load, %u-byte frames", size);
	fprintf(p->f, "<figure><h3>%u-byte frames</h3>", size);
	svg_begin(&c, p->f, "chart", SMALL_W, 230, NULL, 0, title);
	svg_axis_linear(&c.x, isfinite(xmin) && xmin < xmax ? xmin : 0, xmax, 5);
	svg_axis_linear(&c.y, 0, ymax > 0 ? ymax : 1, 5);
	c.x.label = xlabel;
	c.y.label = "Frame loss (%)";
	svg_axes(&c, NULL, 0);
	for (unsigned int r = 0; r < p->nruns; r++) {
		const struct rm_cell *cl = html_cell_of(p, r, size);
		struct rm_loss_point pts[RM_MAX_LOSS];
		double xs[RM_MAX_LOSS], ys[RM_MAX_LOSS];
		unsigned int n = 0;

		for (unsigned int i = 0; cl && i < cl->nloss && i < RM_MAX_LOSS; i++) {
			const struct rm_loss_point *l = &cl->loss[i];

			if (isfinite(l->offered_pct) && isfinite(l->offered_pps) && isfinite(l->loss_pct))
				pts[n++] = *l;
		}
		if (!n)
			continue;
		/* the test steps down from the maximum; a line reads left to right */
		qsort(pts, n, sizeof(pts[0]), cmp_load);
		for (unsigned int i = 0; i < n; i++) {
			xs[i] = svg_xv(&c, pct ? pts[i].offered_pct : pts[i].offered_pps / scale);
			ys[i] = svg_yv(&c, pts[i].loss_pct);
		}
		svg_line(&c, xs, ys, n, svg_colour(r), false);
		for (unsigned int i = 0; i < n; i++) {
			char pps[32];

			svg_fmt_pps(pps, sizeof(pps), pts[i].offered_pps);
			snprintf(tip, sizeof(tip), "%s, %u B: %.3g%% loss at %.0f%% load (%s)",
				 p->name[r], size, pts[i].loss_pct, pts[i].offered_pct, pps);
			svg_marker(&c, xs[i], ys[i], svg_shape_of(r), svg_colour(r), false, tip);
		}
	}
	svg_end(&c);
	fputs("</figure>\n", p->f);
}

static void chart_loss(struct page *p)
{
	unsigned int with[RM_MAX_SIZES], n = 0;
	struct svgc c;

	fputs("<section class=\"chapter\"><h2>Frame loss against offered load</h2>\n", p->f);
	for (unsigned int s = 0; s < p->nsizes; s++)
		for (unsigned int r = 0; r < p->nruns; r++) {
			const struct rm_cell *cl = html_cell_of(p, r, p->m->sizes[s]);

			if (cl && cl->nloss) {
				with[n++] = p->m->sizes[s];
				break;
			}
		}
	if (none(p, !n, "No run has a frame loss test (rfc2544 loss): nothing to chart."))
		return;
	svg_begin(&c, p->f, "legend", CHART_W, 0, p->names, p->nruns, "Runs");
	svg_legend(&c, p->names, p->nruns, true);
	svg_end(&c);
	fputs("<div class=\"grid\">\n", p->f);
	for (unsigned int i = 0; i < n; i++)
		chart_loss_one(p, with[i]);
	fputs("</div><figcaption>RFC 2544 frame loss rate test: the share of frames lost at each "
	      "offered load, one chart per frame size, one line per run. Lower is better; a line "
	      "that stays at 0 up to 100% is a DUT that keeps up.</figcaption></section>\n", p->f);
}

/* (c) Latency percentiles: one mark per run and size on a log scale. */
static const char *const lat_name[5] = { "min", "median", "p99", "p99.9", "max" };

/* The cell's percentiles in µs, or NULL when it has no latency. */
static const struct rm_cell *lat_at(const struct page *p, unsigned int r, unsigned int s,
				    double us[5])
{
	const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

	if (!c || !c->have_lat || !html_ok(c->lat_median))
		return NULL;
	us[0] = ns_to_us(c->lat_min);
	us[1] = ns_to_us(c->lat_median);
	us[2] = ns_to_us(c->lat_p99);
	us[3] = ns_to_us(c->lat_p999);
	us[4] = ns_to_us(c->lat_max);
	return c;
}

static void chart_lat(struct page *p)
{
	double lo = INFINITY, hi = 0, us[5];
	struct svgc c;

	fputs("<section class=\"chapter\"><h2>Latency percentiles</h2>\n", p->f);
	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++)
			for (int k = 0; lat_at(p, r, s, us) && k < 5; k++)
				if (html_ok(us[k])) {
					lo = fmin(lo, us[k]);
					hi = fmax(hi, us[k]);
				}
	if (none(p, !(hi > 0), "No run has latency figures (rfc2544 latency): nothing to chart."))
		return;
	fputs("<figure>", p->f);
	svg_begin(&c, p->f, "chart", CHART_W, 360, p->names, p->nruns, "Latency percentiles by frame size");
	svg_axis_log(&c.y, lo, hi);
	c.y.label = "Latency (µs, log scale)";
	c.x.label = "Frame size (bytes, with FCS)";
	svg_axes(&c, p->cats, p->nsizes);
	for (unsigned int s = 0; s < p->nsizes; s++) {
		double slot = svg_catw(&c) * 0.84 / p->nruns, bw = fmin(slot * 0.7, 16);

		for (unsigned int r = 0; r < p->nruns; r++) {
			const struct rm_cell *cl = lat_at(p, r, s, us);
			const char *col = svg_colour(r);
			double x = svg_xcat(&c, s) - svg_catw(&c) * 0.42 + (r + 0.5) * slot, y[5];
			char tip[256], b[24];
			int o;

			if (!cl)
				continue;
			o = snprintf(tip, sizeof(tip), "%s, %u B:", p->name[r], cl->size);
			for (int k = 0; k < 5 && o > 0 && (size_t)o < sizeof(tip); k++) {
				svg_fmt_us(b, sizeof(b), us[k] * 1e3);
				o += snprintf(tip + o, sizeof(tip) - o, "%s %s %s", k ? "," : "",
					      lat_name[k], b);
			}
			/* a missing percentile takes its neighbour's place */
			y[1] = svg_yv(&c, us[1]);
			y[0] = html_ok(us[0]) ? svg_yv(&c, us[0]) : y[1];
			y[2] = html_ok(us[2]) ? svg_yv(&c, us[2]) : y[1];
			y[3] = html_ok(us[3]) ? svg_yv(&c, us[3]) : y[2];
			y[4] = html_ok(us[4]) ? svg_yv(&c, us[4]) : y[3];
			/* whisker min..max, box median..p99, bars at p99.9 and the median */
			svg_seg(&c, x, y[0], x, y[4], col, 1.2);
			svg_seg(&c, x - bw / 4, y[0], x + bw / 4, y[0], col, 1.2);
			svg_seg(&c, x - bw / 4, y[4], x + bw / 4, y[4], col, 1.2);
			svg_rect(&c, x - bw / 2, y[2], bw, y[1] - y[2], col, 0.35, tip);
			svg_seg(&c, x - bw / 2, y[3], x + bw / 2, y[3], col, 2);
			svg_seg(&c, x - bw / 2 - 1, y[1], x + bw / 2 + 1, y[1], col, 3);
		}
	}
	svg_legend(&c, p->names, p->nruns, false);
	svg_end(&c);
	fputs("<figcaption>Latency at the loss-free rate, per frame size and run. Each mark: the "
	      "thin line spans min to max, the box the median (thick bar) to p99, the thin bar "
	      "is p99.9. Log scale: equal distances are equal ratios. Hover a box for its "
	      "figures.</figcaption></figure></section>\n", p->f);
}

/* (d) DUT CPU per forwarded frame: grouped bars. */
static void chart_cpu(struct page *p)
{
	double max = 0;
	struct svgc c;

	fputs("<section class=\"chapter\"><h2>DUT CPU per frame</h2>\n", p->f);
	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *cl = html_cell_of(p, r, p->m->sizes[s]);

			if (cl && html_ok(cl->ns_per_frame))
				max = fmax(max, cl->ns_per_frame);
		}
	if (none(p, !(max > 0), "No run has DUT CPU figures: nothing to chart."))
		return;
	fputs("<figure>", p->f);
	svg_begin(&c, p->f, "chart", CHART_W, 300, p->names, p->nruns, "DUT CPU time per forwarded frame");
	svg_axis_linear(&c.y, 0, max * 1.08, 6);
	c.y.label = "CPU per frame (ns)";
	c.x.label = "Frame size (bytes, with FCS)";
	svg_axes(&c, p->cats, p->nsizes);
	for (unsigned int s = 0; s < p->nsizes; s++) {
		double slot = svg_catw(&c) * 0.84 / p->nruns;
		double bw = fmin(slot * 0.86, 30);

		for (unsigned int r = 0; r < p->nruns; r++) {
			const struct rm_cell *cl = html_cell_of(p, r, p->m->sizes[s]);
			double x = svg_xcat(&c, s) - svg_catw(&c) * 0.42 + (r + 0.5) * slot;
			double y;
			char tip[160], v[24];

			if (!cl || !html_ok(cl->ns_per_frame))
				continue;
			y = svg_yv(&c, cl->ns_per_frame);
			snprintf(v, sizeof(v), "%.0f", cl->ns_per_frame);
			snprintf(tip, sizeof(tip), "%s, %u B: %s ns of DUT CPU per frame", p->name[r],
				 cl->size, v);
			svg_rect(&c, x - bw / 2, y, bw, c.py1 - y, svg_colour(r), 0.9, tip);
			/* numbers on the bars only while they fit */
			if (p->nruns <= 4)
				svg_text(&c, x, y - 4, "val", v);
		}
	}
	svg_legend(&c, p->names, p->nruns, false);
	svg_end(&c);
	fputs("<figcaption>CPU time the DUT spent per forwarded frame at the loss-free rate (or at a plain "
	      "trial's load) "
	      "(busy time including interrupts and softirqs, over frames forwarded). Lower is "
	      "better; when the cost is per frame, the bars are level across sizes."
	      "</figcaption></figure></section>\n", p->f);
}

void html_chart_all(struct page *p)
{
	chart_thr(p);
	chart_loss(p);
	chart_lat(p);
	chart_cpu(p);
}
