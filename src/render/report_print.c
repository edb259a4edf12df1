/* A loaded and compared report written out: the text tables (throughput
 * by size, the trials, by configuration, the DUT's CPU) and the JSON
 * document from the same out_* calls (each run's object is
 * report_print_json.c's, the CSV files report_print_csv.c's);
 * store/report_db.c loads and compares. */
#include "render/report_print.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/loss_print.h"
#include "render/report_print_impl.h"
#include "store/report_db.h"

/* "19.99k" or "49.7%" of line rate; the cell's figure as the table shows it. */
static void fmt_thr(const struct rm_cell *c, char *buf, size_t len)
{
	if (!c || !c->have_thr)
		snprintf(buf, len, "-");
	else if (c->line_pps > 0)
		snprintf(buf, len, "%s%.1f%%", c->tester_limited ? ">=" : "", c->ndr_med * 100 / c->line_pps);
	else
		snprintf(buf, len, "%s%.2fk", c->tester_limited ? ">=" : "", c->ndr_med / 1e3);
}

/* The strings of the text tables come from the store, which anything may
 * have written: out_text would let their newlines through, so they are
 * escaped (out_escape_text) before they are laid out. */
static const char *esc(const char *s, char *buf, size_t len)
{
	return out_escape_text(buf, len, s);
}

/* "#12 label": the label's first 20 characters (a byte that is not UTF-8
 * counts as one), cut before escaping so that no character or escape is
 * cut in half. */
static void run_name(const struct rm_run *r, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)r->label;
	char head[sizeof(r->label)], label[4 * sizeof(r->label)];
	size_t n = strlen(r->label), i = 0;

	for (unsigned int chars = 0; i < n && chars < 20; chars++) {
		size_t l = out_utf8_len(p + i, n - i);

		i += l ? l : 1;
	}
	snprintf(head, sizeof(head), "%.*s", (int)i, r->label);
	snprintf(buf, len, "#%s%s%s", r->ref, r->label[0] ? " " : "", esc(head, label, sizeof(label)));
}

/* The words of a run's config ("placement=bound rules=0 ...") that not
 * every run shares: what the rows of the table by configuration differ by. */
static void config_diff(const struct report_model *m, unsigned int r, char *buf, size_t len)
{
	char cfg[sizeof(m->run[0].config)], words[sizeof(m->run[0].config)], *save = NULL;
	size_t off = 0;

	words[0] = '\0';
	snprintf(cfg, sizeof(cfg), "%s", m->run[r].config);
	for (char *w = strtok_r(cfg, " ", &save); w && off < sizeof(words); w = strtok_r(NULL, " ", &save)) {
		bool everywhere = true;
		size_t wl = strlen(w);

		for (unsigned int k = 0; k < m->nruns && everywhere; k++) {
			const char *c = m->run[k].config, *p = c;

			everywhere = false;
			while ((p = strstr(p, w))) {
				if ((p == c || p[-1] == ' ') && (p[wl] == ' ' || !p[wl])) {
					everywhere = true;
					break;
				}
				p += wl;
			}
		}
		if (!everywhere)
			off += (size_t)snprintf(words + off, sizeof(words) - off, "%s%s", off ? " " : "", w);
	}
	esc(words[0] ? words : "(same)", buf, len);
}

/* One column of run r's: w wide, but the last one ends the line as it is. */
static void runs_col(struct out *o, const struct report_model *m, unsigned int r, int w, const char *s)
{
	if (r + 1 < m->nruns)
		out_text(o, "  %-*s", w, s);
	else
		out_text(o, "  %s", s);
}

/* The head of a table with a column per run, each w wide but the last. */
static void runs_header(struct out *o, const struct report_model *m, int w)
{
	char name[128];

	out_text(o, "  %5s", "size");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		runs_col(o, m, r, w, name);
	}
	out_text(o, "\n");
}

/* After a cell's figure: its difference and verdict against the baseline,
 * when it has one. */
