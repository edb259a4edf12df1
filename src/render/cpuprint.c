#include "render/cpuprint.h"

#include "core/timeconst.h"

/* "DUT CPU 1  longest stall 3.2 ms, 4 stalls > 1 ms, steal 0.3%" */
static void print_stall(struct out *out, const struct stallprobe_result *s)
{
	if (!s->valid) {
		out_null(out, "stall");
		return;
	}
	out_obj_start(out, "stall");
	out_f64(out, "period_ns", NULL, (double)s->period_ns);
	out_f64(out, "threshold_ns", NULL, (double)s->threshold_ns);
	out_bool(out, "fifo", NULL, s->fifo);
	out_arr_start(out, "cpus");
	for (unsigned int i = 0; i < s->n; i++) {
		const struct stallprobe_cpu *c = &s->c[i];

		out_obj_start(out, NULL);
		out_u64(out, "cpu", "  DUT CPU %-2llu", c->cpu);
		out_f64(out, "longest_stall_ns", NULL, (double)c->max_late_ns);
		out_text(out, " longest stall %.1f ms", (double)c->max_late_ns / NSEC_PER_MSEC);
		out_u64(out, "stalls", ", %llu stalls", c->stalls);
		out_text(out, " > %.3g ms", (double)s->threshold_ns / NSEC_PER_MSEC);
		out_u64(out, "wakeups", " (of %llu wakeups)", c->wakeups);
		if (c->steal_pct >= 0)
			out_f64(out, "steal_pct", ", steal %.1f%%\n", c->steal_pct);
		else {
			out_null(out, "steal_pct");
			out_text(out, ", steal not reported\n");
		}
		out_obj_end(out);
	}
	out_arr_end(out);
	if (s->fifo)
		out_null(out, "note");
	else
		out_str(out, "note", "  stall      %s\n", s->note);
	out_obj_end(out);
}

void profile_print(struct out *out, const struct profile_result *p, const char *why)
{
	out_obj_start(out, "profile");
	if (!p || !p->valid) {
		out_str(out, "none", "  profile    none: %s\n", why && *why ? why : "no sample was taken");
		out_obj_end(out);
		return;
	}
	out_u64(out, "samples", "  profile    %llu samples", p->samples);
	out_u64(out, "hz", " at %llu Hz", p->hz);
	out_f64(out, "seconds", " over %.1f s", p->seconds);
	out_f64(out, "busy_pct", ": busy %.1f%%", p->busy_pct);
	out_f64(out, "softirq_pct", ", %.1f%% of it in softirq", p->softirq_pct);
	out_u64(out, "lost", p->lost ? " (%llu samples lost)" : NULL, p->lost);
	out_f64(out, "deferred_pct", NULL, p->deferred_pct);
	if (p->deferred_pct >= 0.05)
		out_text(out, ";\n             %.1f%% taken where interrupts came back on (the host held the sampling "
			 "interrupt back:\n             no function is known for them); the others went to",
			 p->deferred_pct);
	else
		out_text(out, "; where the busy time went");
	out_text(out, ":\n");
	out_arr_start(out, "top");
	for (unsigned int i = 0; i < p->n; i++) {
		out_obj_start(out, NULL);
		out_f64(out, "pct", "             %5.1f%%", p->e[i].pct);
		out_str(out, "symbol", "  %s\n", p->e[i].sym);
		out_u64(out, "samples", NULL, p->e[i].samples);
		out_obj_end(out);
	}
	out_arr_end(out);
	out_obj_end(out);
}

void cpucost_print(struct out *out, const struct cpucost_result *r)
{
	out_obj_start(out, "dut_cpu");
	if (!r->valid) {
		out_text(out, "  DUT CPU    not measured\n");
		out_obj_end(out);
		return;
	}
	out_f64(out, "seconds", NULL, r->seconds);
	out_arr_start(out, "cpus");
	for (unsigned int i = 0; i < r->n; i++) {
		const struct cpucost_cpu *c = &r->c[i];

		out_obj_start(out, NULL);
		out_u64(out, "cpu", "  DUT CPU %-2llu", c->cpu);
		out_f64(out, "usr", " usr %.1f", c->pct.usr);
		out_f64(out, "sys", " sys %.1f", c->pct.sys);
		out_f64(out, "irq", " irq %.1f", c->pct.irq);
		out_f64(out, "soft", " soft %.1f", c->pct.soft);
		out_f64(out, "idle", " idle %.1f", c->pct.idle);
		out_f64(out, "busy", "  busy %.1f%% (wall - idle)", c->pct.busy);
		if (c->soak >= 0)
			out_f64(out, "soak", ", soak %.1f%%", c->soak * 100);
		else
			out_null(out, "soak");
		out_f64(out, "intr_s", "; intr/s %.0f", c->intr_s);
		out_f64(out, "net_rx_s", ", NET_RX/s %.0f", c->net_rx_s);
		out_u64(out, "softnet_dropped", ", backlog drops %llu\n", c->softnet_dropped);
		out_u64(out, "softnet_squeezed", NULL, c->softnet_squeezed);
		out_obj_end(out);
	}
	out_arr_end(out);
	out_f64(out, "busy_cpu_s", NULL, r->busy_cpu_s);
	out_f64(out, "accounted_cpu_s", NULL, r->accounted_cpu_s);
	if (r->soak_cpu_s >= 0)
		out_f64(out, "soak_cpu_s", NULL, r->soak_cpu_s);
	if (r->ns_per_frame > 0) {
		out_f64(out, "ns_per_frame", "  cost       %.0f ns of DUT CPU per forwarded frame", r->ns_per_frame);
		out_f64(out, "frames_per_cpu_s", ", %.0f frames per CPU-second", r->frames_per_cpu_s);
		out_str(out, "source", " (from %s)\n", r->source);
	} else {
		out_str(out, "source", NULL, r->source);
	}
	print_stall(out, &r->stall);
	if (r->profiled || r->profile_why[0])
		profile_print(out, r->profiled ? &r->profile : NULL, r->profile_why);
	if (r->soak_checked) {
		out_bool(out, "soak_trusted", NULL, r->soak_trusted);
		out_f64(out, "soak_idle_off_pct", r->soak_trusted ?
			"  soak check idle speed %+.1f%% off its calibration: trusted\n" : NULL,
			100 * r->soak_idle_off);
		if (r->soak_trusted)
			out_null(out, "soak_untrusted_reason");
		else
			out_str(out, "soak_untrusted_reason", "  soak check UNTRUSTED soak figures: %s\n", r->soak_reason);
	} else {
		out_null(out, "soak_trusted");
	}
	out_obj_end(out);
}
