/* wirerate cpu: mpstat's per-CPU table plus interrupts, NET_RX/NET_TX
 * softirqs and softnet counters per second, and busy% = wall - idle -
 * iowait, which sees the interrupt time /proc/stat's columns miss. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/timeconst.h"
#include "core/cpuset.h"
#include "core/cpustat.h"
#include "core/units.h"
#include "render/out.h"
#include "os/procstat.h"
#include "cli/dutopt.h"
#include "dut/dut.h"
#include "dut/profile.h"
#include "render/cpuprint.h"

struct cpu_opts {
	uint64_t interval_ns;
	uint64_t count;			/* 0 = until Ctrl-C */
	bool have_cpus;
	struct cpuset cpus;
	const char *irq;
	const char *root;
	long hz;
	struct dut_target dut;
	struct dut *d;			/* open with --dut */
	bool profile;			/* --profile: where the CPUs' time goes */
	unsigned int profile_hz, profile_top;
};

/* This host's /proc (under --root), or the DUT's through its agent. */
static int sample(struct cpu_opts *op, struct procstat_sample *s, char *err, size_t errlen)
{
	return op->d ? dut_procstat(op->d, op->irq, s, err, errlen) : procstat_read(op->root, op->irq, s, err, errlen);
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
static void print_block(struct out *o, const struct cpu_opts *op, const char *label,
			const struct procstat_sample *a, const struct procstat_sample *b)
{
	double sec = (double)(b->t_ns - a->t_ns) / NSEC_PER_SEC, ticks = sec * (double)op->hz;
	unsigned int ncpu = 0;
	struct row_counts ra, rb;
	char cpu[16];

	for (unsigned int c = 0; c < b->stat.max_cpu; c++)
		ncpu += a->stat.cpu[c].present && b->stat.cpu[c].present;
	out_f64(o, "seconds", NULL, sec);
	print_header(o, label);
	out_obj_start(o, "all");
	row_counts_all(a, op->irq, &ra);
	row_counts_all(b, op->irq, &rb);
	print_row(o, label, "all", &a->stat.all, &b->stat.all, ticks * ncpu, &ra, &rb, sec);
	out_obj_end(o);
	out_arr_start(o, "cpus");
	for (unsigned int c = 0; c < b->stat.max_cpu; c++) {
		if (op->have_cpus && !cpuset_has(&op->cpus, c))
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

static const struct opt cpu_opts[] = {
	{ "interval", 0, OPT_VALUE, "T", "sampling", "1s", "time between rows (10ms..1h)",
	  opt_set_ns, OPT_FIELD(struct cpu_opts, interval_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR },
	{ "count", 0, OPT_VALUE, "N", NULL, NULL, "stop after N intervals (default: until Ctrl-C)",
	  opt_set_u64, OPT_FIELD(struct cpu_opts, count), 1, 1000000000 },
	{ "cpus", 0, OPT_VALUE, "LIST", NULL, NULL, "CPUs to show (e.g. 1 or 0-3,8; default all online)",
	  opt_set_cpuset, OPT_FIELD(struct cpu_opts, cpus), 0, 0, OPT_FIELD(struct cpu_opts, have_cpus) },
	{ "irq", 0, OPT_VALUE, "NAME", NULL, NULL, "count only IRQ lines whose name contains NAME (e.g. eth0)",
	  opt_set_str, OPT_FIELD(struct cpu_opts, irq) },
	{ "profile", 0, OPT_NOARG, NULL, "profile", NULL,
	  "also sample where the CPUs' time goes over the whole run\n"
	  "(cpu-clock sampling, named from /proc/kallsyms) and print the\n"
	  "top functions and the share in softirq at the end", opt_set_true, OPT_FIELD(struct cpu_opts, profile) },
	{ "profile-hz", 0, OPT_VALUE, "HZ", NULL, "999", "--profile's sampling rate per CPU", opt_set_uint,
	  OPT_FIELD(struct cpu_opts, profile_hz), 1, PROFILE_HZ_MAX },
	{ "profile-top", 0, OPT_VALUE, "N", NULL, "10", "--profile's entries shown", opt_set_uint, OPT_FIELD(struct cpu_opts, profile_top), 1,
	  PROFILE_TOP_MAX },
	{ "root", 0, OPT_VALUE, "DIR", NULL, "/", "read /proc under DIR (fixture trees)",
	  opt_set_str, OPT_FIELD(struct cpu_opts, root) },
	DUTOPT_ENTRIES(OPT_FIELD(struct cpu_opts, dut), "the host", "this host", "the DUT whose CPUs to show"),
	{ NULL },
};

static const struct opt *const cpu_tables[] = { cpu_opts, NULL };

const struct opt_cmd cpu_cmd = {
	.name = "cpu",
	.synopsis = "[--interval 1s] [--count N] [--cpus LIST] [--irq NAME] [--dut TARGET] [--json]\n"
		    "       wirerate cpu [OPTIONS] [INTERVAL [COUNT]]   (mpstat's habit: INTERVAL in seconds)",
	.about = "Per-CPU time (mpstat's columns), interrupts and network softirqs per second,\n"
		 "every interval; Ctrl-C or the end of --count prints the average.\n",
	.notes = "%busy is (wall time - idle - iowait) / wall time: without\n"
		 "CONFIG_IRQ_TIME_ACCOUNTING, interrupt time lands in no column, so the\n"
		 "columns add up to less than the wall time and %busy is the closer figure.\n",
	.tables = cpu_tables,
};

static int parse_opts(struct cpu_opts *op, struct cli *cli, int argc, char **argv)
{
	void *ctx[] = { op };
	char *args[2];
	int nargs, rc;

	memset(op, 0, sizeof(*op));
	op->root = "/";
	char err[256];

	if ((rc = opt_parse(&cpu_cmd, ctx, cli, argc, argv, args, 2, &nargs)))
		return rc == OPT_HELP ? -1 : EXIT_USAGE;
	/* mpstat's habit: cpu [INTERVAL [COUNT]], INTERVAL in seconds unless
	 * it has a unit; each once, as an argument or as its option */
	for (int i = 0; i < nargs; i++) {
		const struct opt *o = &cpu_opts[i];
		char v[64];

		if (i ? op->count != 0 : op->interval_ns != 0) {
			cli_error("cpu: the %s is given twice: '%s' and --%s", o->name, args[i], o->name);
			return EXIT_USAGE;
		}
		snprintf(v, sizeof(v), "%s%s", args[i],
			 !i && *args[i] && strspn(args[i], "0123456789.") == strlen(args[i]) ? "s" : "");
		if (o->set(op, o, v, err, sizeof(err))) {
			cli_error("cpu: the %s argument: %s", o->name, err);
			return EXIT_USAGE;
		}
	}
	if (!op->interval_ns)
		op->interval_ns = NSEC_PER_SEC;
	if (dutopt_check(&op->dut, err, sizeof(err))) {
		cli_error("cpu: %s", err);
		return EXIT_USAGE;
	}
	if (op->profile && strcmp(op->root, "/")) {
		cli_error("cpu: --profile samples this host's CPUs or a DUT's, not a fixture tree: give one of --root and --profile");
		return EXIT_USAGE;
	}
	if (op->dut.given && strcmp(op->root, "/")) {
		cli_error("cpu: --root reads this host's fixture trees, not a DUT's: give one of --root and --dut");
		return EXIT_USAGE;
	}
	return 0;
}

/* Sleep until t_ns (CLOCK_MONOTONIC) in slices, so Ctrl-C is seen quickly. */
static void wait_until(uint64_t t_ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t_ns / NSEC_PER_SEC);
	ts.tv_nsec = (long)(t_ns % NSEC_PER_SEC);
	while (!cli_stopped() && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int cmd_cpu(struct cli *cli, int argc, char **argv)
{
	struct procstat_sample *first = NULL, *prev = NULL, *cur = NULL, *tmp;
	struct profile *prof = NULL;
	struct cpuset online;
	struct cli_stop stop = { 0 };
	struct cpu_opts op;
	struct out *o = NULL;
	char err[512], label[40];
	uint64_t n = 0, next;
	int rc;

	if ((rc = parse_opts(&op, cli, argc, argv)))
		return rc < 0 ? 0 : rc;
	op.hz = sysconf(_SC_CLK_TCK);
	if (op.hz <= 0)
		op.hz = 100;
	first = procstat_sample_new();
	prev = procstat_sample_new();
	cur = procstat_sample_new();
	if (!first || !prev || !cur) {
		cli_error("cpu: out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.d, err, sizeof(err)))) {
		cli_error("cpu: %s", err);
		rc = cli_status(rc);
		goto out;
	}
	if ((rc = sample(&op, first, err, sizeof(err)))) {
		cli_error("cpu: %s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* the CPUs online, as the first sample has them */
	cpuset_zero(&online);
	for (unsigned int k = 0; k < first->stat.max_cpu; k++)
		if (first->stat.cpu[k].present)
			cpuset_add(&online, k);
	if (op.have_cpus) {
		int c = cpuset_next(&op.cpus, 0);

		for (; c >= 0; c = cpuset_next(&op.cpus, (unsigned int)c + 1))
			if (c >= CPUSTAT_MAX || !first->stat.cpu[c].present) {
				char list[256];

				cpuset_format_list(&online, list, sizeof(list));
				cli_error("cpu: --cpus: CPU %d is not online (online: %s)", c, list);
				rc = EXIT_USAGE;
				goto out;
			}
	}
	if (op.irq && *op.irq && first->have_irq && !first->irq.nlines) {
		cli_error("cpu: --irq: no IRQ line's name contains '%s' (see /proc/interrupts)", op.irq);
		rc = EXIT_USAGE;
		goto out;
	}
	if (op.profile) {
		const struct cpuset *pc = op.have_cpus ? &op.cpus : &online;

		rc = op.d ? dut_profile_start(op.d, pc, op.profile_hz, err, sizeof(err))
			  : profile_create(pc, op.profile_hz, &prof, err, sizeof(err));
		if (!rc && !op.d)
			rc = profile_start(prof, err, sizeof(err));
		if (rc) {
			cli_error("cpu: --profile: %s", err);
			rc = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
			goto out;
		}
	}
	*prev = *first;
	o = cli_out_create(cli, "cpu");
	if (!o) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	out_f64(o, "interval_s", NULL, (double)op.interval_ns / NSEC_PER_SEC);
	out_i64(o, "hz", NULL, op.hz);
	if (op.irq && *op.irq) {
		out_str(o, "irq_filter", "intr/s counts the IRQ lines whose name contains '%s'", op.irq);
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
	cli_stop_catch(&stop);
	out_arr_start(o, "samples");
	next = first->t_ns;
	while (!cli_stopped() && (!op.count || n < op.count)) {
		time_t now;

		next += op.interval_ns;
		wait_until(next);
		if (cli_stopped())
			break;
		if ((rc = sample(&op, cur, err, sizeof(err)))) {
			out_arr_end(o);
			out_destroy(o);
			o = NULL;
			cli_error("cpu: %s", err);
			rc = EXIT_RUNTIME;
			goto restore;
		}
		now = time(NULL);
		out_obj_start(o, NULL);
		/* JSON: the date, the time and its offset from UTC, and the
		 * Unix time; the table keeps mpstat's clock time */
		timefmt_local(label, sizeof(label), (int64_t)now, "%Y-%m-%dT%H:%M:%S%z");
		out_str(o, "time", NULL, label);
		out_i64(o, "unix_time", NULL, (int64_t)now);
		timefmt_local(label, sizeof(label), (int64_t)now, "%H:%M:%S");
		print_block(o, &op, label, prev, cur);
		out_obj_end(o);
		tmp = prev, prev = cur, cur = tmp;
		n++;
	}
	out_arr_end(o);
	/* mpstat's Average: first sample to last, so short rows average right. */
	if (n) {
		out_obj_start(o, "average");
		out_u64(o, "intervals", NULL, n);
		print_block(o, &op, "Average:", first, prev);
		out_obj_end(o);
	}
	if (op.profile) {
		struct profile_result *pr = calloc(1, sizeof(*pr));

		err[0] = '\0';
		if (!pr)
			snprintf(err, sizeof(err), "out of memory");
		else if (op.d)
			dut_profile_read(op.d, op.profile_top ? op.profile_top : 10, pr, err, sizeof(err));
		else {
			profile_stop(prof);
			profile_read(prof, op.profile_top ? op.profile_top : 10, pr);
		}
		profile_print(o, pr, err);
		free(pr);
	}
	rc = 0;
restore:
	cli_stop_restore(&stop);
out:
	out_destroy(o);
	profile_destroy(prof);
	dut_close(op.d);
	procstat_sample_free(first);
	procstat_sample_free(prev);
	procstat_sample_free(cur);
	return rc;
}