static void verdict_suffix(char *cell, size_t len, const struct rm_cell *c)
{
	size_t n = strlen(cell);

	if (!c || n >= len)
		return;
	/* a bound took part: no percentage, which would read as a measure */
	if (c->diff_at_least && (c->verdict == RM_BETTER || c->verdict == RM_WORSE))
		snprintf(cell + n, len - n, " %s (at least)", report_db_verdict_name(c->verdict));
	else if (c->verdict == RM_NOT_COMPARABLE)
		snprintf(cell + n, len - n, " not comparable (a bound)");
	else if (c->verdict == RM_BETTER || c->verdict == RM_WORSE || c->verdict == RM_NOISE ||
		 c->verdict == RM_CANNOT_TELL)
		snprintf(cell + n, len - n, " %+.1f%% %s", c->diff_pct, report_db_verdict_name(c->verdict));
}

/* Where the plain trials lost their frames, per run and size (runs
 * stored before the attribution say nothing). */
static void print_trial_loss(struct out *o, const struct report_model *m)
{
	char name[128], text[4 * sizeof(m->run[0].cell[0].loss_text)];
	bool any = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++)
			any |= m->run[r].cell[k].have_loss && m->run[r].cell[k].loss_lost;
	if (!any)
		return;
	out_text(o, "\n  where the frames were lost (all trials and directions of the size)\n");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		for (unsigned int s = 0; s < m->nsizes; s++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			if (c && c->have_loss && c->loss_lost)
				out_text(o, "  %-24s %5u  %s\n", name, c->size, esc(c->loss_text, text, sizeof(text)));
		}
	}
}

/* "12.00k [9.00k-15.00k] 94%": the interval of the median over repeats,
 * in the cell's unit, with its coverage. */
static void fmt_interval(const struct rm_cell *c, char *buf, size_t len)
{
	double k = c->line_pps > 0 ? 100 / c->line_pps : 1e-3;
	const char *u = c->line_pps > 0 ? "%" : "k";

	snprintf(buf, len, " [%.*f%s-%.*f%s] %u%%", c->line_pps > 0 ? 1 : 2, c->ndr_iv.lo * k, u,
		 c->line_pps > 0 ? 1 : 2, c->ndr_iv.hi * k, u, interval_coverage_pct(c->ndr_iv.coverage));
}

/* Under the table: each "at least" and each noise floor, by run and size
 * (marked in the cell too, never hidden). */
static void print_cell_notes(struct out *o, const struct report_model *m)
{
	bool head = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++) {
			const struct rm_cell *c = &m->run[r].cell[k];
			char name[128], text[512];

			if (!c->nf.limited && !(c->have_thr && (c->tester_limited || c->pdr_bound)))
				continue;
			if (!head)
				out_text(o, "\n  notes\n");
			head = true;
			run_name(&m->run[r], name, sizeof(name));
			if (c->have_thr && c->tester_limited)
				out_text(o, "  %s, %u B: the NDR is a bound (at least %.0f frames/s): a search was "
					 "stopped by the tester or the max load, not the DUT\n", name, c->size, c->ndr_med);
			if (c->have_thr && c->pdr_bound)
				out_text(o, "  %s, %u B: the PDR is a bound (at least %.0f frames/s)\n", name, c->size,
					 c->pdr_med);
			noisefloor_text(&c->nf, text, sizeof(text));
			if (text[0])
				out_text(o, "  %s, %u B: %s\n", name, c->size, text);
		}
}

/* A table with a row per size and a column per run, each cell w wide
 * (the last as long as it is), written by cell() where the run has a
 * figure for that size (have()), "-" where not, with its verdict. */
static void cell_table(struct out *o, const struct report_model *m, int w, bool (*have)(const struct rm_cell *c),
		       void (*cell)(const struct rm_cell *c, char *buf, size_t len))
{
	runs_header(o, m, w);
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);
			char buf[160];

			if (!c || !have(c)) {
				snprintf(buf, sizeof(buf), "-");
			} else {
				cell(c, buf, sizeof(buf));
				verdict_suffix(buf, sizeof(buf), c);
			}
			runs_col(o, m, r, w, buf);
		}
		out_text(o, "\n");
	}
}

/* A figure (as written), then "+-N%" of half the range where there
 * were several: the length written, or -1 when it did not fit. */
