/* wirerate cpu: mpstat's per-CPU table plus interrupts, NET_RX/NET_TX
 * softirqs and softnet counters per second, and busy% = wall - idle -
 * iowait, which sees the interrupt time /proc/stat's columns miss. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/cpuset.h"
#include "core/cpustat.h"
#include "core/units.h"
#include "render/out.h"
#include "os/procstat.h"

static const char cpu_usage[] =
	"usage: wirerate cpu [--interval 1s] [--count N] [--cpus LIST] [--irq NAME] [--json]\n"
	"\n"
	"Per-CPU time (mpstat's columns), interrupts and network softirqs per second,\n"
	"every interval; Ctrl-C or the end of --count prints the average.\n"
	"  --interval T   time between rows (default 1s; 10ms..1h)\n"
	"  --count N      stop after N intervals (default: until Ctrl-C)\n"
	"  --cpus LIST    CPUs to show (e.g. 1 or 0-3,8; default all online)\n"
	"  --irq NAME     count only IRQ lines whose name contains NAME (e.g. eth0)\n"
	"  --root DIR     read /proc under DIR (fixture trees)\n"
	"  --json         machine-readable output\n"
	"\n"
	"%busy is (wall time - idle - iowait) / wall time: without\n"
	"CONFIG_IRQ_TIME_ACCOUNTING, interrupt time lands in no column, so the\n"
	"columns add up to less than the wall time and %busy is the closer figure.\n";

static volatile sig_atomic_t cpu_stop;

static void on_signal(int sig)
{
	cpu_stop = 1;
}

struct cpu_opts {
	uint64_t interval_ns;
	uint64_t count;			/* 0 = until Ctrl-C */
	bool have_cpus;
	struct cpuset cpus;
	const char *irq;
	const char *root;
	long hz;
};

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
	double sec = (double)(b->t_ns - a->t_ns) / 1e9, ticks = sec * (double)op->hz;
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

static int parse_opts(struct cpu_opts *op, struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "irq", required_argument, NULL, 'I' },
		{ "root", required_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[256];
	int c;

	memset(op, 0, sizeof(*op));
	op->interval_ns = 1000000000ULL;
	op->root = "/";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (duration_parse(optarg, 10000000ULL, 3600000000000ULL, &op->interval_ns,
					   err, sizeof(err))) {
				cli_error("cpu: --interval: %s", err);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			if (u64_parse(optarg, 1, 1000000000, &op->count, err, sizeof(err))) {
				cli_error("cpu: --count: %s", err);
				return EXIT_USAGE;
			}
			break;
		case 'C':
			if (cpuset_parse_list(optarg, &op->cpus, err, sizeof(err)) || !cpuset_count(&op->cpus)) {
				cli_error("cpu: --cpus: %s", *err ? err : "empty CPU list");
				return EXIT_USAGE;
			}
			op->have_cpus = true;
			break;
		case 'I': op->irq = optarg; break;
		case 'R': op->root = optarg; break;
		case 'j': cli->json = true; break;
		case 'h': fputs(cpu_usage, stdout); return -1;
		default:
			return cli_bad_option("cpu", c, argv, optind);
		}
	}
	if (optind < argc) {
		cli_error("cpu: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

/* Sleep until t_ns (CLOCK_MONOTONIC) in slices, so Ctrl-C is seen quickly. */
static void wait_until(uint64_t t_ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t_ns / 1000000000ULL);
	ts.tv_nsec = (long)(t_ns % 1000000000ULL);
	while (!cpu_stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int cmd_cpu(struct cli *cli, int argc, char **argv)
{
	struct procstat_sample *first = NULL, *prev = NULL, *cur = NULL, *tmp;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct cpu_opts op;
	struct out *o = NULL;
	char err[512], label[16];
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
	if ((rc = procstat_read(op.root, op.irq, first, err, sizeof(err)))) {
		cli_error("cpu: %s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (op.have_cpus) {
		int c = cpuset_next(&op.cpus, 0);

		for (; c >= 0; c = cpuset_next(&op.cpus, (unsigned int)c + 1))
			if (c >= CPUSTAT_MAX || !first->stat.cpu[c].present) {
				struct cpuset on;
				char list[256];

				cpuset_zero(&on);
				for (unsigned int k = 0; k < first->stat.max_cpu; k++)
					if (first->stat.cpu[k].present)
						cpuset_add(&on, k);
				cpuset_format_list(&on, list, sizeof(list));
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
	*prev = *first;
	o = out_create(stdout, cli->json);
	if (!o) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	out_f64(o, "interval_s", NULL, (double)op.interval_ns / 1e9);
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
	sigemptyset(&sa.sa_mask);
	cpu_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	out_arr_start(o, "samples");
	next = first->t_ns;
	while (!cpu_stop && (!op.count || n < op.count)) {
		time_t now;

		next += op.interval_ns;
		wait_until(next);
		if (cpu_stop)
			break;
		if ((rc = procstat_read(op.root, op.irq, cur, err, sizeof(err)))) {
			out_arr_end(o);
			out_destroy(o);
			o = NULL;
			cli_error("cpu: %s", err);
			rc = EXIT_RUNTIME;
			goto restore;
		}
		now = time(NULL);
		timefmt_local(label, sizeof(label), (int64_t)now, "%H:%M:%S");
		out_obj_start(o, NULL);
		out_str(o, "time", NULL, label);
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
	rc = 0;
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	out_destroy(o);
	procstat_sample_free(first);
	procstat_sample_free(prev);
	procstat_sample_free(cur);
	return rc;
}
