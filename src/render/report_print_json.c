/* A report's runs in its JSON: each run's facts and every figure of its
 * cells (the search, the goals, latency and loss, the profile, a plain
 * trial's and a stream's), beside the tables report_print.c writes. */
#include "render/report_print_impl.h"

#include "render/loss_print.h"
#include "store/report_db.h"

/* A cell's throughput search: the NDR's spread and band, the PDR, the
 * line rate, the medians' intervals and the noise floor. */
static void json_search(struct out *o, const struct rm_cell *c)
{
	if (c->have_thr) {
		double lo, hi;

		out_f64(o, "ndr_median_pps", NULL, c->ndr_med);
		out_f64(o, "ndr_min_pps", NULL, c->ndr_min);
		out_f64(o, "ndr_max_pps", NULL, c->ndr_max);
		out_f64(o, "width_pps", NULL, c->width_pps);
		report_db_band(c, &lo, &hi);
		out_f64(o, "band_lo_pps", NULL, lo);
		out_f64(o, "band_hi_pps", NULL, hi);
	}
	if (c->pdr_med > 0)
		out_f64(o, "pdr_median_pps", NULL, c->pdr_med);
	if (c->max_load > 0) {
		out_f64(o, "max_load_pps", NULL, c->max_load);
		if (c->have_thr)
			out_f64(o, "ndr_pct_of_max_load", NULL, c->ndr_med * 100 / c->max_load);
	}
	if (c->line_pps > 0) {
		out_f64(o, "line_pps", NULL, c->line_pps);
		if (c->have_thr)
			out_f64(o, "ndr_pct_line_rate", NULL, c->ndr_med * 100 / c->line_pps);
	}
	out_bool(o, "at_least", NULL, c->tester_limited);
	out_bool(o, "pdr_at_least", NULL, c->pdr_bound);
	for (int pdr = 0; pdr < 2; pdr++) {
		const struct interval *iv = pdr ? &c->pdr_iv : &c->ndr_iv;

		if (!iv->n)
			continue;
		out_obj_start(o, pdr ? "pdr_interval" : "ndr_interval");
		out_f64(o, "median", NULL, iv->median);
		out_f64(o, "lo", NULL, iv->lo);
		out_f64(o, "hi", NULL, iv->hi);
		out_f64(o, "coverage", NULL, iv->coverage);
		out_u64(o, "n", NULL, iv->n);
		out_str(o, "method", NULL, "order statistics");
		out_obj_end(o);
	}
	if (c->have_thr || c->nf.trials)
		loss_print_noisefloor(o, &c->nf, NULL, NULL);
}

