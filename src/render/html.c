/* The HTML report: one self-contained page (inline CSS, inline SVG, no
 * script, no URL) with the runs, the tables by size and by configuration, and
 * four charts. Self-contained because reports are mailed, archived and
 * opened years later on machines with no network; script-free so a
 * hostile run label can at worst show up as text (the page also carries a
 * Content-Security-Policy that forbids scripts, in case escaping ever
 * failed). Everything from the model goes through svg_esc. The charts
 * are html_chart.c's; the page of report --trend is html_trend.c's, with
 * this one's head and style. */
#include "render/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/html_impl.h"
#include "render/out.h"
#include "wr_config.h"
#include "wr_revision.h"

/* The rate a run's configuration table shows: the NDR, or what a plain
 * trial forwarded; false when the cell has neither. */
static bool rate_at(const struct page *p, unsigned int r, unsigned int s, double *v, bool *at_least)
{
	const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

	if (c && c->have_thr && isfinite(c->ndr_med))
		*v = c->ndr_med;
	else if (c && c->have_trial && isfinite(c->trial_fwd_pps))
		*v = c->trial_fwd_pps;
	else
		return false;
	*at_least = c->have_thr && c->tester_limited;
	return true;
}

static const char CSS[] =
	":root{--fg:#1d2430;--muted:#5b6575;--line:#d9dee5;--zebra:#f6f8fa;--accent:#1f4e8c;--good:#17703a;"
	"--goodbg:#e3f4e8;--bad:#b3261e;--badbg:#fdecea;--warn:#8a5a00;--warnbg:#fff4d6}\n*{box-sizing:border-box}\n"
	"body{margin:0;color:var(--fg);background:#fff;font:14px/1.45 system-ui,-apple-system,'Segoe UI',"
	"Roboto,'Helvetica Neue',Arial,sans-serif}\nmain{max-width:1240px;margin:0 auto;padding:24px 28px 48px}\n"
	"header.top{border-bottom:3px solid var(--accent);padding-bottom:12px;margin-bottom:18px}\n"
	"h1{font-size:26px;margin:0 0 4px;letter-spacing:-.01em}h2{font-size:19px;margin:0 0 6px;color:var(--accent)}\n"
	".sub{color:var(--muted);margin:0}section{margin:30px 0}.wrap{overflow-x:auto}\n"
	"p.lead{color:var(--muted);margin:0 0 12px;max-width:900px}p.note{color:var(--muted);font-style:italic}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:4px 0}\n"
	"th,td{padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}\n"
	"thead th{background:#eef2f7;border-bottom:2px solid #b8c2cf;text-align:left;font-weight:600;white-space:nowrap}\n"
	"tbody tr:nth-child(even) td,tbody tr:nth-child(even) th{background:var(--zebra)}\n"
	"tbody th{text-align:left;font-weight:600;white-space:nowrap}td.num,th.num{text-align:right}"
	"td.num{white-space:nowrap}\n"
	/* long labels wrap in headers; many runs get a denser table */
	"table.thr thead th{white-space:normal;max-width:190px}table.cfg tbody th{white-space:normal;"
	"min-width:140px;max-width:300px}table.dense th,table.dense td{padding:4px 6px;font-size:12px}"
	"table.dense .v{font-size:13px}table.dense .s{white-space:normal}\n"
	"table.cfg td,table.cfg th{vertical-align:middle}.runs td{font-size:13px}.runs td:not(.cfg){white-space:nowrap}\n"
	"td.cfg{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;color:#333}\n"
	".v{font-weight:600;font-size:15px;white-space:nowrap}.s{display:block;color:var(--muted);font-size:11.5px;"
	"white-space:nowrap}\n.best{font-weight:700;color:var(--accent)}.na{color:#9aa3ad}\n"
	".badge{display:inline-block;margin-top:3px;padding:0 6px;border-radius:9px;font-size:11.5px;"
	"font-weight:600;white-space:nowrap}\n.better{background:var(--goodbg);color:var(--good)}"
	".worse{background:var(--badbg);color:var(--bad)}.noise{background:#eceff3;color:#4a5462}"
	".base{background:#e6edf7;color:var(--accent)}.intr{background:var(--warnbg);color:var(--warn)}\n"
	".sw{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px;"
	"background:var(--c)}\n.banner{border-radius:6px;padding:10px 14px;margin:16px 0;border-left:6px solid}\n"
	".banner.bad{background:var(--badbg);border-color:var(--bad);color:#5c120e}"
	".banner.good{background:var(--goodbg);border-color:var(--good);color:#0c3d1f}"
	".banner.warn{background:var(--warnbg);border-color:#d39e00;color:#4d3300}\n"
	".banner b{font-size:15px}.banner ul{margin:6px 0 0;padding-left:20px}\n"
	"figure{margin:10px 0 0}figcaption{color:var(--muted);font-size:12.5px;margin-top:4px;max-width:900px}\n"
	"svg.chart,svg.legend{max-width:100%;height:auto;display:block}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:10px 24px}"
	".grid figure{margin:0}.grid h3{font-size:14px;margin:8px 0 0}\n"
	"svg text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;fill:#1d2430}\n"
	"svg .tick{font-size:12px;fill:#3c4552}svg .tick.minor{font-size:10.5px;fill:#7a8491}"
	"svg .axlabel{font-size:13px;font-weight:600}svg .leg{font-size:12.5px}svg .val{font-size:10.5px;fill:#3c4552}\n"
	"svg line.grid{stroke:#e3e7ec;stroke-width:1}svg line.grid.minor{stroke:#f0f2f5;stroke-dasharray:3 3}"
	"svg line.axis{stroke:#5b6575;stroke-width:1.2}\n"
	"footer{margin-top:36px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}\n"
	/* print: landscape pages, colours kept, a chapter per page, no chart cut in two */
	"@page{size:A4 landscape;margin:12mm}\n"
	"@media print{*{-webkit-print-color-adjust:exact;print-color-adjust:exact}body{font-size:10.5pt}"
	"main{max-width:none;padding:0}section.chapter{break-before:page}section{margin:0 0 14px}"
	"figure,svg,.banner,tr{break-inside:avoid}thead{display:table-header-group}.wrap{overflow:visible}"
	"h2,h3{break-after:avoid}}\n";

