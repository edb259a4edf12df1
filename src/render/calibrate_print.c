#include "render/calibrate_print.h"

#include <math.h>

static double min_offered(const struct trial_result *r)
{
	double m = r->dir[0].offered_pps;

	for (unsigned int d = 1; d < r->ndirs; d++)
		m = fmin(m, r->dir[d].offered_pps);
	return m;
}

static void print_step(struct out *o, const char *key, const char *label, const struct trial_result *r)
{
	uint64_t tx = 0, rx = 0, lost = 0, drops = 0, waits = 0;
	bool flow = false;

	for (unsigned int d = 0; d < r->ndirs; d++) {
		tx += r->dir[d].tx;
		rx += r->dir[d].rx;
		lost += r->dir[d].lost;
		drops += r->dir[d].tester_rx_drops + r->dir[d].tester_if_drops;
		flow |= r->dir[d].flow_control;
		waits += r->dir[d].flow_waits;
	}
	out_obj_start(o, key);
	out_text(o, "  %-10s ", label);
	out_f64(o, "target_pps", "%.0f frames/s target", r->dir[0].target_pps);
	out_f64(o, "offered_pps", ", %.1f offered", min_offered(r));
	out_u64(o, "tx", " (%llu frames)", tx);
	out_u64(o, "rx", ", %llu received", rx);
	out_u64(o, "lost", ", lost %llu", lost);
	out_u64(o, "rx_drops", ", receive drops %llu", drops);
	out_u64(o, "largest_burst", ", largest burst %llu", r->dir[0].largest_burst);
	out_bool(o, "flow_control", NULL, flow);
	out_u64(o, "flow_waits", flow ? ", held for the analyzer %llu times" : NULL, waits);
	out_u64(o, "xdp_batch", NULL, r->dir[0].xdp_batch);
	out_text(o, "\n");
	out_obj_end(o);
}

void calibrate_print_report(struct out *o, const struct calib_report *c)
{
	print_step(o, "flat_out", "flat out", c->flat);
	print_step(o, "paced", "at 90%", c->paced);
	if (c->line) {
		out_obj_start(o, "cpu_line");
		out_text(o, "  cpu line  ");
		out_f64(o, "before_ns", " %.0f ns from CPU", c->flat->cpu_line_ns);
		out_i64(o, "gen_cpu", " %lld", c->gen_cpu);
		out_i64(o, "rx_cpu", " to CPU %lld before", c->rx_cpu);
		if (c->paced->cpu_line_ns > 0)
			out_f64(o, "between_ns", ", %.0f ns between the steps", c->paced->cpu_line_ns);
		else
			out_null(o, "between_ns");
		if (c->line_after > 0)
			out_f64(o, "after_ns", ", %.0f ns after", c->line_after);
		else
			out_null(o, "after_ns");
		out_bool(o, "moved", NULL, c->moved);
		out_text(o, c->moved ? ": THE HOST MOVED THESE CPUS during the calibration, and the ceiling holds "
				    "for neither placement: run it again\n" : "\n");
		out_obj_end(o);
	} else {
		out_null(o, "cpu_line");
	}
	out_f64(o, "pacing_error_pct", "  pacing     %.3f%% off target at 90%%", c->pace_err);
	out_text(o, "%s\n", c->pace_err <= 0.5 ? " (within 0.5%)" : " (MORE THAN 0.5%: the tester cannot pace this rate; "
							 "the ceiling is what it reached)");
	out_f64(o, "ceiling_pps", "  ceiling    %.0f frames/s", c->e.pps);
	out_u64(o, "size", " for %llu-byte frames", c->e.size);
	/* port_type and gen_threads are in the header above */
	out_text(o, " on %s ports", c->path);
	if (c->threads > 1)
		out_text(o, ", %u generator threads", c->threads);
	out_str(o, "key", NULL, c->e.port_type);
	out_bool(o, "receiver_ok", NULL, c->e.rx_ok);
	out_text(o, c->e.rx_ok ? "; the analyzer counted every frame\n"
			    : "; the analyzer LOST frames even at 90%%: results near this rate are tester-limited\n");
	/* what this figure is for, and what it is not */
	if (c->lab)
		out_text(o, "  note       back to back: 'trial' checks against it; 'rfc2544' through the lab "
			 "measures its own ceiling through the DUT, in the placement of its trials\n");
	if (c->stored)
		out_str(o, "stored", "  stored in  %s\n", c->calib_path);
	else
		out_null(o, "stored");
}