static int median_spread(char *buf, size_t len, const char *figure, double med, double lo, double hi,
			 unsigned int n)
{
	int k = snprintf(buf, len, "%s", figure);

	if (n > 1 && med > 0 && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, " +-%.1f%%", (hi - lo) * 50 / med);
	return k > 0 && (size_t)k < len ? k : -1;
}

static bool have_trial(const struct rm_cell *c)
{
	return c->have_trial;
}

static void trial_cell(const struct rm_cell *c, char *cell, size_t len)
{
	char fig[32];
	int n;

	snprintf(fig, sizeof(fig), "%.2fk", c->trial_fwd_pps / 1e3);
	n = median_spread(cell, len, fig, c->trial_fwd_pps, c->trial_fwd_min, c->trial_fwd_max, c->trials);

	if (n >= 0)
		snprintf(cell + n, len - (size_t)n, " of %.4gk, loss %.3f%%%s", c->trial_offered_pps / 1e3,
			 c->trial_loss_pct, c->tester_limited ? " (tester-limited)" : "");
}

/* Plain trials: rows are frame sizes, columns are runs; a cell is what the
 * DUT forwarded at the offered load, and the loss. */
static void print_trials(struct out *o, const struct report_model *m)
{
	out_text(o, "\n  trial (frames/s forwarded, median of repeats +- half their spread, of those offered,"
		 " and the loss), verdict against the first run at the same offered load\n\n");
	cell_table(o, m, 34, have_trial, trial_cell);
	print_trial_loss(o, m);
}

/* A service demand for a cell: "11.5", "-" when not measured. */
static void fmt_sd(char *buf, size_t len, double sd)
{
	if (sd >= 0)
		snprintf(buf, len, "%.2f", sd);
	else
		snprintf(buf, len, "-");
}

static bool have_stream(const struct rm_cell *c)
{
	return c->have_stream;
}

static void stream_cell(const struct rm_cell *c, char *cell, size_t len)
{
	char a[16], b[16], d[16], fig[32];
	int n;

	snprintf(fig, sizeof(fig), "%.1f", c->st_recv_mbps);
	n = median_spread(cell, len, fig, c->st_recv_mbps, c->st_recv_min, c->st_recv_max, c->stream_runs);

	fmt_sd(a, sizeof(a), c->st_send_sd);
	fmt_sd(b, sizeof(b), c->st_recv_sd);
	fmt_sd(d, sizeof(d), c->st_dut_sd);
	if (n >= 0)
		snprintf(cell + n, len - (size_t)n, ", loss %.2f%%, sd %s/%s/%s", c->st_loss_pct, a, b, d);
}

/* Streams: rows are message sizes, columns are runs; a cell is what was
 * received, the loss and the three service demands; then how each
 * service demand moved against the first run. */
static void print_streams(struct out *o, const struct report_model *m)
{
	char name[128];

	out_text(o, "\n  stream (10^6 bits/s received, median of runs +- half their spread, and the loss; service"
		 " demand, us of CPU per KB: sender/receiver/DUT), verdict against the first run\n\n");
	cell_table(o, m, 44, have_stream, stream_cell);
	/* what the runs cost each end, against the baseline */
	for (unsigned int r = 1; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++) {
			const struct rm_cell *c = &m->run[r].cell[k], *b = report_model_cell_of(&m->run[0], c->size);
			const double cv[3] = { c->st_send_sd, c->st_recv_sd, c->st_dut_sd };
			const double bv[3] = { b ? b->st_send_sd : -1, b ? b->st_recv_sd : -1, b ? b->st_dut_sd : -1 };
			static const char *const who[3] = { "the sender's", "the receiver's", "the DUT's" };

			if (!c->have_stream || !b || !b->have_stream)
				continue;
			run_name(&m->run[r], name, sizeof(name));
			for (int i = 0; i < 3; i++)
				if (cv[i] > 0 && bv[i] > 0)
					out_text(o, "  %s, %u B: %s service demand went from %.2f to %.2f us/KB (%+.1f%%)\n",
						 name, c->size, who[i], bv[i], cv[i], (cv[i] - bv[i]) * 100 / bv[i]);
		}
}

static void print_profiles(struct out *o, const struct report_model *m);

