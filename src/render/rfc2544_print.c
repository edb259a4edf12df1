#include "render/rfc2544_print.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/interval.h"
#include "render/loss_print.h"
#include "core/ns.h"

static void size_name(const struct rfc2544_row *row, char *buf, size_t len)
{
	if (row->size)
		snprintf(buf, len, "%u B", row->size);
	else
		snprintf(buf, len, "imix");
}

static void range_text(const struct rfc2544_agree_size *z, char *buf, size_t len)
{
	if (isinf(z->hi))
		snprintf(buf, len, "%.0f or more", z->lo);
	else if (z->hi - z->lo < 0.5)
		snprintf(buf, len, "%.0f", z->lo);
	else
		snprintf(buf, len, "%.0f-%.0f", z->lo, z->hi);
}

static void one(struct out *o, const struct rfc2544_result *res, const struct rfc2544_agree *a, const char *key)
{
	const char *name = key[0] == 'n' ? "NDR" : "PDR";
	char line[320], sz[16], range[64];

	out_obj_start(o, key);
	out_bool(o, "agree", NULL, a->agree);
	out_bool(o, "explained", NULL, a->agree || a->explained);
	out_u64(o, "at_line_rate", NULL, a->nline);
	out_f64(o, "lo", NULL, a->lo);
	out_f64(o, "hi", NULL, isinf(a->hi) ? NAN : a->hi);
	if (a->agree && isinf(a->hi))
		snprintf(line, sizeof(line), "%s agree: every size's range holds %.0f frames/s (some are \"at least\")",
			 name, a->lo);
	else if (a->agree)
		snprintf(line, sizeof(line), "%s agree: every size forwards %.0f-%.0f frames/s, so the DUT is "
			 "bound by frames, not bytes", name, a->lo, a->hi);
	else
		snprintf(line, sizeof(line), "%s differ: not every size's range reaches %.0f frames/s, where "
			 "another's starts", name, a->hi);
	out_str(o, "text", "  sizes      %s", line);
	if (a->nline)
		out_text(o, " (%u at line rate left out: bound by bytes)", a->nline);
	out_text(o, "\n");
	out_arr_start(o, "rows");
	for (unsigned int k = 0; k < a->n; k++) {
		const struct rfc2544_agree_size *z = &a->s[k];

		size_name(&res->row[z->row], sz, sizeof(sz));
		range_text(z, range, sizeof(range));
		out_obj_start(o, NULL);
		out_u64(o, "size", NULL, res->row[z->row].size);
		out_f64(o, "figure", NULL, z->figure);
		out_f64(o, "lo", NULL, z->lo);
		out_f64(o, "hi", NULL, isinf(z->hi) ? NAN : z->hi);
		out_bool(o, "below", NULL, z->below);
		if (z->below) {
			out_text(o, "             %s %s:", sz, range);
			if (z->fail_load > 0) {
				out_f64(o, "failed_load", " its failed trial at %.0f frames/s:", z->fail_load);
				out_str(o, "limit", NULL, lossattr_limit_name(z->by));
				out_str(o, "limit_text", " %s\n", z->why[0] ? z->why : "nothing any counter saw");
			} else {
				out_text(o, " no failed trial above it was kept\n");
			}
		}
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!a->agree && !a->explained)
		out_text(o, "             not explained by a counter: '--repeat 5' gives each size an interval\n");
	out_obj_end(o);
}

void rfc2544_print_agree(struct out *o, const struct rfc2544_result *res)
{
	if (res->agree[0].n < 2 && res->agree[1].n < 2)
		return;
	out_text(o, "\n");
	out_obj_start(o, "sizes");
	if (res->agree[0].n >= 2)
		one(o, res, &res->agree[0], "ndr");
	if (res->agree[1].n >= 2)
		one(o, res, &res->agree[1], "pdr");
	out_obj_end(o);
}

