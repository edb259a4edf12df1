#include "render/trial_print.h"

#include "core/lossattr.h"
#include "os/cpulat.h"
#include "render/cpu_print.h"
#include "render/loss_print.h"
#include "core/ns.h"

static void trialprint_latency(struct out *o, const struct hist *h, unsigned int every)
{
	out_obj_start(o, "latency_ns");
	if (!h->count) {
		out_text(o, "  latency    none measured\n");
	} else {
		out_text(o, "  latency    min %.1f us, median %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us, mean %.1f us",
			 ns_to_us(hist_min(h)), ns_to_us(hist_quantile(h, 0.5)), ns_to_us(hist_quantile(h, 0.99)),
			 ns_to_us(hist_quantile(h, 0.999)), ns_to_us(hist_max(h)), ns_to_us(hist_mean(h)));
		if (every > 1)
			out_text(o, " (%llu frames: 1 in %u)", (unsigned long long)h->count, every);
		out_text(o, "\n");
		out_u64(o, "every", NULL, every);
		out_u64(o, "min", NULL, hist_min(h));
		out_u64(o, "median", NULL, hist_quantile(h, 0.5));
		out_u64(o, "p99", NULL, hist_quantile(h, 0.99));
		out_u64(o, "p99_9", NULL, hist_quantile(h, 0.999));
		out_u64(o, "max", NULL, hist_max(h));
		out_f64(o, "mean", NULL, hist_mean(h));
		out_u64(o, "frames", NULL, h->count);
	}
	out_obj_end(o);
}