/* What the runs hold, for which tables to print. */
struct kinds {
	bool pct, cfg_differ, any_thr, any_trial, any_stream, cost, max_load;
};

/* A line per run (its test, time, kernel and configuration), and what
 * kinds of figures the runs have. */
static void runs_lines(struct out *o, const struct report_model *m, struct kinds *k)
{
	char name[128], test[4 * sizeof(m->run[0].test)], kernel[4 * sizeof(m->run[0].kernel)];
	char config[4 * sizeof(m->run[0].config)];

	memset(k, 0, sizeof(*k));
	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		run_name(run, name, sizeof(name));
		out_text(o, "  %-24s %s, %s%s%s, %s%s\n", name, esc(run->test, test, sizeof(test)),
			 run->when[0] ? run->when : TIMEFMT_UNKNOWN, run->kernel[0] ? ", kernel " : "",
			 esc(run->kernel, kernel, sizeof(kernel)), run->config[0] ? esc(run->config, config, sizeof(config)) : "-",
			 run->interrupted ? "  [INCOMPLETE]" : "");
		if (run->placement_moved)
			out_text(o, "  %-24s the host had %s: its figures move with that (docs/measurement.md)\n", "",
				 run->placement_note);
		if (run->nrounds > 1) {
			out_text(o, "  %-24s %u rounds: runs", "", run->nrounds);
			for (unsigned int i = 0; i < run->nrounds; i++)
				out_text(o, "%s %lld", i ? "," : "", (long long)run->round_id[i]);
			out_text(o, "\n");
		}
		for (unsigned int c = 0; c < run->ncells; c++) {
			k->pct |= run->cell[c].line_pps > 0;
			k->any_thr |= run->cell[c].have_thr;
			k->any_trial |= run->cell[c].have_trial;
			k->any_stream |= run->cell[c].have_stream;
			k->cost |= run->cell[c].ns_per_frame > 0;
			k->max_load |= run->cell[c].have_thr && run->cell[c].max_load > 0;
		}
		k->cfg_differ |= strcmp(run->config, m->run[0].config) != 0;
	}
}

/* By size: rows are frame sizes, columns are runs. */
static void by_size(struct out *o, const struct report_model *m, const struct kinds *k)
{
	char v[64];

	out_text(o, "\n  throughput (NDR, %s; median of repeats [interval, order statistics] and its coverage;"
		 " * limited by sporadic loss), verdict against %s\n\n", k->pct ? "% of line rate" : "frames/s",
		 "the first run");
	runs_header(o, m, 34);
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);
			char cell[128], iv[64] = "";

			fmt_thr(c, v, sizeof(v));
			if (c && c->have_thr && c->repeats > 1 && c->ndr_iv.n > 1)
				fmt_interval(c, iv, sizeof(iv));
			snprintf(cell, sizeof(cell), "%s%s%s", v, c && c->nf.limited ? "*" : "", iv);
			verdict_suffix(cell, sizeof(cell), c);
			runs_col(o, m, r, 34, cell);
		}
		out_text(o, "\n");
	}
	print_cell_notes(o, m);
}

/* By configuration: rows are configurations, kpps per size; columns as
 * wide as their longest entry (run, configuration). */
static void by_config(struct out *o, const struct report_model *m, const struct kinds *k)
{
	char name[128], diff[96];
	int wn = 3, wc = 13;

	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		config_diff(m, r, diff, sizeof(diff));
		wn = (int)strlen(name) > wn ? (int)strlen(name) : wn;
		wc = (int)strlen(diff) > wc ? (int)strlen(diff) : wc;
	}
	out_text(o, "\n  by configuration (kpps, NDR median%s; what differs between the runs)\n  %-*s  %-*s",
		 k->any_trial ? ", or forwarded in a plain trial" : "", wn, "run", wc, "configuration");
	for (unsigned int s = 0; s < m->nsizes; s++)
		out_text(o, " %8u", m->sizes[s]);
	out_text(o, "\n");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		config_diff(m, r, diff, sizeof(diff));
		out_text(o, "  %-*s  %-*s", wn, name, wc, diff);
		for (unsigned int s = 0; s < m->nsizes; s++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			if (c && c->have_thr)
				out_text(o, " %8.1f", c->ndr_med / 1e3);
			else if (c && c->have_trial)
				out_text(o, " %8.1f", c->trial_fwd_pps / 1e3);
			else
				out_text(o, " %8s", "-");
		}
		out_text(o, "\n");
	}
}

