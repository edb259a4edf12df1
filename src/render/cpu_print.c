#include "render/cpu_print.h"

#include <stdio.h>
#include <string.h>

#include "core/cpustat.h"
#include "core/ns.h"
#include "os/timefmt.h"

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

void cpu_print_profile(struct out *out, const struct profile_result *p, const char *why)
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

void cpu_print_cost(struct out *out, const struct cpucost_result *r)
{
	cpu_print_cost_per(out, r, "forwarded frame");
}

void cpu_print_cost_per(struct out *out, const struct cpucost_result *r, const char *per)
{
	cpu_print_cost_of(out, "dut_cpu", "DUT", r, per);
}

void cpu_print_cost_of(struct out *out, const char *key, const char *whose, const struct cpucost_result *r,
		       const char *per)
{
	out_obj_start(out, key);
	if (!r->valid) {
		out_text(out, "  %s CPU    not measured\n", whose);
		out_obj_end(out);
		return;
	}
	out_f64(out, "seconds", NULL, r->seconds);
	out_arr_start(out, "cpus");
	for (unsigned int i = 0; i < r->n; i++) {
		const struct cpucost_cpu *c = &r->c[i];
		char cf[32];

		snprintf(cf, sizeof(cf), "  %s CPU %%-2llu", whose);
		out_obj_start(out, NULL);
		out_u64(out, "cpu", cf, c->cpu);
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
		char f1[96], f2[96];

		snprintf(f1, sizeof(f1), "  cost       %%.0f ns of %s CPU per %s", whose, per);
		snprintf(f2, sizeof(f2), ", %%.0f %s per CPU-second", strcmp(per, "forwarded frame") ? "datagrams" : "frames");
		out_f64(out, "ns_per_frame", f1, r->ns_per_frame);
		out_f64(out, "frames_per_cpu_s", f2, r->frames_per_cpu_s);
		out_str(out, "source", " (from %s)\n", r->source);
	} else {
		out_str(out, "source", NULL, r->source);
	}
	print_stall(out, &r->stall);
	if (r->profiled || r->profile_why[0])
		cpu_print_profile(out, r->profiled ? &r->profile : NULL, r->profile_why);
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

/* A per-second rate of a counter, or "-" / null when the file is missing. */
static void rate_col(struct out *o, const char *key, const char *fmt, bool have,
		     uint64_t a, uint64_t b, double sec, bool *back)
{
	if (!have || !(sec > 0)) {
		out_null(o, key);
		out_text(o, " %9s", "-");
		return;
	}
	out_f64(o, key, fmt, (double)cpustat_delta(a, b, back) / sec);
}

struct row_counts {
	bool have_irq, have_soft, have_net;
	uint64_t intr, rx, tx, proc, drop, squeeze;
};

static void row_counts_cpu(const struct procstat_sample *s, unsigned int c, struct row_counts *r)
{
	r->have_irq = s->have_irq && s->irq.present[c];
	r->have_soft = s->have_soft && s->soft.present[c];
	r->have_net = s->have_net && s->net.cpu[c].present;
	r->intr = s->irq.total[c];
	r->rx = s->soft.net_rx[c];
	r->tx = s->soft.net_tx[c];
	r->proc = s->net.cpu[c].processed;
	r->drop = s->net.cpu[c].dropped;
	r->squeeze = s->net.cpu[c].squeezed;
}

static void row_counts_all(const struct procstat_sample *s, const char *irq, struct row_counts *r)
{
	memset(r, 0, sizeof(*r));
	/* Without a filter /proc/stat's own total counts what /proc/interrupts
	 * does not list per CPU (ERR, MIS). */
	r->have_irq = irq && *irq ? s->have_irq : true;
	r->have_soft = s->have_soft;
	r->have_net = s->have_net;
	for (unsigned int c = 0; c < CPUSTAT_MAX; c++) {
		if (irq && *irq)
			r->intr += s->irq.total[c];
		r->rx += s->soft.net_rx[c];
		r->tx += s->soft.net_tx[c];
		r->proc += s->net.cpu[c].processed;
		r->drop += s->net.cpu[c].dropped;
		r->squeeze += s->net.cpu[c].squeezed;
	}
	if (!(irq && *irq))
		r->intr = s->stat.intr;
}

static void print_header(struct out *o, const char *label)
{
	out_text(o, "%-9s %4s %6s %6s %6s %7s %6s %6s %6s %6s %6s %6s %9s %9s %9s %9s %9s %9s\n",
		 label, "CPU", "%usr", "%nice", "%sys", "%iowait", "%irq", "%soft", "%steal",
		 "%guest", "%idle", "%busy", "intr/s", "NET_RX/s", "NET_TX/s", "proc/s", "drop/s",
		 "squeeze/s");
}

static bool print_row(struct out *o, const char *label, const char *cpu,
		      const struct cpustat_cpu *ca, const struct cpustat_cpu *cb, double wall_ticks,
		      const struct row_counts *ra, const struct row_counts *rb, double sec)
{
	struct cpustat_pct p;
	bool back = false;

	cpustat_pct(ca, cb, wall_ticks, &p);
	out_text(o, "%-9s %4s", label, cpu);
	out_f64(o, "usr", " %6.2f", p.usr);
	out_f64(o, "nice", " %6.2f", p.nice);
	out_f64(o, "sys", " %6.2f", p.sys);
	out_f64(o, "iowait", " %7.2f", p.iowait);
	out_f64(o, "irq", " %6.2f", p.irq);
	out_f64(o, "soft", " %6.2f", p.soft);
	out_f64(o, "steal", " %6.2f", p.steal);
	out_f64(o, "guest", " %6.2f", p.guest);
	out_f64(o, "gnice", NULL, p.gnice);
	out_f64(o, "idle", " %6.2f", p.idle);
	out_f64(o, "busy", " %6.2f", p.busy);
	out_f64(o, "accounted", NULL, p.accounted);
	rate_col(o, "intr_per_s", " %9.1f", ra->have_irq && rb->have_irq, ra->intr, rb->intr, sec, &back);
	rate_col(o, "net_rx_per_s", " %9.1f", ra->have_soft && rb->have_soft, ra->rx, rb->rx, sec, &back);
	rate_col(o, "net_tx_per_s", " %9.1f", ra->have_soft && rb->have_soft, ra->tx, rb->tx, sec, &back);
	rate_col(o, "processed_per_s", " %9.1f", ra->have_net && rb->have_net, ra->proc, rb->proc, sec, &back);
	rate_col(o, "dropped_per_s", " %9.1f", ra->have_net && rb->have_net, ra->drop, rb->drop, sec, &back);
	rate_col(o, "squeezed_per_s", " %9.1f", ra->have_net && rb->have_net, ra->squeeze, rb->squeeze,
		 sec, &back);
	back = back || p.backwards;
	out_bool(o, "backwards", NULL, back);
	out_text(o, "%s\n", back ? "  (counter went backwards)" : "");
	return back;
}

/* One block: the "all" row and a row per selected CPU, a to b. */
void cpu_print_block(struct out *o, const char *label, const struct procstat_sample *a,
		    const struct procstat_sample *b, long hz, const char *irq, const struct cpuset *only)
{
	double sec = (double)(b->t_ns - a->t_ns) / NSEC_PER_SEC, ticks = sec * (double)hz;
	unsigned int ncpu = 0;
	struct row_counts ra, rb;
	char cpu[16];

	for (unsigned int c = 0; c < b->stat.max_cpu; c++)
		ncpu += a->stat.cpu[c].present && b->stat.cpu[c].present;
	out_f64(o, "seconds", NULL, sec);
	print_header(o, label);
	out_obj_start(o, "all");
	row_counts_all(a, irq, &ra);
	row_counts_all(b, irq, &rb);
	print_row(o, label, "all", &a->stat.all, &b->stat.all, ticks * ncpu, &ra, &rb, sec);
	out_obj_end(o);
	out_arr_start(o, "cpus");
	for (unsigned int c = 0; c < b->stat.max_cpu; c++) {
		if (only && !cpuset_has(only, c))
			continue;
		if (!a->stat.cpu[c].present || !b->stat.cpu[c].present)
			continue;	/* offline in either sample */
		out_obj_start(o, NULL);
		out_u64(o, "cpu", NULL, c);
		snprintf(cpu, sizeof(cpu), "%u", c);
		row_counts_cpu(a, c, &ra);
		row_counts_cpu(b, c, &rb);
		print_row(o, label, cpu, &a->stat.cpu[c], &b->stat.cpu[c], ticks, &ra, &rb, sec);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_text(o, "\n");
	fflush(stdout);
}

void cpu_print_start(struct out *o, uint64_t interval_ns, long hz, const char *irq,
		    const struct procstat_sample *first)
{
	out_f64(o, "interval_s", NULL, (double)interval_ns / NSEC_PER_SEC);
	out_i64(o, "hz", NULL, hz);
	if (irq && *irq) {
		out_str(o, "irq_filter", "intr/s counts the IRQ lines whose name contains '%s'", irq);
		out_u64(o, "irq_line_count", " (%llu):\n", first->irq.nlines);
		out_arr_start(o, "irq_lines");
		for (unsigned int i = 0; i < first->irq.nstored; i++) {
			out_obj_start(o, NULL);
			out_str(o, "irq", "  %5s: ", first->irq.line[i].irq);
			out_str(o, "name", "%s\n", first->irq.line[i].name);
			out_obj_end(o);
		}
		out_arr_end(o);
		if (first->irq.nlines > first->irq.nstored)
			out_text(o, "  ... and %u more\n", first->irq.nlines - first->irq.nstored);
		out_text(o, "\n");
	}
}

void cpu_print_sample(struct out *o, int64_t now, const struct procstat_sample *a, const struct procstat_sample *b,
		     long hz, const char *irq, const struct cpuset *only)
{
	char label[40];

	out_obj_start(o, NULL);
	/* JSON: the date, the time and its offset from UTC, and the
	 * Unix time; the table keeps mpstat's clock time */
	timefmt_local(label, sizeof(label), now, "%Y-%m-%dT%H:%M:%S%z");
	out_str(o, "time", NULL, label);
	out_i64(o, "unix_time", NULL, now);
	timefmt_local(label, sizeof(label), now, "%H:%M:%S");
	cpu_print_block(o, label, a, b, hz, irq, only);
	out_obj_end(o);
}

void cpu_print_average(struct out *o, uint64_t n, const struct procstat_sample *first,
		      const struct procstat_sample *last, long hz, const char *irq, const struct cpuset *only)
{
	/* mpstat's Average: first sample to last, so short rows average right. */
	if (!n)
		return;
	out_obj_start(o, "average");
	out_u64(o, "intervals", NULL, n);
	cpu_print_block(o, "Average:", first, last, hz, irq, only);
	out_obj_end(o);
}

void cpu_print_watch_end(struct out *o, const struct app_cpu_cfg *c, const struct app_cpu_watch *w)
{
	cpu_print_average(o, w->n, w->first, w->prev, w->hz, c->irq, c->cpus);
	if (c->profile)
		cpu_print_profile(o, w->profiled, w->profiled_why);
}