void trial_print_dir(struct out *o, const struct trial_dir_result *d, double frame_size,
		    double line_bps, const char *label)
{
	out_str(o, "direction", "  %s\n", label);
	out_u64(o, "port", NULL, d->path);
	out_bool(o, "back", NULL, d->back);
	out_f64(o, "target_pps", "  offered    %.0f frames/s target", d->target_pps);
	out_f64(o, "offered_pps", ", %.1f achieved", d->offered_pps);
	out_text(o, " (%.2f%%)", d->target_pps > 0 ? d->offered_pps * 100.0 / d->target_pps : 0);
	out_u64(o, "tx", ", %llu frames", d->tx);
	out_u64(o, "streams", d->streams > 1 ? " in %llu streams" : NULL, d->streams ? d->streams : 1);
	out_u64(o, "largest_burst", ", largest burst %llu\n", d->largest_burst);
	out_u64(o, "max_backlog", NULL, d->max_backlog);
	out_u64(o, "rx", "  received   %llu frames", d->rx);
	out_u64(o, "lost", ", lost %llu", d->lost);
	out_f64(o, "loss_pct", " (%.4f%%)", d->loss_pct);
	out_u64(o, "reordered", ", reordered %llu", d->reordered);
	out_u64(o, "duplicated", ", duplicated %llu", d->duplicate);
	out_u64(o, "late", ", late %llu\n", d->late + d->out_of_window);
	out_u64(o, "ring_drops", NULL, d->ring_drops);
	if (d->ring_drops && !d->tester_limited)
		out_text(o, "  where      %llu of the lost frames were refused by the DUT's receive ring (its input queue was full)\n",
			 (unsigned long long)d->ring_drops);
	out_bool(o, "flow_control", NULL, d->flow_control);
	out_u64(o, "flow_waits", NULL, d->flow_waits);
	out_bool(o, "flow_gave_up", NULL, d->flow_gave_up);
	if (d->xdp_batch)
		out_u64(o, "xdp_batch", NULL, d->xdp_batch);
	if (d->flow_control)
		out_text(o, "  flow       back to back: the generator kept at most %u frames ahead of the analyzer, "
			 "held %llu times%s\n", d->flow_window,
			 (unsigned long long)d->flow_waits,
			 d->flow_gave_up ? " (then gave up: the analyzer saw nothing for 200 ms)" : "");
	out_u64(o, "learning_tx", NULL, d->learning_tx);
	out_u64(o, "learning_rx", NULL, d->learning_rx);
	out_u64(o, "stale", NULL, d->stale);
	out_u64(o, "not_test", NULL, d->not_test_total);
	if (d->not_test_total || d->stale)
		out_text(o, "  other      %llu frames without a valid tag, %llu from another trial or beyond the frames sent "
			 "(never counted)\n",
			 (unsigned long long)d->not_test_total, (unsigned long long)d->stale);
	trialprint_latency(o, &d->latency, d->latency_every ? d->latency_every : 1);
	out_u64(o, "tester_rx_drops", "  tester     receive drops %llu", d->tester_rx_drops);
	out_u64(o, "tester_if_drops", " (+%llu entering the port", d->tester_if_drops);
	out_u64(o, "tester_refused", ", +%llu refused by its ring)", d->tester_refused);
	out_u64(o, "tx_errors", ", transmit errors %llu", d->tx_errors);
	out_u64(o, "tx_refused", ", held back by the next hop %llu", d->tx_refused);
	out_u64(o, "dut_refused", NULL, d->dut_refused);
	out_bool(o, "tester_limited", NULL, d->tester_limited);
	if (d->dut_refused)
		out_text(o, "; the DUT's ingress was full and held back %llu frames of the load, %.1f%%"
			 " (back-pressure: the DUT's shortfall, counted against it, not as sent or lost)",
			 (unsigned long long)d->dut_refused,
			 100.0 * (double)d->dut_refused / (double)(d->tx + d->dut_refused));
	if (d->tester_limited)
		out_str(o, "tester_reason", ": TESTER-LIMITED, %s (not DUT loss)\n", d->tester_reason);
	else
		out_text(o, ": ok\n");
	/* pktgen's result line, for people who read those. */
	double rx_pps = d->offered_pps * (d->tx ? (double)d->rx / (double)d->tx : 0);
	out_text(o, "  Result: %.0fpps %.0fMb/sec (%.0fbps) errors: %llu",
		 rx_pps, rx_pps * frame_size * 8 / 1e6, rx_pps * frame_size * 8,
		 (unsigned long long)d->lost);
	if (line_bps > 0) {
		double pct = rx_pps * (frame_size + 20) * 8 * 100.0 / line_bps;

		out_text(o, ", %.1f%% of line rate", pct);
		out_f64(o, "forwarded_pct_line_rate", NULL, pct);
	}
	out_text(o, "\n");
	out_f64(o, "forwarded_pps", NULL, rx_pps);
	/* bit rates as TRex names them: L2 the frames with their FCS, L1
	 * with the preamble and gap a wire adds (what --rate 1Gbit counts) */
	out_f64(o, "forwarded_mbps_l2", NULL, rx_pps * frame_size * 8 / 1e6);
	out_f64(o, "forwarded_mbps_l1", NULL, rx_pps * (frame_size + 20) * 8 / 1e6);
}