/* The shape QA teams publish: the NDR as a share of the maximum load
 * the search could offer, per size (rows) and run (columns: the kernels,
 * the configurations of a matrix). Printed where no line rate is known,
 * as on the lab and a VM DUT, where the maximum load is what the test
 * asked for (--max-load) or the tester's ceiling. */
static void of_max_load(struct out *o, const struct report_model *m)
{
	char name[128], cell[64];

	out_text(o, "\n  NDR as %% of the maximum load (the search's --max-load or the tester's ceiling)\n  %5s",
		 "size");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		out_text(o, r + 1 < m->nruns ? "  %-24s" : "  %s", name);
	}
	out_text(o, "\n");
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			if (c && c->have_thr && c->max_load > 0)
				snprintf(cell, sizeof(cell), "%s%.1f%% of %.2fk", c->tester_limited ? ">=" : "",
					 c->ndr_med * 100 / c->max_load, c->max_load / 1e3);
			else
				snprintf(cell, sizeof(cell), "-");
			out_text(o, r + 1 < m->nruns ? "  %-24s" : "  %s", cell);
		}
		out_text(o, "\n");
	}
}

/* Each run's goals (RFC 9971): per size and goal, the medians of the
 * Relevant Lower and Upper Bounds over the repeats, and what was
 * irregular. */
static void goals_table(struct out *o, const struct report_model *m)
{
	char name[128], lb[24], ub[24];
	bool any = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++)
			any |= m->run[r].cell[k].ngoal > 0;
	if (!any)
		return;
	out_text(o, "\n  goals (RFC 9971; frames/s per interface and direction, medians over the repeats)\n");
	out_text(o, "  %-8s %5s  %-26s %12s %12s  %s\n", "run", "size", "goal", "lower bound", "upper bound",
		 "irregular");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		for (unsigned int k = 0; k < m->run[r].ncells; k++) {
			const struct rm_cell *c = &m->run[r].cell[k];

			for (unsigned int i = 0; i < c->ngoal; i++) {
				const struct rm_goal *g = &c->goal[i];
				char spec[80];

				snprintf(spec, sizeof(spec), "%s%s%s", g->name, g->name[0] ? ":" : "", g->spec);
				snprintf(lb, sizeof(lb), isnan(g->rlb) ? "none" : "%.0f", g->rlb);
				snprintf(ub, sizeof(ub), isnan(g->rub) ? "none" : "%.0f", g->rub);
				if (g->irregular)
					out_text(o, "  %-8s %5u  %-26s %12s %12s  %u of %u: %s\n", name, c->size, spec, lb,
						 ub, g->irregular, g->repeats, g->why);
				else
					out_text(o, "  %-8s %5u  %-26s %12s %12s  no\n", name, c->size, spec, lb, ub);
			}
		}
	}
}

/* The cost per frame, where it was measured. */
static void cost_table(struct out *o, const struct report_model *m, const struct kinds *k)
{
	char name[128];

	out_text(o, "\n  DUT CPU per forwarded frame at the NDR%s (ns)\n  %5s",
		 k->any_trial || k->any_stream ? " or at a plain trial's or a stream's load" : "", "size");
	for (unsigned int r = 0; r < m->nruns; r++) {
		run_name(&m->run[r], name, sizeof(name));
		out_text(o, r + 1 < m->nruns ? "  %-12s" : "  %s", name);
	}
	out_text(o, "\n");
	for (unsigned int s = 0; s < m->nsizes; s++) {
		out_text(o, "  %5u", m->sizes[s]);
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			if (c && c->ns_per_frame > 0)
				out_text(o, r + 1 < m->nruns ? "  %-12.0f" : "  %.0f", c->ns_per_frame);
			else
				out_text(o, r + 1 < m->nruns ? "  %-12s" : "  %s", "-");
		}
		out_text(o, "\n");
	}
}