static void bound_cells(struct out *o, const char *key, const struct rfc2544_row *row, bool pdr,
			      double frame, double line_bps)
{
	const struct search_bound *b = pdr ? &row->thr.pdr : &row->thr.ndr;
	double mbps = b->lower_valid ? b->lower * frame * 8 / 1e6 : 0;
	char why[256];
	bool at_least = rfc2544_bound_note(row, &row->thr, pdr, why, sizeof(why));

	out_obj_start(o, key);
	if (b->lower_valid) {
		if (line_bps > 0)
			out_f64(o, "pct_line_rate", " %7.2f%%", b->lower * (frame + 20) * 8 * 100 / line_bps);
		else
			out_f64(o, "pct_max_load", " %7.2f%%", b->lower * 100 / row->max_load);
		out_f64(o, "pps", " %12.0f", b->lower);
		out_f64(o, "mbps_l2", " %9.1f", mbps);
		/* with the preamble and gap, as --rate 1Gbit counts */
		out_f64(o, "mbps_l1", NULL, b->lower * (frame + 20) * 8 / 1e6);
	} else {
		out_text(o, " %8s %12s %9s", "-", "-", "-");
		out_null(o, "pps");
	}
	out_f64(o, "lower", NULL, b->lower_valid ? b->lower : NAN);
	out_f64(o, "upper", NULL, b->upper_valid ? b->upper : NAN);
	out_bool(o, "at_max", NULL, b->at_max);
	out_bool(o, "tester_capped", NULL, b->tester_capped);
	/* "at least" is this bound's own: the tester (or --max-load) stopped
	 * it, never the other bound of the same search */
	out_bool(o, "at_least", NULL, at_least);
	if (why[0])
		out_str(o, "bound_note", NULL, why);
	out_bool(o, "noisy", NULL, b->noisy);
	if (b->noisy)
		out_f64(o, "noisy_load", NULL, b->noisy_load);
	if (b->cond_valid)
		out_f64(o, "conditional_throughput", NULL, b->cond_tput);
	out_obj_end(o);
}

/* The notes column: short, each naming its bound; the detail follows the
 * row (detail_lines). */
static void notes(char *buf, size_t len, const struct rfc2544_row *row)
{
	const struct search_bound *n = &row->thr.ndr, *p = &row->thr.pdr;
	char why[256];
	size_t off;

	buf[0] = '\0';
	for (int pdr = 0; pdr < 2; pdr++) {
		const char *name = pdr ? "PDR" : "NDR";

		off = strlen(buf);
		if (rfc2544_bound_note(row, &row->thr, pdr, why, sizeof(why)))
			snprintf(buf + off, len - off, " %s at least", name);
		else if (!strcmp(why, "at line rate"))
			snprintf(buf + off, len - off, " %s at line rate", name);
	}
	off = strlen(buf);
	if (n->noisy || p->noisy)
		snprintf(buf + off, len - off, " NOISY at %.0f f/s", n->noisy ? n->noisy_load : p->noisy_load);
	off = strlen(buf);
	if (row->nf.limited)
		snprintf(buf + off, len - off, " NDR SPORADIC LOSS");
	off = strlen(buf);
	if (!row->thr.done && row->thr_done)
		snprintf(buf + off, len - off, " width goal not met");
}

/* Under the row: where each "at least" was capped, and the noise floor
 * (marked, never hidden: the row keeps its NDR). */
static void detail_lines(struct out *o, const struct rfc2544_row *row)
{
	char why[256];

	for (int pdr = 0; pdr < 2; pdr++) {
		const struct search_bound *b = pdr ? &row->thr.pdr : &row->thr.ndr;

		if (rfc2544_bound_note(row, &row->thr, pdr, why, sizeof(why)))
			out_text(o, "         %s at least %.0f frames/s: %s\n", pdr ? "PDR" : "NDR", b->lower, why);
	}
	loss_print_noisefloor(o, &row->nf, row->nf_where, "         ");
}