void html_head(struct page *p, const char *title)
{
	FILE *f = p->f;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	/* No script may run and nothing may be fetched, whatever the page holds. */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n", f);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", f);
	fprintf(f, "<meta name=\"generator\" content=\"wirerate %s (%s)\">\n<title>",
		WR_VERSION, WR_REVISION);
	html_esc(p, title, sizeof(p->m->title));
	fputs("</title>\n<style>\n", f);
	fputs(CSS, f);
	/* One custom property per run colour, so swatches need no style attribute. */
	for (unsigned int i = 0; i < RM_MAX_RUNS; i++)
		fprintf(f, ".c%u{--c:%s}", i, svg_colour(i));
	fputs("\n</style>\n</head>\n<body>\n<main>\n", f);
}

static void swatch(struct page *p, unsigned int r)
{
	fprintf(p->f, "<span class=\"sw c%u\"></span>", r);
}

/* A run's name as a person reads it: its label, else its id. */
static void run_name(struct page *p, unsigned int r)
{
	const struct rm_run *run = &p->m->run[r];

	if (run->label[0])
		html_esc(p, run->label, sizeof(run->label));
	else
		fprintf(p->f, "run #%s", run->ref);
}

static void td(struct page *p, const char *attr, const char *s, size_t max)
{
	fprintf(p->f, "<td%s>", attr);
	html_esc(p, s, max);
	fputs("</td>", p->f);
}