/* Under the tables, per configuration and size compared in rounds: the
 * paired difference with its interval, how far the host drifted across
 * the rounds and how much the rounds' differences disagree; or, without
 * rounds in common, how far the baseline moved by itself. */
static void print_rounds(struct out *o, const struct report_model *m)
{
	bool head = false;
	char name[128], base[128];

	run_name(&m->run[0], base, sizeof(base));
	for (unsigned int r = 1; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++) {
			const struct rm_cell *c = &m->run[r].cell[k];
			const struct paired_result *p = &c->paired;

			if (!c->have_paired && !c->have_paired_sd && !(c->drift_pct > 0))
				continue;
			if (!head)
				out_text(o, "\n  rounds (docs/confidence.md): each configuration against %s in the same "
					 "round\n", base);
			head = true;
			run_name(&m->run[r], name, sizeof(name));
			if (c->have_paired)
				out_text(o, "  %s, %u B: %+.1f%% [%+.1f%%, %+.1f%%] (%.0f%%, %u rounds): %s; the host "
					 "drifted %.1f%% across the rounds, the rounds' differences spread %.1f%%\n", name,
					 c->size, p->diff_pct, p->lo_pct, p->hi_pct, p->level * 100, p->n,
					 report_db_verdict_name(c->verdict), p->drift_pct, p->noise_pct);
			else
				out_text(o, "  %s, %u B: %+.1f%% %s: %s moved %.1f%% by itself between its rounds (or its "
					 "drift check), so a change smaller than that is not told\n", name, c->size,
					 c->diff_pct, report_db_verdict_name(c->verdict), base, c->drift_pct);
			if (c->have_paired_sd)
				out_text(o, "  %s, %u B, the DUT's service demand (us of CPU per KB): %+.1f%% [%+.1f%%, "
					 "%+.1f%%] (%.0f%%, %u rounds): %s\n", name, c->size, c->paired_sd.diff_pct,
					 c->paired_sd.lo_pct, c->paired_sd.hi_pct, c->paired_sd.level * 100, c->paired_sd.n,
					 report_db_verdict_name(c->sd_verdict));
		}
}

static void print_tables(struct out *o, const struct report_model *m)
{
	struct kinds k;

	runs_lines(o, m, &k);
	if (k.any_trial)
		print_trials(o, m);
	if (k.any_stream)
		print_streams(o, m);
	/* runs of plain trials or streams only have no search to tabulate */
	if (k.any_thr || !(k.any_trial || k.any_stream))
		by_size(o, m, &k);
	if (k.cfg_differ)
		by_config(o, m, &k);
	if (k.any_thr && k.max_load && !k.pct)
		of_max_load(o, m);
	if (k.cost)
		cost_table(o, m, &k);
	print_rounds(o, m);
	goals_table(o, m);
	print_profiles(o, m);
}

/* A profile entry's share in a cell, -1 when the symbol is not among
 * those kept. */
static double prof_pct(const struct rm_cell *c, const char *sym)
{
	for (unsigned int i = 0; c && i < c->nprof; i++)
		if (!strcmp(c->prof[i].symbol, sym))
			return c->prof[i].pct;
	return -1;
}

/* Where the DUT's CPUs spent the trials (--profile): per size, the
 * functions among each run's top five with every run's share, then the
 * largest moves against the first run: "nft_do_chain 2.1% -> 31.0%". */
