/* svg: the small SVG toolkit behind the HTML report. Charts are
 * written as inline SVG text, so the page needs no script and no fetch and
 * prints as it shows. Every number that reaches an attribute goes through
 * one formatter that refuses NaN and infinities, and every string through
 * one escaper, so user input (run labels) can never become markup. */
#ifndef WR_RENDER_SVG_H
#define WR_RENDER_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A value axis: [lo, hi] with ticks every step (linear) or at decades
 * with 2 and 5 in between (log). */
struct svgc_axis {
	double lo, hi, step;
	bool log;
	int decimals;		/* of the tick labels */
	const char *label;	/* "Throughput (% of line rate)" */
};

struct svgc {
	FILE *f;
	int w, h;			/* the whole drawing, in viewBox units */
	double px0, px1, py0, py1;	/* the plot area: left, right, top, bottom */
	double legend_y;		/* where the legend starts */
	int legend_cols;
	double legend_colw;
	struct svgc_axis x, y;
	unsigned int ncat;		/* > 0: x is categories, not values */
};

enum svgc_shape { SVGC_CIRCLE, SVGC_SQUARE, SVGC_TRIANGLE, SVGC_DIAMOND, SVGC_TRIANGLE_DOWN };

/* The run's colour and marker: distinct for the 16 runs a report holds,
 * and the shape tells runs apart on a grey printout. */
const char *svg_colour(unsigned int i);
enum svgc_shape svg_shape_of(unsigned int i);

/* Text for HTML and SVG alike: & < > " ' escaped, control characters and
 * bytes that are not UTF-8 replaced, at most max bytes of s read (the
 * model's strings are fixed arrays) and at most maxchars characters shown
 * (0: all; cut text ends with an ellipsis). */
void svg_esc(FILE *f, const char *s, size_t max, size_t maxchars);

/* A finite number with the given decimals, or 0 when it is not finite:
 * attributes never see "nan" or "inf". */
void svg_num(FILE *f, double v, int decimals);

/* Nice ticks: 1-2-5 steps over [lo, hi] with about maxticks intervals,
 * or decades over [lo, hi] (both > 0) when log. */
void svg_axis_linear(struct svgc_axis *a, double lo, double hi, int maxticks);
void svg_axis_log(struct svgc_axis *a, double lo, double hi);

/* Opens <svg class="cls">: w wide, a plot area plot_h high, room below
 * for the x axis and for the legend's nlegend labels (svg_legend draws
 * them); plot_h 0 makes a legend alone (shared by small multiples).
 * title is the accessible name. */
void svg_begin(struct svgc *c, FILE *f, const char *cls, int w, int plot_h,
		const char *const *legend, unsigned int nlegend, const char *title);
/* Gridlines, ticks, tick labels and axis labels. With cats (ncat labels)
 * the x axis is categories spread evenly; otherwise c->x is used. */
void svg_axes(struct svgc *c, const char *const *cats, unsigned int ncat);
void svg_end(struct svgc *c);

/* Data to viewBox coordinates, clamped into the plot area. */
double svg_xv(const struct svgc *c, double v);
double svg_yv(const struct svgc *c, double v);
double svg_xcat(const struct svgc *c, unsigned int i);	/* centre of category i */
double svg_catw(const struct svgc *c);			/* width of one category */

/* A line through n points (viewBox units); a non-finite point breaks it. */
void svg_line(struct svgc *c, const double *xs, const double *ys, unsigned int n,
	       const char *colour, bool dashed);
/* A marker with a hover tip (tip may be NULL); hollow says "at least". */
void svg_marker(struct svgc *c, double x, double y, enum svgc_shape s,
		 const char *colour, bool hollow, const char *tip);
/* A vertical error bar with caps from y0 to y1. */
void svg_errbar(struct svgc *c, double x, double y0, double y1, const char *colour);
/* A filled rectangle (x, y top-left) with a hover tip. */
void svg_rect(struct svgc *c, double x, double y, double w, double h,
	       const char *colour, double opacity, const char *tip);
/* A straight stroke. */
void svg_seg(struct svgc *c, double x0, double y0, double x1, double y1,
	      const char *colour, double width);
/* A small text label centred at x, with its baseline at y. */
void svg_text(struct svgc *c, double x, double y, const char *cls, const char *s);
/* The legend below the plot: entry i in svg_colour(i), with a line and
 * svg_shape_of(i) when markers, else a filled square (bars). */
void svg_legend(struct svgc *c, const char *const *labels, unsigned int n, bool markers);

/* Frames per second with three significant figures and the unit people
 * quote ("312 kpps", "1.49 Mpps"); latency in µs from ns. */
void svg_fmt_pps(char *b, size_t n, double pps);
void svg_fmt_us(char *b, size_t n, double ns);
/* The divisor and unit (pps, kpps, Mpps) that keep an axis' tick labels
 * short for values up to max. */
double svg_pps_unit(double max, const char **unit);

#endif