/* A trial's result block after its header, text or JSON. */
void trial_print_result(struct out *o, const struct trial_result *res, const struct cpucost_result *cr,
		       double ceiling, double line_bps, const char *const *labels)
{
	if (ceiling > 0) {
		/* the host moved the tester's CPUs since: the ceiling is another's */
		bool moved = cpulat_moved(res->ceiling_line_ns, res->cpu_line_ns);

		out_f64(o, "tester_ceiling_pps", "  ceiling    %.0f frames/s (calibrated back to back)", ceiling);
		if (res->ceiling_line_ns > 0)
			out_f64(o, "ceiling_line_ns", NULL, res->ceiling_line_ns);
		else
			out_null(o, "ceiling_line_ns");
		out_bool(o, "ceiling_placement_moved", NULL, moved);
		if (moved)
			out_text(o, ", NOT FOR THESE CPUS NOW: %.0f ns a cache line apart then, %.0f now (the host "
				 "moved them): calibrate again", res->ceiling_line_ns, res->cpu_line_ns);
		out_text(o, "\n");
	} else {
		out_null(o, "tester_ceiling_pps");
	}
	out_arr_start(o, "directions");
	for (unsigned int d = 0; d < res->ndirs; d++) {
		out_obj_start(o, NULL);
		trial_print_dir(o, &res->dir[d], res->avg_frame_size, line_bps, labels[d]);
		if (res->loss_valid)
			loss_print_attr(o, &res->loss[d], res->loss_note);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (res->ndirs > 1) {
		uint64_t tx = 0, rx = 0, lost = 0;

		for (unsigned int d = 0; d < res->ndirs; d++) {
			tx += res->dir[d].tx;
			rx += res->dir[d].rx;
			lost += res->dir[d].lost;
		}
		out_obj_start(o, "total");
		out_u64(o, "tx", "  total      sent %llu", tx);
		out_u64(o, "rx", ", received %llu", rx);
		out_u64(o, "lost", ", lost %llu", lost);
		out_f64(o, "loss_pct", " (%.4f%%)\n", tx ? (double)lost * 100.0 / (double)tx : 0);
		out_obj_end(o);
	}
	if (cr->valid)
		cpu_print_cost(o, cr);
	if (res->loss_valid) {
		struct lossattr_cpu_hint h;
		uint64_t sent[TRIAL_MAX_DIRS] = { 0 };
		char text[384];
		enum lossattr_limit_by by;

		for (unsigned int d = 0; d < res->ndirs; d++)
			sent[d] = res->dir[d].tx;
		cpucost_hint(cr, &h);
		by = lossattr_limit(res->loss, res->ndirs, sent, res->tester_limited, &h, text, sizeof(text));
		loss_print_limit(o, by, text);
	}
	out_bool(o, "tester_limited", NULL, res->tester_limited);
	out_bool(o, "interrupted", NULL, res->interrupted);
	if (res->interrupted)
		out_text(o, "  INTERRUPTED after %.2f s: the counts above cover the frames sent until then\n",
			 ns_to_s(res->elapsed_ns));
}

/* "over 3 trials: forwarded ... (median ...)", and in JSON the same
 * figures with the median repeat's index. */
void trial_print_summary(struct out *o, const struct trial_print_summary *s)
{
	out_obj_start(o, "summary");
	out_u64(o, "trials", "\n  over %llu trials", s->trials);
	out_f64(o, "forwarded_pps_median", ": forwarded %.0f frames/s (median", s->fwd_median);
	out_f64(o, "forwarded_pps_min", ", %.0f", s->fwd_min);
	out_f64(o, "forwarded_pps_max", "..%.0f)", s->fwd_max);
	out_f64(o, "loss_pct_mean", ", loss %.4f%% (mean)\n", s->loss_mean);
	out_u64(o, "median_repeat", NULL, s->median_repeat);
	out_bool(o, "tester_limited", NULL, s->tester_limited);
	out_bool(o, "interrupted", NULL, s->interrupted);
	out_obj_end(o);
}

/* What --capture wrote: the file, the frames and why. */
void trial_print_capture(struct out *o, const char *path, const struct capture_stats *cs)
{
	out_obj_start(o, "capture");
	out_str(o, "file", "  capture    %s: ", path);
	out_u64(o, "frames", "%llu frame(s) received and not counted", cs->written);
	out_obj_start(o, "reasons");
	for (unsigned int i = 0; i < cs->nreasons; i++) {
		out_text(o, i ? ", %s " : " (%s ", cs->by[i].reason);
		out_u64(o, cs->by[i].reason, "%llu", cs->by[i].frames);
	}
	out_obj_end(o);
	out_text(o, "%s\n", cs->nreasons ? ")" : "");
	out_obj_end(o);
}