static void runs_table(struct page *p)
{
	FILE *f = p->f;

	fputs("<section><h2>Runs</h2><p class=\"lead\">The first run is the baseline: every other "
	      "run is compared with it. Colours and markers are the runs' in every chart.</p>\n"
	      "<div class=\"wrap\"><table class=\"runs\"><thead><tr><th>Run</th><th>Label</th>"
	      "<th>Time</th><th>Test</th><th>Kernel</th><th>Configuration</th><th>Status</th>"
	      "</tr></thead><tbody>\n", f);
	for (unsigned int r = 0; r < p->nruns; r++) {
		const struct rm_run *run = &p->m->run[r];

		fputs("<tr><th>", f);
		swatch(p, r);
		fprintf(f, "#%s</th><td>", run->ref);
		if (run->label[0])
			html_esc(p, run->label, sizeof(run->label));
		else
			fputs("<span class=\"na\">—</span>", f);
		fputs("</td>", f);
		td(p, "", run->when[0] ? run->when : TIMEFMT_UNKNOWN, sizeof(run->when));
		td(p, "", run->test, sizeof(run->test));
		td(p, "", run->kernel, sizeof(run->kernel));
		td(p, " class=\"cfg\"", run->config, sizeof(run->config));
		fputs("<td>", f);
		if (r == 0)
			fputs("<span class=\"badge base\">baseline</span> ", f);
		if (run->interrupted)
			fputs("<span class=\"badge intr\" title=\"stopped before the end: figures are "
			      "from the trials that finished\">interrupted</span>", f);
		else
			fputs("complete", f);
		if (run->placement_moved) {
			/* the host had the CPUs at another distance than for the baseline */
			fputs(" <span class=\"badge intr\" title=\"the host had ", f);
			html_esc(p, run->placement_note, sizeof(run->placement_note));
			fputs(": its figures move with that\">CPUs moved</span>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

/* The verdict of a cell against the baseline, as a coloured badge. */
static void verdict(struct page *p, const struct rm_cell *c)
{
	static const char *const cls[] = { "", "base", "noise", "better", "worse" };
	static const char *const word[] = { "", "baseline", "within noise", "better", "worse" };
	unsigned int v = (unsigned int)c->verdict;

	if (v == RM_CANNOT_TELL) {
		fputs("<span class=\"s\"><span class=\"badge noise\" title=\"the rounds disagree, or the host drifted, by "
		      "more than the change\">", p->f);
		if (isfinite(c->diff_pct))
			fprintf(p->f, "%s%.1f%% ", c->diff_pct < 0 ? "\u2212" : "+", fabs(c->diff_pct));
		fputs("cannot tell</span></span>", p->f);
		return;
	}
	if (v == RM_NOT_COMPARABLE) {
		/* a bound that may lie above or below the other: no figure */
		fputs("<span class=\"s\"><span class=\"badge noise\" title=\"an &ldquo;at least&rdquo; figure is "
		      "a bound, never compared as a value\">not comparable</span></span>", p->f);
		return;
	}
	if (v == RM_NONE || v > RM_WORSE)
		return;
	fprintf(p->f, "<span class=\"s\"><span class=\"badge %s\"", cls[v]);
	if (c->have_paired)
		/* the paired rounds behind it, on hover */
		fprintf(p->f, " title=\"%u rounds, paired: %+.1f%% [%+.1f%%, %+.1f%%] (%.0f%%); the host drifted %.1f%%\"",
			c->paired.n, c->paired.diff_pct, c->paired.lo_pct, c->paired.hi_pct, c->paired.level * 100,
			c->paired.drift_pct);
	fputs(">", p->f);
	if (c->diff_at_least && v != RM_BASELINE) {
		fprintf(p->f, "%s (at least)</span></span>", word[v]);
		return;
	}
	if (v != RM_BASELINE && isfinite(c->diff_pct))
		/* a true minus sign: "-5%" is easy to miss in a table */
		fprintf(p->f, "%s%.1f%% ", c->diff_pct < 0 ? "\u2212" : "+", fabs(c->diff_pct));
	fprintf(p->f, "%s</span></span>", word[v]);
}

/* A column head per run, the baseline marked, and the end of the head. */
static void run_heads(struct page *p)
{
	for (unsigned int r = 0; r < p->nruns; r++) {
		fputs("<th class=\"num\">", p->f);
		swatch(p, r);
		run_name(p, r);
		fputs(r ? "</th>" : "<span class=\"s\">baseline</span></th>", p->f);
	}
	fputs("</tr></thead><tbody>\n", p->f);
}

static void thr_cell(struct page *p, unsigned int r, unsigned int size)
{
	const struct rm_cell *c = html_cell_of(p, r, size);
	char v[32], range[80], pps[32], pdr[32];
	FILE *f = p->f;

	if (!c || !c->have_thr || !isfinite(c->ndr_med)) {
		fputs("<td class=\"num na\">—</td>", f);
		return;
	}
	html_fmt_thr(v, sizeof(v), c, c->ndr_med);
	svg_fmt_pps(pps, sizeof(pps), c->ndr_med);
	html_fmt_range(range, sizeof(range), c);
	/* the figures the cell has no room for, as its tooltip */
	svg_fmt_pps(pdr, sizeof(pdr), c->pdr_med);
	fprintf(f, "<td class=\"num\" title=\"NDR %s%s%s", pps, html_ok(c->pdr_med) ? ", PDR " : "",
		html_ok(c->pdr_med) ? pdr : "");
	if (html_ok(c->b2b_frames))
		fprintf(f, ", back-to-back %.0f frames", c->b2b_frames);
	fprintf(f, "%s%s\"><span class=\"v\">%s%s%s</span><span class=\"s\">%s%s%s", c->tester_limited ?
		"; a search was stopped by the tester or the max load, not the DUT: the DUT did at least this" : "",
		c->nf.limited ? "; * the NDR is limited by sporadic loss (see the notes)" : "", c->tester_limited ?
		"≥\u2009" : "", v, c->nf.limited ? "*" : "", html_ok(c->line_pps) ? pps : "",
		html_ok(c->line_pps) && range[0] ? " · " : "", range);
	if (c->repeats > 1)
		fprintf(f, " (n=%u)", c->repeats);
	fputs("</span>", f);
	if (r > 0)
		verdict(p, c);
	fputs("</td>", f);
}

/* Under the table: each cell whose NDR is limited by sporadic loss, said
 * in full (the cell is marked, never hidden). The text is made here from
 * numbers: nothing from the store is in it. */
static void thr_notes(struct page *p)
{
	bool head = false;

	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);
			char text[512];

			if (!c || !c->nf.limited)
				continue;
			noisefloor_text(&c->nf, text, sizeof(text));
			if (!head)
				fputs("<ul class=\"note\">", p->f);
			head = true;
			fputs("<li>* ", p->f);
			run_name(p, r);
			fprintf(p->f, ", %u B: %s</li>", c->size, text);
		}
	if (head)
		fputs("</ul>\n", p->f);
}

static void thr_table(struct page *p)
{
	FILE *f = p->f;

	fputs("<section><h2>Throughput by frame size</h2><p class=\"lead\">Loss-free rate (NDR) as "
	      "a percentage of line rate, or in frames per second where the line rate is not known; "
	      "the median over the repeats with its interval below (order statistics, with the "
	      "coverage it achieves). &ldquo;≥&rdquo;: the tester or the max load stopped a search, not the DUT, so "
	      "the DUT did at least this; such a bound is never compared as a value. *: the NDR is "
	      "limited by sporadic loss. Verdicts compare each run with the baseline: a change only "
	      "when the intervals do not overlap.</p>\n", f);
	bool any = false;

	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++)
			any |= html_thr_at(p, r, s) != NULL;
	if (!any) {
		fputs("<p class=\"note\">No run has throughput figures.</p></section>\n", f);
		return;
	}
	fprintf(f, "<div class=\"wrap\"><table class=\"thr%s\"><thead>", p->nruns > 6 ? " dense" : "");
	fputs("<tr><th>Frame size</th>"
	      "<th class=\"num\">Line rate</th>", f);
	run_heads(p);
	for (unsigned int s = 0; s < p->nsizes; s++) {
		unsigned int size = p->m->sizes[s];
		double line = 0;
		char b[32];

		for (unsigned int r = 0; r < p->nruns && !html_ok(line); r++) {
			const struct rm_cell *c = html_cell_of(p, r, size);

			if (c)
				line = c->line_pps;
		}
		fprintf(f, "<tr><th>%u B</th>", size);
		if (html_ok(line)) {
			svg_fmt_pps(b, sizeof(b), line);
			fprintf(f, "<td class=\"num\">%s</td>", b);
		} else {
			fputs("<td class=\"num na\">—</td>", f);
		}
		for (unsigned int r = 0; r < p->nruns; r++)
			thr_cell(p, r, size);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	thr_notes(p);
	fputs("</section>\n", f);
}

static bool cell_has_trial(const struct rm_cell *c)
{
	return c->have_trial;
}

static bool cell_has_stream(const struct rm_cell *c)
{
	return c->have_stream;
}

/* Whether some run has a cell of the page's sizes that has(). */
static bool any_cell(const struct page *p, bool (*has)(const struct rm_cell *c))
{
	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

			if (c && has(c))
				return true;
		}
	return false;
}

/* A section of cells by size, a column per run, shown when a run has a
 * cell that has(): its heading and lead (html), the first column named
 * col, and each cell's figures from cell(), which writes nothing and
 * returns false when the cell has none. */
struct cells_kind {
	bool (*has)(const struct rm_cell *c);
	const char *html, *col;
	bool (*cell)(struct page *p, const struct rm_cell *c);
};

/* The section of kind k, with a verdict under each run but the first. */
static void cells_table(struct page *p, const struct cells_kind *k)
{
	FILE *f = p->f;

	if (!any_cell(p, k->has))
		return;
	fputs(k->html, f);
	fprintf(f, "<div class=\"wrap\"><table class=\"trl thr%s\"><thead><tr><th>%s</th>",
		p->nruns > 6 ? " dense" : "", k->col);
	run_heads(p);
	for (unsigned int s = 0; s < p->nsizes; s++) {
		fprintf(f, "<tr><th>%u B</th>", p->m->sizes[s]);
		for (unsigned int r = 0; r < p->nruns; r++) {
			const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

			if (!c || !k->cell(p, c)) {
				fputs("<td class=\"num na\">—</td>", f);
				continue;
			}
			if (r > 0)
				verdict(p, c);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

/* A plain trial's cell: what the DUT forwarded of the load offered, the
 * loss, the range over repeats and where the frames went. */
static bool trial_cell(struct page *p, const struct rm_cell *c)
{
	FILE *f = p->f;
	char fwd[32], off[32];

	if (!c->have_trial || !isfinite(c->trial_fwd_pps) || !isfinite(c->trial_offered_pps) ||
	    !isfinite(c->trial_loss_pct))
		return false;
	svg_fmt_pps(fwd, sizeof(fwd), c->trial_fwd_pps);
	svg_fmt_pps(off, sizeof(off), c->trial_offered_pps);
	fprintf(f, "<td class=\"num\"><span class=\"v\">%s</span><span class=\"s\">of %s, "
		"loss %.3f%%%s", fwd, off, c->trial_loss_pct,
		c->tester_limited ? "; the tester fell short" : "");
	if (c->trials > 1 && isfinite(c->trial_fwd_min) && isfinite(c->trial_fwd_max)) {
		char lo[32], hi[32];

		svg_fmt_pps(lo, sizeof(lo), c->trial_fwd_min);
		svg_fmt_pps(hi, sizeof(hi), c->trial_fwd_max);
		fprintf(f, " · %s..%s (n=%u)", lo, hi, c->trials);
	}
	fputs("</span>", f);
	/* where the frames went; runs from before the attribution: nothing */
	if (c->have_loss && c->loss_lost) {
		fputs("<span class=\"s\">", f);
		html_esc(p, c->loss_text, sizeof(c->loss_text));
		fputs("</span>", f);
	}
	return true;
}

/* Plain trials (`wirerate trial`): what the DUT forwarded of the load
 * offered, and the loss; verdicts only against a trial at the same load. */
static const struct cells_kind trial_cells = {
	cell_has_trial,
	"<section><h2>Trials by frame size</h2><p class=\"lead\">Plain trials: frames per second the DUT "
	"forwarded of those offered (the median over repeated trials, with their range below), and the "
	"loss. Verdicts compare each run with the baseline's trials at the same offered load, beyond their "
	"ranges widened by 0.5% of that load.</p>\n",
	"Frame size", trial_cell,
};

static bool cell_has_goals(const struct rm_cell *c)
{
	return c->ngoal > 0;
}

/* The search's goals in RFC 9971 terms: per run, size and goal, the
 * Relevant Lower and Upper Bounds (medians over the repeats) and what was
 * irregular. */
static void goal_table(struct page *p)
{
	FILE *f = p->f;

	if (!any_cell(p, cell_has_goals))
		return;
	fputs("<section><h2>Search goals (RFC 9971)</h2><p class=\"lead\">Each goal in RFC 9971's notation "
	      "(final trial s f, duration sum s d, loss % l, exceed % e, width % w, initial trial s i): its "
	      "Relevant Lower Bound (the throughput figure) and Relevant Upper Bound, in frames/s per "
	      "interface and direction, medians over repeated searches; irregular results say why.</p>\n"
	      "<div class=\"wrap\"><table class=\"trl\"><thead><tr><th>Run</th><th>Frame size</th><th>Goal</th>"
	      "<th>Lower bound</th><th>Upper bound</th><th>Cond. throughput</th><th>Irregular</th></tr></thead>"
	      "<tbody>\n", f);
	for (unsigned int r = 0; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *c = html_cell_of(p, r, p->m->sizes[s]);

			unsigned int ng = c ? (c->ngoal < RM_MAX_GOALS ? c->ngoal : RM_MAX_GOALS) : 0;

			for (unsigned int i = 0; i < ng; i++) {
				const struct rm_goal *g = &c->goal[i];
				char v[3][32], why[200];

				svg_fmt_pps(v[0], sizeof(v[0]), g->rlb);
				svg_fmt_pps(v[1], sizeof(v[1]), g->rub);
				svg_fmt_pps(v[2], sizeof(v[2]), g->cond);
				fputs("<tr><td>", f);
				run_name(p, r);
				fprintf(f, "</td><td>%u B</td><td>", c->size);
				if (g->name[0]) {
					html_esc(p, g->name, sizeof(g->name));
					fputc(':', f);
				}
				html_esc(p, g->spec, sizeof(g->spec));
				fputs("</td>", f);
				for (int k = 0; k < 3; k++)
					td(p, " class=\"num\"", isnan(k == 0 ? g->rlb : k == 1 ? g->rub : g->cond) ? "—" : v[k],
					   sizeof(v[k]));
				if (g->irregular)
					snprintf(why, sizeof(why), "%u of %u: %.*s", g->irregular, g->repeats,
						 (int)strnlen(g->why, sizeof(g->why)), g->why);
				else
					snprintf(why, sizeof(why), "no");
				td(p, "", why, sizeof(why));
				fputs("</tr>\n", f);
			}
		}
	fputs("</tbody></table></div></section>\n", f);
}

/* A stream's cell: what was received of what was sent, the loss, the
 * range over -I's runs, and the service demand of each end and the DUT. */
static bool stream_cell(struct page *p, const struct rm_cell *c)
{
	static const char *const who[3] = { "sender", "receiver", "DUT" };
	const double sd[3] = { c->st_send_sd, c->st_recv_sd, c->st_dut_sd };
	FILE *f = p->f;

	if (!c->have_stream || !isfinite(c->st_recv_mbps) || !isfinite(c->st_loss_pct))
		return false;
	fprintf(f, "<td class=\"num\"><span class=\"v\">%.1f Mb/s</span><span class=\"s\">of %.1f sent, "
		"loss %.2f%%", c->st_recv_mbps, c->st_send_mbps, c->st_loss_pct);
	if (c->stream_runs > 1 && isfinite(c->st_recv_min) && isfinite(c->st_recv_max))
		fprintf(f, " · %.1f..%.1f (n=%u)", c->st_recv_min, c->st_recv_max, c->stream_runs);
	fputs("</span><span class=\"s\">us/KB", f);
	for (int i = 0; i < 3; i++) {
		if (sd[i] >= 0 && isfinite(sd[i]))
			fprintf(f, "%s %s %.2f", i ? "," : "", who[i], sd[i]);
		else
			fprintf(f, "%s %s —", i ? "," : "", who[i]);
	}
	fputs("</span>", f);
	return true;
}

/* Streams (`wirerate stream`): what was received, the loss, and netperf's
 * service demand of the sender, the receiver and the DUT; verdicts on the
 * received throughput. */
static const struct cells_kind stream_cells = {
	cell_has_stream,
	"<section><h2>Streams by message size</h2><p class=\"lead\">UDP streams: 10<sup>6</sup> bits/s "
	"received (the median over the runs of -I, with their range below), the loss, and the service "
	"demand, microseconds of CPU per KB moved, of the sender, the receiver and the DUT. Verdicts "
	"compare the received throughput with the baseline's, beyond their ranges widened by 5% of the "
	"baseline's.</p>\n",
	"Message size", stream_cell,
};

/* By configuration: one row per configuration, kpps per size, the best in each
 * column picked out. */
static void cfg_table(struct page *p)
{
	FILE *f = p->f;
	double best[RM_MAX_SIZES] = { 0 }, low[RM_MAX_SIZES];

	if (!p->nsizes)
		return;
	for (unsigned int s = 0; s < p->nsizes; s++) {
		low[s] = INFINITY;
		for (unsigned int r = 0; r < p->nruns; r++) {
			double v;
			bool al;

			if (rate_at(p, r, s, &v, &al)) {
				best[s] = fmax(best[s], v);
				low[s] = fmin(low[s], v);
			}
		}
	}
	fputs("<section><h2>Forwarding rate by configuration (kpps)</h2><p class=\"lead\">One row "
	      "per run and its setup; loss-free rate (for a plain trial, the rate forwarded) in "
	      "thousands of frames per second. The "
	      "highest in each column, where they differ, is in bold.</p>\n<div class=\"wrap\"><table class=\"cfg\">"
	      "<thead><tr><th>Run</th><th>Configuration</th>", f);
	for (unsigned int s = 0; s < p->nsizes; s++)
		fprintf(f, "<th class=\"num\">%u B</th>", p->m->sizes[s]);
	fputs("</tr></thead><tbody>\n", f);
	for (unsigned int r = 0; r < p->nruns; r++) {
		const struct rm_run *run = &p->m->run[r];

		fputs("<tr><th>", f);
		swatch(p, r);
		run_name(p, r);
		fputs("</th><td class=\"cfg\">", f);
		html_esc(p, run->config[0] ? run->config : "—", sizeof(run->config));
		if (run->kernel[0]) {
			fputs(" · ", f);
			html_esc(p, run->kernel, sizeof(run->kernel));
		}
		fputs("</td>", f);
		for (unsigned int s = 0; s < p->nsizes; s++) {
			double v, k;
			bool al;

			if (!rate_at(p, r, s, &v, &al)) {
				fputs("<td class=\"num na\">—</td>", f);
				continue;
			}
			k = v / 1e3;
			fprintf(f, "<td class=\"num%s\">%s%.*f</td>",
				/* a column where all are equal has no best */
				best[s] > low[s] && v >= best[s] ? " best" : "",
				al ? "≥\u2009" : "", k < 100 ? 1 : 0, k);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
}

/* Whether the banner lists a cell: worse than the baseline, and by more
 * than --fail-on-regression when that made a regression. */
static bool listed(const struct page *p, const struct rm_cell *c)
{
	const struct report_model *m = p->m;

	return c && c->verdict == RM_WORSE &&
	       !(m->regression && m->fail_pct >= 0 && -c->diff_pct <= m->fail_pct);
}

/* The regression banner, so a CI failure reads at a glance. */
static void banner(struct page *p)
{
	const struct report_model *m = p->m;
	bool limit = isfinite(m->fail_pct) && m->fail_pct >= 0;
	unsigned int n = 0, compared = 0;
	FILE *f = p->f;

	for (unsigned int r = 1; r < p->nruns; r++)
		for (unsigned int s = 0; s < p->nsizes; s++) {
			const struct rm_cell *c = html_cell_of(p, r, m->sizes[s]);

			n += listed(p, c);
			compared += c && c->verdict >= RM_NOISE && c->verdict <= RM_WORSE;
		}
	/* nothing compared: no verdict to give, not even "no regression" */
	if (!compared && !m->regression)
		return;
	if (m->regression)
		fprintf(f, "<div class=\"banner bad\"><b>Regression</b>: %u cell%s worse than the "
			"baseline by more than %.1f%%, beyond noise.", n, n == 1 ? "" : "s",
			limit ? m->fail_pct : 0.0);
	else if (n)
		fprintf(f, "<div class=\"banner warn\"><b>%u cell%s worse than the baseline</b> beyond "
			"noise%s", n, n == 1 ? " is" : "s are",
			limit ? ", but none by more than the regression limit." : " (no regression limit).");
	else
		fputs("<div class=\"banner good\"><b>No regression</b>: no cell is worse than the "
		      "baseline beyond noise.", f);
	if (n) {
		fputs("<ul>", f);
		for (unsigned int r = 1; r < p->nruns; r++)
			for (unsigned int s = 0; s < p->nsizes; s++) {
				const struct rm_cell *c = html_cell_of(p, r, m->sizes[s]);

				if (!listed(p, c))
					continue;
				fputs("<li>", f);
				run_name(p, r);
				fprintf(f, ", %u B", c->size);
				if (isfinite(c->diff_pct))
					fprintf(f, ": \u2212%.1f%%", fabs(c->diff_pct));
				fputs("</li>", f);
			}
		fputs("</ul>", f);
	}
	fputs("</div>\n", f);
}

int html_report_write(const struct report_model *m, FILE *f, char *err, size_t errlen)
{
	struct page p = { .f = f, .m = m };
	const char *title;

	if (!m || !f) {
		snprintf(err, errlen, "no report or no file to write it to");
		return -EINVAL;
	}
	p.nruns = m->nruns < RM_MAX_RUNS ? m->nruns : RM_MAX_RUNS;
	p.nsizes = m->nsizes < RM_MAX_SIZES ? m->nsizes : RM_MAX_SIZES;
	for (unsigned int r = 0; r < p.nruns; r++) {
		const struct rm_run *run = &m->run[r];

		snprintf(p.name[r], sizeof(p.name[r]), "#%s%s%.*s", run->ref,
			 run->label[0] ? " " : "", (int)sizeof(run->label), run->label);
		p.names[r] = p.name[r];
	}
	for (unsigned int s = 0; s < p.nsizes; s++) {
		snprintf(p.cat[s], sizeof(p.cat[s]), "%u", m->sizes[s]);
		p.cats[s] = p.cat[s];
	}
	errno = 0;
	title = m->title[0] ? m->title : "wirerate report";
	html_head(&p, title);
	fputs("<header class=\"top\"><h1>", f);
	html_esc(&p, title, sizeof(m->title));
	fputs("</h1><p class=\"sub\">", f);
	if (!p.nruns) {
		fputs("wirerate report</p></header>\n<section><h2>No runs</h2><p class=\"note\">This "
		      "report holds no runs: there is nothing to show. Choose runs with "
		      "<code>wirerate runs</code> and name them to <code>wirerate report</code>."
		      "</p></section>\n", f);
	} else {
		fprintf(f, "%u run%s; baseline: run #%lld", p.nruns, p.nruns == 1 ? "" : "s",
			(long long)m->run[0].id);
		if (m->run[0].label[0]) {
			fputs(" (", f);
			html_esc(&p, m->run[0].label, sizeof(m->run[0].label));
			fputc(')', f);
		}
		fprintf(f, "; %u frame size%s.</p></header>\n", p.nsizes, p.nsizes == 1 ? "" : "s");
		banner(&p);
		runs_table(&p);
		thr_table(&p);
		goal_table(&p);
		cells_table(&p, &trial_cells);
		cells_table(&p, &stream_cells);
		cfg_table(&p);
		html_chart_all(&p);
	}
	fprintf(f, "<footer>Generated by wirerate %s (%s). Frame sizes include the FCS; line rate "
		"counts 20 bytes of preamble and inter-frame gap per frame (RFC 2544).</footer>\n"
		"</main>\n</body>\n</html>\n", WR_VERSION, WR_REVISION);
	if (fflush(f) || ferror(f)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "writing the HTML report: %s", strerror(e));
		return -e;
	}
	return 0;
}