/* "NDR 412000 [398000-420500] 94%" for one figure over the repeats. */
static void interval_cells(struct out *o, const char *key, const char *name, const struct interval *iv, bool bound)
{
	char text[160];

	out_obj_start(o, key);
	if (!iv->n) {
		out_text(o, " %s -", name);
		out_obj_end(o);
		return;
	}
	snprintf(text, sizeof(text), " %s %s%.0f [%.0f-%.0f] %u%%", name, bound ? "at least " : "", iv->median,
		 iv->lo, iv->hi, interval_coverage_pct(iv->coverage));
	out_text(o, "%s", text);
	out_f64(o, "median", NULL, iv->median);
	out_f64(o, "lo", NULL, iv->lo);
	out_f64(o, "hi", NULL, iv->hi);
	out_f64(o, "coverage", NULL, iv->coverage);
	out_u64(o, "k", NULL, iv->k);
	out_u64(o, "n", NULL, iv->n);
	out_bool(o, "at_least", NULL, bound);
	out_str(o, "method", NULL, "order statistics");
	out_obj_end(o);
}

/* The rows, the trials, the soak's trust, where it was stored. */
#define RFC2544_THR_TESTS (RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_B2B)

/* The repeated searches of a size: their spread and the medians'
 * intervals. */
static void repeats_block(struct out *o, const struct rfc2544_row *row)
{
	out_obj_start(o, "repeats");
	out_u64(o, "searches", "         %llu searches:", row->nrep);
	out_f64(o, "ndr_median", " NDR median %.0f", row->ndr_med);
	out_f64(o, "ndr_min", " (min %.0f", row->ndr_min);
	out_f64(o, "ndr_max", ", max %.0f", row->ndr_max);
	out_text(o, ", spread %.2f%%)", row->ndr_med > 0 ? (row->ndr_max - row->ndr_min) * 100 / row->ndr_med : 0);
	out_f64(o, "pdr_median", ", PDR median %.0f", row->pdr_med);
	out_f64(o, "pdr_min", " (min %.0f", row->pdr_min);
	out_f64(o, "pdr_max", ", max %.0f) frames/s\n", row->pdr_max);
	/* the medians with how far to trust them (docs/confidence.md) */
	out_text(o, "        ");
	interval_cells(o, "ndr_interval", "NDR", &row->ndr_iv, row->ndr_bound);
	out_text(o, ",");
	interval_cells(o, "pdr_interval", "PDR", &row->pdr_iv, row->pdr_bound);
	out_text(o, " (%u repeats, order statistics%s)\n", row->nrep,
		 row->ndr_iv.n && !row->ndr_iv.goal_met ? "; fewer than 5 cannot give 90%" : "");
	if (row->ndr_nbound || row->pdr_nbound)
		out_text(o, "         at least: %u NDR and %u PDR of the %u searches were stopped by the "
			 "tester or the max load, not the DUT\n", row->ndr_nbound, row->pdr_nbound, row->nrep);
	out_u64(o, "ndr_bounds", NULL, row->ndr_nbound);
	out_u64(o, "pdr_bounds", NULL, row->pdr_nbound);
	out_arr_start(o, "ndr");
	for (unsigned int k = 0; k < row->nrep; k++)
		if (row->rep[k].ndr.lower_valid)
			out_f64(o, NULL, NULL, row->rep[k].ndr.lower);
	out_arr_end(o);
	out_obj_end(o);
}

static void latency_block(struct out *o, const struct rfc2544_row *row)
{
	out_obj_start(o, "latency");
	out_f64(o, "load", "         latency at %.0f f/s", row->lat_load);
	out_u64(o, "runs", " (%llu runs", row->lat_runs);
	out_u64(o, "frames", ", %llu frames):", row->lat_frames);
	out_text(o, " min %.1f us, median %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us, variation %.1f us\n",
		 ns_to_us(row->lat_min), ns_to_us(row->lat_median), ns_to_us(row->lat_p99), ns_to_us(row->lat_p999),
		 ns_to_us(row->lat_max), ns_to_us(row->lat_pdv));
	out_u64(o, "min_ns", NULL, row->lat_min);
	out_u64(o, "median_ns", NULL, row->lat_median);
	out_u64(o, "p99_ns", NULL, row->lat_p99);
	out_u64(o, "p99_9_ns", NULL, row->lat_p999);
	out_u64(o, "max_ns", NULL, row->lat_max);
	out_u64(o, "variation_ns", NULL, row->lat_pdv);
	out_obj_end(o);
}