/* Latency and the frame loss steps. */
static void json_latency_loss(struct out *o, const struct rm_cell *c)
{
	if (c->have_lat) {
		out_obj_start(o, "latency_ns");
		out_f64(o, "min", NULL, c->lat_min);
		out_f64(o, "median", NULL, c->lat_median);
		out_f64(o, "p99", NULL, c->lat_p99);
		out_f64(o, "p99_9", NULL, c->lat_p999);
		out_f64(o, "max", NULL, c->lat_max);
		out_obj_end(o);
	}
	out_arr_start(o, "frame_loss");
	for (unsigned int i = 0; i < c->nloss; i++) {
		out_obj_start(o, NULL);
		out_f64(o, "offered_pct", NULL, c->loss[i].offered_pct);
		out_f64(o, "offered_pps", NULL, c->loss[i].offered_pps);
		out_f64(o, "loss_pct", NULL, c->loss[i].loss_pct);
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void json_profile(struct out *o, const struct rm_cell *c)
{
	out_obj_start(o, "profile");
	out_f64(o, "softirq_pct", NULL, c->prof_softirq_pct);
	out_f64(o, "busy_pct", NULL, c->prof_busy_pct);
	out_arr_start(o, "top");
	for (unsigned int i = 0; i < c->nprof; i++) {
		out_obj_start(o, NULL);
		out_str(o, "symbol", NULL, c->prof[i].symbol);
		out_f64(o, "pct", NULL, c->prof[i].pct);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

/* A plain trial's figures over its repeats, and where its loss went. */
static void json_trial(struct out *o, const struct rm_cell *c)
{
	out_obj_start(o, "trial");
	out_u64(o, "trials", NULL, c->trials);
	out_f64(o, "offered_pps", NULL, c->trial_offered_pps);
	out_f64(o, "forwarded_pps", NULL, c->trial_fwd_pps);
	out_f64(o, "forwarded_min_pps", NULL, c->trial_fwd_min);
	out_f64(o, "forwarded_max_pps", NULL, c->trial_fwd_max);
	out_f64(o, "loss_pct", NULL, c->trial_loss_pct);
	if (c->have_loss) {
		out_obj_start(o, "loss");
		out_u64(o, "lost", NULL, c->loss_lost);
		out_u64(o, "over", NULL, c->loss_over);
		out_str(o, "text", NULL, c->loss_text);
		out_obj_end(o);
	} else {
		out_null(o, "loss");
	}
	out_obj_end(o);
}

/* A stream's figures over its runs, with each end's and the DUT's
 * service demand (null: not measured). */
static void json_stream(struct out *o, const struct rm_cell *c)
{
	static const char *const key[3] = { "send_service_demand_us_per_kb", "receive_service_demand_us_per_kb",
					    "dut_service_demand_us_per_kb" };

	out_obj_start(o, "stream");
	out_u64(o, "runs", NULL, c->stream_runs);
	out_u64(o, "senders", NULL, c->stream_senders);
	out_f64(o, "received_mbps", NULL, c->st_recv_mbps);
	out_f64(o, "received_min_mbps", NULL, c->st_recv_min);
	out_f64(o, "received_max_mbps", NULL, c->st_recv_max);
	out_f64(o, "sent_mbps", NULL, c->st_send_mbps);
	out_f64(o, "loss_pct", NULL, c->st_loss_pct);
	for (int i = 0; i < 3; i++) {
		double v = i == 0 ? c->st_send_sd : i == 1 ? c->st_recv_sd : c->st_dut_sd;

		if (v >= 0)
			out_f64(o, key[i], NULL, v);
		else
			out_null(o, key[i]);
	}
	out_obj_end(o);
}

/* The search's goals (RFC 9971's Goal Results) over the repeats. */
static void json_goals(struct out *o, const struct rm_cell *c)
{
	out_arr_start(o, "goals");
	for (unsigned int i = 0; i < c->ngoal; i++) {
		const struct rm_goal *g = &c->goal[i];

		out_obj_start(o, NULL);
		out_str(o, "name", NULL, g->name);
		out_str(o, "goal", NULL, g->spec);
		out_f64(o, "rlb", NULL, g->rlb);
		out_f64(o, "rub", NULL, g->rub);
		out_f64(o, "conditional_throughput", NULL, g->cond);
		out_u64(o, "repeats", NULL, g->repeats);
		out_u64(o, "irregular_repeats", NULL, g->irregular);
		out_str(o, "irregular", NULL, g->why);
		out_obj_end(o);
	}
	out_arr_end(o);
}

/* A paired comparison of rounds (core/paired.h) as the object key; with
 * spread, the host's drift and the rounds' disagreement too. */
static void json_paired(struct out *o, const char *key, const struct paired_result *p, const char *verdict,
			bool spread)
{
	out_obj_start(o, key);
	out_u64(o, "rounds", NULL, p->n);
	out_f64(o, "diff_pct", NULL, p->diff_pct);
	out_f64(o, "lo_pct", NULL, p->lo_pct);
	out_f64(o, "hi_pct", NULL, p->hi_pct);
	out_f64(o, "level", NULL, p->level);
	if (spread) {
		out_f64(o, "drift_pct", NULL, p->drift_pct);
		out_f64(o, "noise_pct", NULL, p->noise_pct);
	}
	out_str(o, "verdict", NULL, verdict);
	out_obj_end(o);
}

static void json_cell(struct out *o, const struct rm_cell *c)
{
	out_obj_start(o, NULL);
	out_u64(o, "size", NULL, c->size);
	out_bool(o, "have_throughput", NULL, c->have_thr);
	out_u64(o, "repeats", NULL, c->repeats);
	json_search(o, c);
	json_goals(o, c);
	json_latency_loss(o, c);
	if (c->ns_per_frame > 0)
		out_f64(o, "ns_per_frame", NULL, c->ns_per_frame);
	if (c->b2b_frames > 0)
		out_f64(o, "b2b_frames", NULL, c->b2b_frames);
	if (c->have_prof)
		json_profile(o, c);
	if (c->have_trial)
		json_trial(o, c);
	if (c->have_stream)
		json_stream(o, c);
	out_str(o, "verdict", NULL, report_db_verdict_name(c->verdict));
	out_f64(o, "diff_pct", NULL, c->diff_pct);
	out_bool(o, "diff_at_least", NULL, c->diff_at_least);
	if (c->have_paired)
		json_paired(o, "paired", &c->paired, paired_verdict_name(c->paired.verdict), true);
	if (c->have_paired_sd)
		json_paired(o, "paired_dut_service_demand", &c->paired_sd, report_db_verdict_name(c->sd_verdict), false);
	if (c->drift_pct > 0)
		out_f64(o, "baseline_drift_pct", NULL, c->drift_pct);
	out_obj_end(o);
}

void report_print_json_run(struct out *o, const struct rm_run *run, bool baseline)
{
	out_obj_start(o, NULL);
	out_i64(o, "id", NULL, run->id);
	out_str(o, "ref", NULL, run->ref);
	out_str(o, "store", NULL, run->store);
	out_str(o, "label", NULL, run->label);
	if (run->when[0])
		out_str(o, "when", NULL, run->when);
	else
		out_null(o, "when");
	out_str(o, "test", NULL, run->test);
	out_str(o, "kernel", NULL, run->kernel);
	out_config(o, "config", "config_text", run->config);
	if (run->cpu_line[0])
		out_str(o, "cpu_line_ns", NULL, run->cpu_line);
	else
		out_null(o, "cpu_line_ns");
	out_bool(o, "placement_moved", NULL, run->placement_moved);
	out_bool(o, "interrupted", NULL, run->interrupted);
	out_bool(o, "baseline", NULL, baseline);
	out_arr_start(o, "rounds");
	for (unsigned int k = 0; k < run->nrounds; k++) {
		out_obj_start(o, NULL);
		out_i64(o, "run_id", NULL, run->round_id[k]);
		out_u64(o, "round", NULL, run->round_no[k]);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_arr_start(o, "cells");
	for (unsigned int k = 0; k < run->ncells; k++)
		json_cell(o, &run->cell[k]);
	out_arr_end(o);
	out_obj_end(o);
}