static void print_profiles(struct out *o, const struct report_model *m)
{
	char name[64];
	bool any = false;

	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int k = 0; k < m->run[r].ncells; k++)
			any |= m->run[r].cell[k].have_prof;
	if (!any)
		return;
	out_text(o, "\n  where the DUT's CPU went (--profile: share of its busy samples at the NDR or a plain trial's load)\n");
	for (unsigned int s = 0; s < m->nsizes; s++) {
		const char *syms[RM_MAX_RUNS * 5];
		unsigned int nsym = 0;
		const struct rm_cell *base = report_model_cell_of(&m->run[0], m->sizes[s]);

		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			for (unsigned int i = 0; c && c->have_prof && i < c->nprof && i < 5; i++) {
				unsigned int k;

				for (k = 0; k < nsym && strcmp(syms[k], c->prof[i].symbol); k++)
					;
				if (k == nsym && nsym < sizeof(syms) / sizeof(syms[0]))
					syms[nsym++] = c->prof[i].symbol;
			}
		}
		if (!nsym)
			continue;
		out_text(o, "  %5u B %-26s", m->sizes[s], "");
		for (unsigned int r = 0; r < m->nruns; r++) {
			run_name(&m->run[r], name, sizeof(name));
			out_text(o, "  %-12.12s", name);
		}
		out_text(o, "\n  %-34s", "        in softirq");
		for (unsigned int r = 0; r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);

			if (c && c->have_prof)
				out_text(o, "  %11.1f%%", c->prof_softirq_pct);
			else
				out_text(o, "  %12s", "-");
		}
		out_text(o, "\n");
		for (unsigned int k = 0; k < nsym; k++) {
			out_text(o, "          ");
			out_str(o, NULL, "%-24.24s", syms[k]);
			for (unsigned int r = 0; r < m->nruns; r++) {
				double v = prof_pct(report_model_cell_of(&m->run[r], m->sizes[s]), syms[k]);

				if (v >= 0)
					out_text(o, "  %11.1f%%", v);
				else
					out_text(o, "  %12s", "-");
			}
			out_text(o, "\n");
		}
		/* the largest move of each later run against the first */
		for (unsigned int r = 1; base && base->have_prof && r < m->nruns; r++) {
			const struct rm_cell *c = report_model_cell_of(&m->run[r], m->sizes[s]);
			const char *best = NULL;
			double bd = 0, b0 = 0, b1 = 0;
			char s0[24], s1[24];

			for (unsigned int k = 0; c && c->have_prof && k < nsym; k++) {
				double a = prof_pct(base, syms[k]), b = prof_pct(c, syms[k]);

				/* a symbol not kept had less than the last kept one:
				 * counted as 0, said as "under" that one */
				if (fabs((b < 0 ? 0 : b) - (a < 0 ? 0 : a)) > fabs(bd)) {
					bd = (b < 0 ? 0 : b) - (a < 0 ? 0 : a);
					best = syms[k];
					b0 = a;
					b1 = b;
				}
			}
			if (best && fabs(bd) >= 5) {
				run_name(&m->run[r], name, sizeof(name));
				if (b0 >= 0)
					snprintf(s0, sizeof(s0), "%.1f%%", b0);
				else
					snprintf(s0, sizeof(s0), "under %.1f%%", base->nprof ? base->prof[base->nprof - 1].pct : 100.0);
				if (b1 >= 0)
					snprintf(s1, sizeof(s1), "%.1f%%", b1);
				else
					snprintf(s1, sizeof(s1), "under %.1f%%", c->nprof ? c->prof[c->nprof - 1].pct : 100.0);
				out_text(o, "          ");
				out_str(o, NULL, "%s", best);
				out_text(o, " went from %s to %s of the busy time in %s\n", s0, s1, name);
			}
		}
	}
}

void report_print(struct out *o, const struct report_model *m)
{
	out_str(o, "title", "%s\n\n", m->title);
	if (!out_is_json(o))
		print_tables(o, m);
	out_arr_start(o, "sizes");
	for (unsigned int s = 0; s < m->nsizes; s++)
		out_u64(o, NULL, NULL, m->sizes[s]);
	out_arr_end(o);
	out_arr_start(o, "runs");
	for (unsigned int r = 0; r < m->nruns && out_is_json(o); r++)
		report_print_json_run(o, &m->run[r], r == 0);
	out_arr_end(o);
	if (m->fail_pct >= 0) {
		out_f64(o, "fail_on_regression_pct", "\n  --fail-on-regression %g%%: ", m->fail_pct);
		out_bool(o, "regression", NULL, m->regression);
		out_text(o, "%s", m->regression ? "REGRESSION: a cell is worse than the baseline by more than that beyond noise"
						: "no regression beyond noise");
		for (unsigned int r = 0; r < m->nruns; r++)
			if (m->run[r].interrupted) {
				out_text(o, " (incomplete runs not counted)");
				break;
			}
		out_text(o, "\n");
	} else {
		out_null(o, "fail_on_regression_pct");
		out_bool(o, "regression", NULL, m->regression);
	}
}
