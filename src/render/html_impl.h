/* What html.c (the page and its tables), html_chart.c (its charts) and
 * html_trend.c (the page of report --trend) share: not for use outside
 * src/render/html*.c. The helpers are static inline: small, and no name
 * of theirs leaves these files. */
#ifndef WR_RENDER_HTML_IMPL_H
#define WR_RENDER_HTML_IMPL_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "store/report_model.h"
#include "render/svg.h"

#define CHART_W 1180
#define SMALL_W 580

struct page {
	FILE *f;
	const struct report_model *m;
	unsigned int nruns, nsizes;
	char name[RM_MAX_RUNS][96];		/* "#12 2.6.29": legends, tips */
	const char *names[RM_MAX_RUNS];
	char cat[RM_MAX_SIZES][16];		/* "64 B": the x categories */
	const char *cats[RM_MAX_SIZES];
};

/* Text from the model into the page, escaped (svg_esc), at most max bytes. */
static inline void html_esc(struct page *p, const char *s, size_t max)
{
	svg_esc(p->f, s, max, 0);
}

/* The page's start, up to <main>: its head with title, the style (one
 * colour per run) and the policy that forbids scripts and fetches. */
void html_head(struct page *p, const char *title);

/* A cell of run r, with its counts bounded: the model is filled by other
 * code, and a bad count must not walk off an array here. */
static inline const struct rm_cell *html_cell_of(const struct page *p, unsigned int r, unsigned int size)
{
	const struct rm_run *run = &p->m->run[r];

	for (unsigned int i = 0; i < run->ncells && i < RM_MAX_SIZES; i++)
		if (run->cell[i].size == size)
			return &run->cell[i];
	return NULL;
}

/* The cell of run r for the s-th size, when it has a throughput figure. */
static inline const struct rm_cell *html_thr_at(const struct page *p, unsigned int r, unsigned int s)
{
	const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

	return c && c->have_thr && isfinite(c->ndr_med) ? c : NULL;
}

static inline bool html_ok(double v)
{
	return isfinite(v) && v > 0;
}

/* A throughput figure in the cell's own unit: % of line rate when the line
 * rate is known, pps otherwise. */
static inline void html_fmt_thr(char *b, size_t n, const struct rm_cell *c, double pps)
{
	if (html_ok(c->line_pps))
		snprintf(b, n, "%.1f%%", pps * 100 / c->line_pps);
	else
		svg_fmt_pps(b, n, pps);
}

/* A range over repeats, in the cell's unit; empty when it shows nothing
 * new (one repeat, or min and max round to the same figure). */
static inline void html_fmt_range(char *b, size_t n, const struct rm_cell *c)
{
	char lo[32], hi[32];

	b[0] = 0;
	if (c->repeats < 2 || !isfinite(c->ndr_min) || !isfinite(c->ndr_max))
		return;
	/* the median's interval (order statistics) when there is one, with
	 * its coverage; else the range */
	if (c->ndr_iv.n > 1) {
		html_fmt_thr(lo, sizeof(lo), c, c->ndr_iv.lo);
		html_fmt_thr(hi, sizeof(hi), c, c->ndr_iv.hi);
		snprintf(b, n, "%s..%s (%u%%)", lo, hi, interval_coverage_pct(c->ndr_iv.coverage));
		return;
	}
	html_fmt_thr(lo, sizeof(lo), c, c->ndr_min);
	html_fmt_thr(hi, sizeof(hi), c, c->ndr_max);
	if (strcmp(lo, hi))
		snprintf(b, n, "%s..%s", lo, hi);
}

/* The four chart sections, in the page's order. */
void html_chart_all(struct page *p);

#endif
