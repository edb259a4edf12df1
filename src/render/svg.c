/* svg: see svg.h. The look (colours of gridlines, fonts) lives
 * in the page's CSS classes so that one stylesheet, screen and print,
 * governs every chart. */
#include <math.h>
#include <string.h>

#include "render/out.h"
#include "render/svg.h"
#include "core/ns.h"

/* Margins around the plot area: room for the y tick labels and the
 * rotated y axis label on the left, the x tick and axis labels below. */
#define ML 78
#define MR 18
#define MT 14
#define MB 46
#define LEGEND_ROW 20
#define LEGEND_CHARW 6.8	/* a character at the legend's font size */

/* Tableau-like hues first (they tell 10 runs apart), then darker and
 * lighter variants for the rest; all readable on white and on paper. */
static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#4d4d4d", "#a6a21c", "#17becf", "#393b79", "#ad494a",
	"#637939", "#b8860b", "#7b4173", "#000000",
};

const char *svg_colour(unsigned int i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

enum svgc_shape svg_shape_of(unsigned int i)
{
	return (enum svgc_shape)(i % 5);
}

void svg_esc(FILE *f, const char *s, size_t max, size_t maxchars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strnlen(s, max) : 0, chars = 0;

	for (size_t i = 0; i < n;) {
		size_t len = out_utf8_len(p + i, n - i);

		if (maxchars && chars == maxchars - 1 && i + (len ? len : 1) < n) {
			fputs("\u2026", f);
			return;
		}
		chars++;
		if (len == 0) {
			fputs("\ufffd", f);	/* not UTF-8: say so, never pass it on */
			i++;
			continue;
		}
		if (len > 1) {
			fwrite(p + i, 1, len, f);
			i += len;
			continue;
		}
		switch (p[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* control characters are parse errors in HTML */
			fputc(p[i] < 0x20 || p[i] == 0x7f ? ' ' : p[i], f);
		}
		i++;
	}
}

void svg_num(FILE *f, double v, int decimals)
{
	if (!isfinite(v))
		v = 0;
	if (decimals < 0)
		decimals = 0;
	/* "-0.0" reads as a glitch */
	if (fabs(v) < 0.5 * pow(10, -decimals))
		v = 0;
	fprintf(f, "%.*f", decimals, v);
}

static int decimals_of(double step)
{
	double d = -floor(log10(step) + 1e-9);

	return d > 0 ? (d < 9 ? (int)d : 9) : 0;
}

void svg_axis_linear(struct svgc_axis *a, double lo, double hi, int maxticks)
{
	double raw, base, m, step;

	if (!isfinite(lo))
		lo = 0;
	if (!isfinite(hi))
		hi = lo + 1;
	if (hi < lo) {
		double t = hi;

		hi = lo;
		lo = t;
	}
	if (hi - lo < 1e-12 * (fabs(hi) + 1))
		hi = lo + (lo != 0 ? fabs(lo) * 0.5 : 1);
	if (maxticks < 2)
		maxticks = 2;
	raw = (hi - lo) / maxticks;
	base = pow(10, floor(log10(raw)));
	m = raw / base;
	step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * base;
	if (!isfinite(step) || step <= 0 || !isfinite((hi - lo) / step)) {
		/* figures beyond any sense (the model holds garbage): an axis
		 * that still draws, rather than a division by zero */
		lo = 0, hi = 1, step = 0.2;
	}
	a->lo = floor(lo / step + 1e-9) * step;
	a->hi = ceil(hi / step - 1e-9) * step;
	a->step = step;
	a->log = false;
	a->decimals = decimals_of(step);
}

/* The 1-2-5 value at or below (down) or at or above v > 0. */
static double step125(double v, bool down)
{
	double d = pow(10, floor(log10(v) + 1e-9)), m = v / d;
	static const double k[] = { 1, 2, 5, 10 };

	if (down) {
		for (int i = 3; i >= 0; i--)
			if (k[i] <= m * (1 + 1e-9))
				return k[i] * d;
		return d;
	}
	for (int i = 0; i < 4; i++)
		if (k[i] >= m * (1 - 1e-9))
			return k[i] * d;
	return 10 * d;
}

void svg_axis_log(struct svgc_axis *a, double lo, double hi)
{
	if (!isfinite(hi) || hi <= 0)
		hi = 1;
	if (!isfinite(lo) || lo <= 0 || lo > hi)
		lo = hi / 10;
	if (hi > 1e300)
		hi = 1e300;
	if (lo < hi * 1e-12)
		lo = hi * 1e-12;	/* twelve decades are enough for latency */
	/* bounds on 1-2-5 values, not whole decades: a latency range of 8 µs
	 * to 2 ms then fills the plot instead of a third of it */
	a->lo = step125(lo, true);
	a->hi = step125(hi, false);
	if (a->hi <= a->lo)
		a->hi = step125(a->lo * 1.5, false);
	a->step = 10;
	a->log = true;
	a->decimals = 0;
}

/* Where v falls along an axis, 0 at lo and 1 at hi, clamped. */
static double frac(const struct svgc_axis *a, double v)
{
	double t;

	if (a->log)
		t = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
	else
		t = (v - a->lo) / (a->hi - a->lo);
	if (!isfinite(t))
		return 0;
	return t < 0 ? 0 : t > 1 ? 1 : t;
}

double svg_xv(const struct svgc *c, double v)
{
	return isfinite(v) ? c->px0 + frac(&c->x, v) * (c->px1 - c->px0) : NAN;
}

double svg_yv(const struct svgc *c, double v)
{
	return isfinite(v) ? c->py1 - frac(&c->y, v) * (c->py1 - c->py0) : NAN;
}

double svg_catw(const struct svgc *c)
{
	return (c->px1 - c->px0) / (c->ncat ? c->ncat : 1);
}

double svg_xcat(const struct svgc *c, unsigned int i)
{
	return c->px0 + (i + 0.5) * svg_catw(c);
}

/* Characters (not bytes) in s, for sizing text. */
static size_t nchars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void svg_begin(struct svgc *c, FILE *f, const char *cls, int w, int plot_h,
		const char *const *legend, unsigned int nlegend, const char *title)
{
	size_t longest = 0;
	double plotw;
	int rows;

	memset(c, 0, sizeof(*c));
	c->f = f;
	c->w = w;
	c->px0 = plot_h > 0 ? ML : 8;
	c->px1 = w - MR;
	c->py0 = MT;
	c->py1 = MT + plot_h;
	/* legend columns as wide as the longest label needs, within reason:
	 * longer ones are cut and keep their full text as a tooltip */
	for (unsigned int i = 0; i < nlegend; i++)
		if (nchars(legend[i]) > longest)
			longest = nchars(legend[i]);
	plotw = c->px1 - c->px0;
	c->legend_colw = fmin(fmax(longest * LEGEND_CHARW + 40, 140), fmin(420, plotw));
	c->legend_cols = (int)(plotw / c->legend_colw);
	if (c->legend_cols < 1)
		c->legend_cols = 1;
	rows = nlegend ? (int)((nlegend + c->legend_cols - 1) / c->legend_cols) : 0;
	if (plot_h > 0) {
		c->legend_y = c->py1 + MB + 8;
		c->h = (int)(c->legend_y + rows * LEGEND_ROW + (rows ? 4 : -8));
	} else {
		c->legend_y = 14;
		c->h = rows * LEGEND_ROW + 8;
	}
	c->x.lo = c->y.lo = 0;
	c->x.hi = c->y.hi = 1;
	/* No xmlns: inline SVG in HTML gets its namespace from the parser,
	 * and the page then holds no URL at all. */
	fprintf(f, "<svg class=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">",
		cls, c->w, c->h, c->w, c->h);
	fputs("<title>", f);
	svg_esc(f, title, 512, 0);
	fputs("</title>\n", f);
}

void svg_end(struct svgc *c)
{
	fputs("</svg>\n", c->f);
}

static void pt(FILE *f, double x, double y)
{
	svg_num(f, x, 1);
	fputc(',', f);
	svg_num(f, y, 1);
}

/* A line's ends as its attributes: ' x1="X0" y1="Y0" x2="X1" y2="Y1"'. */
static void line_ends(struct svgc *c, double x0, double y0, double x1, double y1)
{
	fputs(" x1=\"", c->f);
	svg_num(c->f, x0, 1);
	fputs("\" y1=\"", c->f);
	svg_num(c->f, y0, 1);
	fputs("\" x2=\"", c->f);
	svg_num(c->f, x1, 1);
	fputs("\" y2=\"", c->f);
	svg_num(c->f, y1, 1);
	fputc('"', c->f);
}

void svg_seg(struct svgc *c, double x0, double y0, double x1, double y1,
	      const char *colour, double width)
{
	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
		return;
	fputs("<line", c->f);
	line_ends(c, x0, y0, x1, y1);
	fprintf(c->f, " stroke=\"%s\" stroke-width=\"", colour);
	svg_num(c->f, width, 1);
	fputs("\"/>", c->f);
}

/* A gridline or axis line drawn by class (the page's CSS styles it). */
static void cls_line(struct svgc *c, const char *cls, double x0, double y0, double x1, double y1)
{
	fprintf(c->f, "<line class=\"%s\"", cls);
	line_ends(c, x0, y0, x1, y1);
	fputs("/>", c->f);
}

static void text_at(struct svgc *c, double x, double y, const char *cls, const char *anchor,
		    const char *s)
{
	fprintf(c->f, "<text class=\"%s\" text-anchor=\"%s\" x=\"", cls, anchor);
	svg_num(c->f, x, 1);
	fputs("\" y=\"", c->f);
	svg_num(c->f, y, 1);
	fputs("\">", c->f);
	svg_esc(c->f, s, 256, 0);
	fputs("</text>", c->f);
}

void svg_text(struct svgc *c, double x, double y, const char *cls, const char *s)
{
	text_at(c, x, y, cls, "middle", s);
}

/* Tick values of a value axis: major ones get a solid gridline. Log axes
 * label 2 and 5 too when they span three decades or less, so a narrow
 * latency range still has numbers to read. */
struct tick {
	double v;
	bool major, label;
};

static unsigned int ticks_of(const struct svgc_axis *a, struct tick *t, unsigned int max)
{
	unsigned int n = 0;

	if (a->log) {
		bool minor_labels = log10(a->hi / a->lo) <= 3.01;
		double d = pow(10, floor(log10(a->lo) + 1e-9));

		for (; d <= a->hi * 1.0001 && n < max; d *= 10)
			for (int k = 1; k <= 5 && n < max; k += k == 1 ? 1 : 3)
				if (d * k >= a->lo * 0.9999 && d * k <= a->hi * 1.0001)
					t[n++] = (struct tick){ d * k, k == 1, k == 1 || minor_labels };
		return n;
	}
	for (unsigned int k = 0; n < max; k++) {
		double v = a->lo + k * a->step;

		if (v > a->hi + a->step * 1e-6)
			break;
		t[n++] = (struct tick){ v, true, true };
	}
	return n;
}

static void tick_label(char *buf, size_t len, const struct svgc_axis *a, double v)
{
	if (a->log)
		snprintf(buf, len, v >= 1 ? "%.0f" : "%g", v);
	else
		snprintf(buf, len, "%.*f", a->decimals, fabs(v) < a->step * 1e-6 ? 0.0 : v);
}

void svg_axes(struct svgc *c, const char *const *cats, unsigned int ncat)
{
	struct tick t[64];
	unsigned int n;
	char buf[32];

	c->ncat = cats ? ncat : 0;
	fputs("<g class=\"axes\">", c->f);
	n = ticks_of(&c->y, t, 64);
	for (unsigned int i = 0; i < n; i++) {
		double y = svg_yv(c, t[i].v);

		cls_line(c, t[i].major ? "grid" : "grid minor", c->px0, y, c->px1, y);
		if (t[i].label) {
			tick_label(buf, sizeof(buf), &c->y, t[i].v);
			text_at(c, c->px0 - 7, y + 4, t[i].major ? "tick" : "tick minor", "end", buf);
		}
	}
	if (c->ncat) {
		for (unsigned int i = 0; i < c->ncat; i++) {
			double x = svg_xcat(c, i);

			cls_line(c, "axis", x, c->py1, x, c->py1 + 5);
			text_at(c, x, c->py1 + 19, "tick", "middle", cats[i]);
		}
	} else {
		n = ticks_of(&c->x, t, 64);
		for (unsigned int i = 0; i < n; i++) {
			double x = svg_xv(c, t[i].v);

			cls_line(c, t[i].major ? "grid" : "grid minor", x, c->py0, x, c->py1);
			cls_line(c, "axis", x, c->py1, x, c->py1 + 5);
			if (t[i].label) {
				tick_label(buf, sizeof(buf), &c->x, t[i].v);
				text_at(c, x, c->py1 + 19, "tick", "middle", buf);
			}
		}
	}
	cls_line(c, "axis", c->px0, c->py1, c->px1, c->py1);
	cls_line(c, "axis", c->px0, c->py0, c->px0, c->py1);
	if (c->x.label)
		text_at(c, (c->px0 + c->px1) / 2, c->py1 + 39, "axlabel", "middle", c->x.label);
	if (c->y.label) {
		double my = (c->py0 + c->py1) / 2;

		fputs("<text class=\"axlabel\" text-anchor=\"middle\" transform=\"translate(17,", c->f);
		svg_num(c->f, my, 1);
		fputs(") rotate(-90)\">", c->f);
		svg_esc(c->f, c->y.label, 256, 0);
		fputs("</text>", c->f);
	}
	fputs("</g>\n", c->f);
}

void svg_line(struct svgc *c, const double *xs, const double *ys, unsigned int n,
	       const char *colour, bool dashed)
{
	unsigned int i = 0;

	while (i < n) {
		unsigned int j = i;

		while (j < n && isfinite(xs[j]) && isfinite(ys[j]))
			j++;
		if (j - i >= 2) {
			fprintf(c->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
				colour, dashed ? " stroke-dasharray=\"6 4\"" : "");
			for (unsigned int k = i; k < j; k++) {
				if (k > i)
					fputc(' ', c->f);
				pt(c->f, xs[k], ys[k]);
			}
			fputs("\"/>", c->f);
		}
		i = j + 1;
	}
	fputc('\n', c->f);
}

static void tip_open(struct svgc *c, const char *tip)
{
	fputs("<g>", c->f);
	if (tip) {
		fputs("<title>", c->f);
		svg_esc(c->f, tip, 512, 0);
		fputs("</title>", c->f);
	}
}

void svg_marker(struct svgc *c, double x, double y, enum svgc_shape s,
		 const char *colour, bool hollow, const char *tip)
{
	FILE *f = c->f;
	const double r = 4.5;

	if (!isfinite(x) || !isfinite(y))
		return;
	tip_open(c, tip);
	switch (s) {
	case SVGC_CIRCLE:
		fputs("<circle cx=\"", f);
		svg_num(f, x, 1);
		fputs("\" cy=\"", f);
		svg_num(f, y, 1);
		fputs("\" r=\"4.5\"", f);
		break;
	case SVGC_SQUARE:
		fputs("<rect x=\"", f);
		svg_num(f, x - r + 0.5, 1);
		fputs("\" y=\"", f);
		svg_num(f, y - r + 0.5, 1);
		fputs("\" width=\"8\" height=\"8\"", f);
		break;
	default: {
		/* triangles and the diamond as polygons around (x, y) */
		static const double tri[] = { 0, -5.5, 5, 3.5, -5, 3.5 };
		static const double dia[] = { 0, -6, 5, 0, 0, 6, -5, 0 };
		static const double tdn[] = { 0, 5.5, 5, -3.5, -5, -3.5 };
		const double *v = s == SVGC_TRIANGLE ? tri : s == SVGC_DIAMOND ? dia : tdn;
		unsigned int nv = s == SVGC_DIAMOND ? 4 : 3;

		fputs("<polygon points=\"", f);
		for (unsigned int i = 0; i < nv; i++) {
			if (i)
				fputc(' ', f);
			pt(f, x + v[2 * i], y + v[2 * i + 1]);
		}
		fputc('"', f);
	}
	}
	if (hollow)
		fprintf(f, " fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/></g>", colour);
	else
		fprintf(f, " fill=\"%s\" stroke=\"#fff\" stroke-width=\"1\"/></g>", colour);
}

void svg_errbar(struct svgc *c, double x, double y0, double y1, const char *colour)
{
	if (!isfinite(x) || !isfinite(y0) || !isfinite(y1) || fabs(y1 - y0) < 1)
		return;
	svg_seg(c, x, y0, x, y1, colour, 1.3);
	svg_seg(c, x - 4, y0, x + 4, y0, colour, 1.3);
	svg_seg(c, x - 4, y1, x + 4, y1, colour, 1.3);
}

void svg_rect(struct svgc *c, double x, double y, double w, double h,
	       const char *colour, double opacity, const char *tip)
{
	FILE *f = c->f;

	if (!isfinite(x) || !isfinite(y) || !isfinite(w) || !isfinite(h) || w <= 0 || h < 0)
		return;
	tip_open(c, tip);
	fputs("<rect x=\"", f);
	svg_num(f, x, 1);
	fputs("\" y=\"", f);
	svg_num(f, y, 1);
	fputs("\" width=\"", f);
	svg_num(f, w, 1);
	fputs("\" height=\"", f);
	svg_num(f, h < 0.5 ? 0.5 : h, 1);
	fprintf(f, "\" fill=\"%s\" fill-opacity=\"", colour);
	svg_num(f, opacity, 2);
	fputs("\"/></g>", f);
}

void svg_legend(struct svgc *c, const char *const *labels, unsigned int n, bool markers)
{
	double colw = c->legend_colw;
	size_t maxchars = (size_t)((colw - 36) / LEGEND_CHARW);

	fputs("<g class=\"legend\">", c->f);
	for (unsigned int i = 0; i < n; i++) {
		double x = c->px0 + (i % c->legend_cols) * colw;
		double y = c->legend_y + (i / c->legend_cols) * LEGEND_ROW;
		const char *col = svg_colour(i);

		if (markers) {
			svg_seg(c, x, y, x + 22, y, col, 2);
			svg_marker(c, x + 11, y, svg_shape_of(i), col, false, NULL);
		} else {
			svg_rect(c, x + 4, y - 6, 14, 12, col, 0.9, NULL);
		}
		fputs("<text class=\"leg\" x=\"", c->f);
		svg_num(c->f, x + 28, 1);
		fputs("\" y=\"", c->f);
		svg_num(c->f, y + 4, 1);
		fputs("\"><title>", c->f);
		svg_esc(c->f, labels[i], 256, 0);
		fputs("</title>", c->f);
		svg_esc(c->f, labels[i], 256, maxchars);
		fputs("</text>", c->f);
	}
	fputs("</g>\n", c->f);
}

void svg_fmt_pps(char *b, size_t n, double pps)
{
	if (!isfinite(pps))
		snprintf(b, n, "?");
	else if (pps >= 10e6)
		snprintf(b, n, "%.1f Mpps", pps / 1e6);
	else if (pps >= 1e6)
		snprintf(b, n, "%.2f Mpps", pps / 1e6);
	else if (pps >= 100e3)
		snprintf(b, n, "%.0f kpps", pps / 1e3);
	else if (pps >= 1e3)
		snprintf(b, n, "%.1f kpps", pps / 1e3);
	else
		snprintf(b, n, "%.0f pps", pps);
}

void svg_fmt_us(char *b, size_t n, double ns)
{
	double us = ns_to_us(ns);

	if (!isfinite(us))
		snprintf(b, n, "?");
	else
		snprintf(b, n, us < 10 ? "%.2f µs" : us < 100 ? "%.1f µs" : "%.0f µs", us);
}

double svg_pps_unit(double max, const char **unit)
{
	if (max >= 1e6) {
		*unit = "Mpps";
		return 1e6;
	}
	if (max >= 1e3) {
		*unit = "kpps";
		return 1e3;
	}
	*unit = "pps";
	return 1;
}