static void loss_block(struct out *o, const struct rfc2544_row *row)
{
	out_arr_start(o, "frame_loss");
	out_text(o, "         frame loss:");
	for (unsigned int k = 0; k < row->nloss; k++) {
		const struct rfc2544_loss_step *st = &row->loss[k];

		out_obj_start(o, NULL);
		out_f64(o, "pct", " %.0f%%", st->pct);
		out_f64(o, "loss_pct", " -> %.2f%%", st->loss_pct);
		out_text(o, "%s%s", st->tester_limited ? " (tester-limited)" : "", k + 1 < row->nloss ? "," : "\n");
		out_f64(o, "load", NULL, st->load);
		out_u64(o, "tx", NULL, st->tx);
		out_u64(o, "rx", NULL, st->rx);
		out_bool(o, "tester_limited", NULL, st->tester_limited);
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void b2b_block(struct out *o, const struct rfc2544_row *row)
{
	out_obj_start(o, "back_to_back");
	out_f64(o, "avg_frames", "         back-to-back: %.0f frames on average", row->b2b_avg);
	out_f64(o, "min_frames", " (min %.0f", row->b2b_min);
	out_f64(o, "max_frames", ", max %.0f", row->b2b_max);
	out_u64(o, "runs", ", %llu runs)", row->b2b_runs);
	out_f64(o, "implied_buffer_s", ", implied buffer %.6f s", row->b2b_implied_s);
	out_f64(o, "corrected_buffer_s", ", corrected (RFC 9004) %.6f s\n", row->b2b_corrected_s);
	out_obj_end(o);
}

/* The throughput table's cells of a row, and its search's figures. */
static void search_cells(struct out *o, const struct rfc2544_row *row, double frame, double line_bps)
{
	char nb[256];

	bound_cells(o, "ndr", row, false, frame, line_bps);
	bound_cells(o, "pdr", row, true, frame, line_bps);
	out_text(o, " %12.0f ", row->max_load);
	notes(nb, sizeof(nb), row);
	out_str(o, "notes", "%s", nb);
	out_bool(o, "search_done", NULL, row->thr.done);
	if (row->ns_per_frame_ndr > 0) {
		out_f64(o, "ns_per_frame_ndr", NULL, row->ns_per_frame_ndr);
		out_f64(o, "ns_per_frame_load", NULL, row->ndr_cost_load);
		out_str(o, "cpu_source", NULL, row->cpu_source);
	}
	out_u64(o, "search_trials", NULL, row->thr.trials);
	out_u64(o, "search_tester_retries", NULL, row->thr.tester_retries);
	out_f64(o, "search_time_s", NULL, ns_to_s(row->thr.total_ns));
}

/* The lines under a row's throughput cells: what else its search found. */
static void search_lines(struct out *o, const struct rfc2544_row *row, const struct rfc2544_print_opts *p)
{
	if (p->tests & RFC2544_THR_TESTS)
		detail_lines(o, row);
	/* The draft's figure for comparing searches. With one trial per
	 * load it is the NDR itself and the PDR trial's forwarding rate:
	 * printed only with goals, so the default table stays as it was. */
	if (p->goals && (row->thr.ndr.cond_valid || row->thr.pdr.cond_valid))
		out_text(o, "         conditional throughput: NDR %.0f, PDR %.0f frames/s\n",
			 row->thr.ndr.cond_valid ? row->thr.ndr.cond_tput : 0,
			 row->thr.pdr.cond_valid ? row->thr.pdr.cond_tput : 0);
	if (row->ns_per_frame_ndr > 0)
		out_text(o, "         DUT CPU: %.0f ns per forwarded frame at %.0f frames/s (from %s)\n",
			 row->ns_per_frame_ndr, row->ndr_cost_load, row->cpu_source);
	if (row->thr.tester_retries)
		out_text(o, "         the tester fell short in %u trial(s) of the search shown: each was run again before it could cap the search\n",
			 row->thr.tester_retries);
}

/* One frame size's row: its cells and the lines of each test under them. */
static void row_print(struct out *o, const struct rfc2544_row *row, double frame, const struct rfc2544_print_opts *p)
{
	out_obj_start(o, NULL);
	if (row->size)
		out_u64(o, "size", "  %5llu", row->size);
	else
		out_str(o, "size", "  %5s", "imix");
	out_f64(o, "avg_frame_size", NULL, frame);
	out_f64(o, "max_load", NULL, row->max_load);
	out_bool(o, "max_is_ceiling", NULL, row->max_is_ceiling);
	if (p->tests & RFC2544_THR_TESTS)
		search_cells(o, row, frame, p->line_bps);
	out_text(o, "\n");
	search_lines(o, row, p);
	if (row->nrep > 1)
		repeats_block(o, row);
	if (row->lat_done || row->lat_runs)
		latency_block(o, row);
	else if (p->tests & RFC2544_LATENCY)
		out_text(o, "         latency: not measured (no throughput rate found)\n");
	if (row->nloss)
		loss_block(o, row);
	if (row->b2b_runs)
		b2b_block(o, row);
	out_obj_end(o);
}

/* A trial's test in JSON ('t', 'l', 'f' or 'b'). */
static const char *test_key(char test)
{
	return test == 't' ? "throughput" : test == 'g' ? "goal_search" : test == 'l' ? "latency" :
	       test == 'f' ? "frame_loss" : "back_to_back";
}

/* RFC 9971's Trial Output of t (JSON only), and the traffic's own time
 * beside the effective duration the search counted. */
static void trial_output_print(struct out *o, const struct rfc2544_trial *t)
{
	struct trial_output to;

	goal_trial_output(t->load, t->duration_ns, t->tx, t->rx, &to);
	out_f64(o, "loss_ratio", NULL, to.loss_ratio);
	out_f64(o, "effective_duration_s", NULL, to.effective_s);
	out_f64(o, "forwarding_rate", NULL, to.forwarding_rate);
	if (t->elapsed_ns)
		out_f64(o, "traffic_s", NULL, ns_to_s(t->elapsed_ns));
}

/* Every trial of the run, in order (JSON only). */
static void trials_print(struct out *o, const struct rfc2544_result *res)
{
	out_arr_start(o, "trials");
	for (unsigned int i = 0; i < res->ntrials; i++) {
		const struct rfc2544_trial *t = &res->trials[i];

		out_obj_start(o, NULL);
		out_u64(o, "size", NULL, t->size);
		out_str(o, "test", NULL, test_key(t->test));
		out_f64(o, "load", NULL, t->load);
		out_f64(o, "duration_s", NULL, ns_to_s(t->duration_ns));
		out_u64(o, "tx", NULL, t->tx);
		out_u64(o, "rx", NULL, t->rx);
		out_u64(o, "dut_refused", NULL, t->dut_refused);
		trial_output_print(o, t);
		out_bool(o, "tester_limited", NULL, t->tester_limited);
		if (t->cpu_valid) {
			out_f64(o, "dut_cpu_busy_pct", NULL, t->cpu_busy_pct);
			if (t->cpu_soak_pct >= 0)
				out_f64(o, "dut_cpu_soak_pct", NULL, t->cpu_soak_pct);
			if (t->soak_trusted)
				out_bool(o, "dut_soak_trusted", NULL, t->soak_trusted > 0);
			out_f64(o, "ns_per_frame", NULL, t->ns_per_frame);
			out_str(o, "cpu_source", NULL, t->cpu_source);
		}
		out_obj_end(o);
	}
	out_arr_end(o);
}

/* The run's end: the soak's trust, the store, an interruption. */
static void tail_print(struct out *o, const struct rfc2544_result *res, const struct rfc2544_print_opts *p)
{
	unsigned int untrusted = 0, soaked = 0;

	for (unsigned int i = 0; i < res->ntrials; i++) {
		soaked += res->trials[i].soak_trusted != 0;
		untrusted += res->trials[i].soak_trusted < 0;
	}
	if (untrusted)
		out_text(o, "\n  soak       UNTRUSTED in %u of %u soaked trials: the idle check found the CPU's speed "
			 "off its calibration: recalibrate with wirerate soak --calibrate\n", untrusted, soaked);
	out_u64(o, "soak_untrusted_trials", NULL, untrusted);
	out_bool(o, "interrupted", NULL, res->interrupted);
	if (p->run_id) {
		out_i64(o, "run_id", "\n  stored as run %lld", p->run_id);
		out_str(o, "db", " in %s\n", p->db);
	}
	if (res->interrupted)
		out_text(o, "\n  INCOMPLETE: interrupted; the rows above are what was found before the stop\n");
}

/* v as a whole number of frames/s, or "none". */
static const char *num(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

/* Goal k's result in repeat r of row. */
static void goal_result_of(const struct rfc2544_row *row, unsigned int r, unsigned int k,
			   const struct rfc2544_print_opts *p, struct rfc2544_goal_result *gr)
{
	rfc2544_goal_result(row, rfc2544_set_outcome(row, r, p->goal_set ? p->goal_set[k] : 0),
			    p->goal_slot ? p->goal_slot[k] : -1, &p->goal[k], gr);
}

/* Why goal k's lower bound (gk) in repeat r of row reads below that of a
 * goal it is more tolerant than (goal_tolerates), in buf; "" when it
 * does not. Goals of one search read the same trials, so there it cannot
 * (RFC 9971's classification orders them); a goal searched apart, with
 * final or initial trials of other lengths, has trials of its own, and
 * nothing orders bounds from different trials. */
static void goal_below(const struct rfc2544_row *row, unsigned int r, unsigned int k,
		       const struct rfc2544_print_opts *p, const struct rfc2544_goal_result *gk, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned int j = 0; j < p->ngoal; j++) {
		const struct search_goal *a = &p->goal[j], *b = &p->goal[k];
		struct rfc2544_goal_result gj;
		char name[GOAL_NAME_MAX + 8];

		if (j == k || !goal_tolerates(b, a) || goal_tolerates(a, b))
			continue;
		goal_result_of(row, r, j, p, &gj);
		if (isnan(gj.rlb) || (!isnan(gk->rlb) && gk->rlb >= gj.rlb))
			continue;
		if (a->name[0])
			snprintf(name, sizeof(name), "%s", a->name);
		else
			snprintf(name, sizeof(name), "goal %u", j + 1);
		if (!p->goal_set || p->goal_set[j] == p->goal_set[k])
			snprintf(buf, len, "below the stricter %s's %.0f on the same trials: not what RFC 9971's "
				 "classification allows; please report it", name, gj.rlb);
		else if (a->final_ns != b->final_ns)
			snprintf(buf, len, "below the stricter %s's %.0f: searched apart with its own trials (final trials "
				 "%g s, %s's %g s), which RFC 9971 does not order", name, gj.rlb,
				 ns_to_s((double)b->final_ns), name, ns_to_s((double)a->final_ns));
		else
			snprintf(buf, len, "below the stricter %s's %.0f: searched apart with its own trials (initial "
				 "trials %g s, %s's %g s), which RFC 9971 does not order", name, gj.rlb,
				 ns_to_s((double)b->initial_ns), name, ns_to_s((double)a->initial_ns));
		return;
	}
}

/* Each goal's Goal Result (RFC 9971) per size: the text shows the
 * search the row's figures come from, JSON every repeat. A goal whose
 * lower bound reads below a stricter goal's says why. */
static void goals_print(struct out *o, const struct rfc2544_result *res, const struct rfc2544_print_opts *p)
{
	bool any = false;

	for (unsigned int i = 0; i < res->nrows; i++)
		any |= res->row[i].nrep > 0;
	out_arr_start(o, "goal_results");
	if (!any || !p->ngoal) {
		out_arr_end(o);
		return;
	}
	out_text(o, "\n  goals (RFC 9971)  frames/s per interface and direction\n");
	out_text(o, "  %5s  %-26s %12s %12s %12s  %s\n", "size", "goal", "lower bound", "upper bound", "cond. tput",
		 "irregular");
	for (unsigned int i = 0; i < res->nrows; i++) {
		const struct rfc2544_row *row = &res->row[i];

		for (unsigned int r = 0; r < row->nrep; r++) {
			bool shown = row->nrep == 1 || !memcmp(&row->rep[r], &row->thr, sizeof(row->thr));

			for (unsigned int k = 0; k < p->ngoal; k++) {
				struct rfc2544_goal_result gr;
				char spec[64], sz[16], v[3][24], note[320];

				goal_result_of(row, r, k, p, &gr);
				goal_below(row, r, k, p, &gr, note, sizeof(note));
				goal_format(&p->goal[k], spec, sizeof(spec));
				out_obj_start(o, NULL);
				out_u64(o, "size", NULL, row->size);
				out_u64(o, "repeat", NULL, r);
				out_str(o, "goal", NULL, spec);
				out_f64(o, "rlb", NULL, gr.rlb);
				out_f64(o, "rub", NULL, gr.rub);
				out_f64(o, "conditional_throughput", NULL, gr.cond);
				out_bool(o, "at_least", NULL, gr.at_least);
				out_str(o, "irregular", NULL, gr.irregular);
				out_str(o, "note", NULL, note);
				out_obj_end(o);
				if (!shown)
					continue;
				if (row->size)
					snprintf(sz, sizeof(sz), "%u", row->size);
				else
					snprintf(sz, sizeof(sz), "imix");
				out_text(o, "  %5s  %-26s %s%10s %12s %12s  %s\n", sz, spec, gr.at_least ? ">=" : "  ",
					 num(gr.rlb, v[0], sizeof(v[0])), num(gr.rub, v[1], sizeof(v[1])),
					 num(gr.cond, v[2], sizeof(v[2])), gr.irregular[0] ? gr.irregular : "no");
				if (note[0])
					out_text(o, "  %5s  note: %s\n", "", note);
			}
		}
	}
	out_arr_end(o);
}

void rfc2544_print_result(struct out *o, const struct rfc2544_result *res, const struct rfc2544_print_opts *p)
{
	out_arr_start(o, "rows");
	if (p->tests & RFC2544_THR_TESTS) {
		const char *pct = p->line_bps > 0 ? "%line" : "%max";

		out_text(o, "\n  throughput  %-33s  %-33s\n", "NDR (no loss)", "PDR");
		out_text(o, "  %5s %8s %12s %9s %8s %12s %9s %12s  %s\n", "size", pct, "frames/s", "Mb/s",
			 pct, "frames/s", "Mb/s", "max load", "notes");
	}
	for (unsigned int i = 0; i < res->nrows; i++) {
		/* an IMIX row's frame: the mix's mean */
		double frame = res->row[i].size;

		if (!res->row[i].size)
			for (unsigned int k = 0; k < p->nsizes; k++)
				frame += p->sizes[k] / (double)p->nsizes;
		row_print(o, &res->row[i], frame, p);
	}
	out_arr_end(o);
	goals_print(o, res, p);
	rfc2544_print_agree(o, res);
	trials_print(o, res);
	tail_print(o, res, p);
}

/* --json-stream's line for one trial as it ends. */
void rfc2544_print_event(struct out *o, const struct rfc2544_trial *t)
{
	struct trial_output to;

	goal_trial_output(t->load, t->duration_ns, t->tx, t->rx, &to);
	out_str(o, "event", NULL, "trial");
	out_u64(o, "size", NULL, t->size);
	out_str(o, "test", NULL, test_key(t->test));
	out_u64(o, "repeat", NULL, t->repeat);
	if (t->test == 'g')
		out_u64(o, "goal_set", NULL, t->goalset);
	out_f64(o, "load", NULL, t->load);
	out_f64(o, "duration_s", NULL, ns_to_s(t->duration_ns));
	out_u64(o, "tx", NULL, t->tx);
	out_u64(o, "rx", NULL, t->rx);
	out_f64(o, "loss_pct", NULL, 100.0 * to.loss_ratio);
	trial_output_print(o, t);
	out_bool(o, "tester_limited", NULL, t->tester_limited);
	loss_print_limit(o, t->limit, t->limit_text[0] ? t->limit_text : lossattr_limit_name(t->limit));
	if (t->cpu_valid)
		out_f64(o, "dut_cpu_busy_pct", NULL, t->cpu_busy_pct);
}
