#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/cpuset.h"
#include "core/cpustat.h"
#include "core/soak_calib.h"
#include "core/stat.h"

static char err[512];

static const char stat_real[] =
	"cpu  37971 0 33643 641743 603 0 42921 104 0 0\n"
	"cpu0 19694 0 28643 312083 34 0 22229 44 0 0\n"
	"cpu1 18276 0 4999 329660 568 0 20691 60 0 0\n"
	"intr 17559856 0 0 0 1\n"
	"ctxt 3303985\n"
	"btime 1780000000\n"
	"processes 21000\n"
	"procs_running 2\n"
	"softirq 1 2 3\n";

static void stat_parse_real(void **st)
{
	struct cpustat *s = malloc(sizeof(*s));

	assert_int_equal(cpustat_parse_stat(stat_real, s, err, sizeof(err)), 0);
	assert_true(s->all.present);
	assert_int_equal(s->all.ncols, 10);
	assert_int_equal(s->all.v[CS_IDLE], 641743);
	assert_int_equal(s->max_cpu, 2);
	assert_true(s->cpu[1].present);
	assert_int_equal(s->cpu[1].v[CS_SOFTIRQ], 20691);
	assert_int_equal(s->cpu[1].v[CS_STEAL], 60);
	assert_false(s->cpu[2].present);
	assert_int_equal(s->intr, 17559856);
	assert_int_equal(s->ctxt, 3303985);
	free(s);
}

static void stat_parse_columns(void **st)
{
	struct cpustat *s = malloc(sizeof(*s));

	/* 2.4: four columns; the rest read as 0. */
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\n", s, err, sizeof(err)), 0);
	assert_int_equal(s->cpu[0].ncols, 4);
	assert_int_equal(s->cpu[0].v[CS_IDLE], 4);
	assert_int_equal(s->cpu[0].v[CS_IOWAIT], 0);
	/* 2.6.0: seven; 2.6.11: eight. */
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n", s, err, sizeof(err)), 0);
	assert_int_equal(s->cpu[0].ncols, 7);
	assert_int_equal(s->cpu[0].v[CS_SOFTIRQ], 7);
	assert_int_equal(s->cpu[0].v[CS_STEAL], 0);
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4 5 6 7 8\ncpu0 1 2 3 4 5 6 7 8\n", s, err, sizeof(err)), 0);
	assert_int_equal(s->cpu[0].v[CS_STEAL], 8);
	/* More than ten: the known ten are read, the rest ignored. */
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4 5 6 7 8 9 10 11 12\n", s, err, sizeof(err)), 0);
	assert_int_equal(s->all.ncols, 12);
	assert_int_equal(s->all.v[CS_GUEST_NICE], 10);
	/* Offline CPUs are absent. */
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu3 1 2 3 4\n", s, err, sizeof(err)), 0);
	assert_true(s->cpu[3].present);
	assert_false(s->cpu[1].present);
	assert_false(s->cpu[2].present);
	assert_int_equal(s->max_cpu, 4);
	/* No trailing newline. */
	assert_int_equal(cpustat_parse_stat("cpu  1 2 3 4", s, err, sizeof(err)), 0);
	free(s);
}

static void stat_parse_bad(void **st)
{
	struct cpustat *s = malloc(sizeof(*s));
	const char *bad[] = { "", "intr 5\n", "cpu  1 2 3\n", "cpu  1 2 x 4\n", "cpux 1 2 3 4\ncpu  1 2 3 4\n",
			      "cpu  1 2 3 4\ncpu99999 1 2 3 4\n", "cpu  1 2 3 -4\n",
			      "cpu  1 2 3 99999999999999999999999\n" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_true(cpustat_parse_stat(bad[i], s, err, sizeof(err)) < 0);
		assert_true(strlen(err) > 0);
	}
	free(s);
}

static void pct_math(void **st)
{
	struct cpustat_cpu a = { .present = true, .ncols = 10 }, b = a;
	struct cpustat_pct p;

	/* 100 ticks of columns over 200 ticks of wall: half the time is in no
	 * column (interrupts without IRQ time accounting). */
	b.v[CS_USER] = 30;		/* of which 10 guest */
	b.v[CS_GUEST] = 10;
	b.v[CS_SYSTEM] = 10;
	b.v[CS_SOFTIRQ] = 10;
	b.v[CS_IDLE] = 40;
	b.v[CS_IOWAIT] = 10;
	cpustat_pct(&a, &b, 200, &p);
	assert_float_equal(p.usr, 20, 1e-9);
	assert_float_equal(p.guest, 10, 1e-9);
	assert_float_equal(p.sys, 10, 1e-9);
	assert_float_equal(p.soft, 10, 1e-9);
	assert_float_equal(p.idle, 40, 1e-9);
	assert_float_equal(p.iowait, 10, 1e-9);
	assert_float_equal(p.usr + p.nice + p.sys + p.iowait + p.irq + p.soft + p.steal + p.guest + p.idle,
			   100, 1e-9);
	assert_float_equal(p.busy, 75, 1e-9);		/* (200 - 40 - 10) / 200 */
	assert_float_equal(p.accounted, 50, 1e-9);
	assert_false(p.backwards);

	/* Idle over wall (sampling jitter): busy clamps at 0. */
	cpustat_pct(&a, &b, 30, &p);
	assert_float_equal(p.busy, 0, 1e-9);
	/* No wall time: busy is 0, not a division by zero. */
	cpustat_pct(&a, &b, 0, &p);
	assert_float_equal(p.busy, 0, 1e-9);
	/* No change at all. */
	cpustat_pct(&a, &a, 100, &p);
	assert_float_equal(p.idle, 0, 1e-9);
	assert_float_equal(p.busy, 100, 1e-9);

	/* A counter going backwards: delta 0, flagged. */
	a.v[CS_SYSTEM] = 50;
	cpustat_pct(&a, &b, 200, &p);
	assert_true(p.backwards);
	assert_float_equal(p.sys, 0, 1e-9);
}

static void delta(void **st)
{
	bool back = false;

	assert_int_equal(cpustat_delta(5, 9, &back), 4);
	assert_false(back);
	assert_int_equal(cpustat_delta(9, 5, &back), 0);
	assert_true(back);
	assert_int_equal(cpustat_delta(9, 5, NULL), 0);
}

static const char irq_text[] =
	"           CPU0       CPU1       CPU3       \n"
	"  0:         10          0          0   IO-APIC   2-edge      timer\n"
	" 30:        100        200        300   PCI-MSI 524288-edge      eth0-TxRx-0\n"
	" 31:          1          2          3   PCI-MSI 524289-edge      eth0-TxRx-1\n"
	" 32:         40          0          0   PCI-MSI 1048576-edge      eth1\n"
	"NMI:          0          0          0   Non-maskable interrupts\n"
	"LOC:       1000       1000       1000   Local timer interrupts\n"
	"ERR:          5\n"
	"MIS:          0\n";

static void interrupts(void **st)
{
	struct irqstat *s = malloc(sizeof(*s));

	assert_int_equal(cpustat_parse_interrupts(irq_text, NULL, s, err, sizeof(err)), 0);
	assert_int_equal(s->ncols, 3);
	assert_int_equal(s->col_cpu[2], 3);
	assert_true(s->present[3]);
	assert_false(s->present[2]);
	assert_int_equal(s->total[0], 10 + 100 + 1 + 40 + 1000);
	assert_int_equal(s->total[3], 303 + 1000);
	assert_int_equal(s->nlines, 6);		/* ERR and MIS belong to no CPU */
	assert_string_equal(s->line[1].irq, "30");
	assert_string_equal(s->line[1].name, "PCI-MSI 524288-edge      eth0-TxRx-0");
	assert_int_equal(s->line[1].total, 600);
	assert_string_equal(s->line[5].irq, "LOC");

	/* Filter by device name. */
	assert_int_equal(cpustat_parse_interrupts(irq_text, "eth0", s, err, sizeof(err)), 0);
	assert_int_equal(s->nlines, 2);
	assert_int_equal(s->total[0], 101);
	assert_int_equal(s->total[1], 202);
	assert_int_equal(s->total[3], 303);
	assert_int_equal(cpustat_parse_interrupts(irq_text, "eth1", s, err, sizeof(err)), 0);
	assert_int_equal(s->nlines, 1);
	assert_int_equal(s->total[0], 40);
	assert_int_equal(cpustat_parse_interrupts(irq_text, "nosuch", s, err, sizeof(err)), 0);
	assert_int_equal(s->nlines, 0);

	assert_true(cpustat_parse_interrupts("", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_interrupts("  0: 1 2\n", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_interrupts("CPU0 CPUx\n", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_interrupts("CPU0\n garbage line\n", NULL, s, err, sizeof(err)) < 0);
	free(s);
}

static void softirqs(void **st)
{
	struct softirqstat *s = malloc(sizeof(*s));
	const char *t = "                    CPU0       CPU2       \n"
			"          HI:          0          0\n"
			"      NET_TX:        242     712943\n"
			"      NET_RX:   52708036   12962030\n"
			"    NEWTHING:          1          1\n";

	assert_int_equal(cpustat_parse_softirqs(t, s, err, sizeof(err)), 0);
	assert_true(s->present[2]);
	assert_false(s->present[1]);
	assert_int_equal(s->net_rx[0], 52708036);
	assert_int_equal(s->net_tx[2], 712943);
	assert_true(cpustat_parse_softirqs("  CPU0\n NET_TX: 1\n", s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "NET_RX"));
	assert_true(cpustat_parse_softirqs("  CPU0 CPU1\n NET_TX: 1\n NET_RX: 1 2\n", s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_softirqs("", s, err, sizeof(err)) < 0);
	free(s);
}

static void softnet(void **st)
{
	struct softnetstat *s = malloc(sizeof(*s));
	struct cpuset on;
	/* 6.x: 15 columns, the CPU id in the 13th. */
	const char *t15 =
		"07278aa9 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00533189 00000000 00000000 00000000 00000000 00000000\n"
		"0b93e469 005ae8d7 0000000a 00000000 00000000 00000000 00000000 00000000 00000000 0097b963 00000000 00000000 00000003 00000000 00000000\n";
	/* 4.x: 11 columns, rows are the online CPUs in order. */
	const char *t11 =
		"0000000a 00000000 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
		"00000014 00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
		"0000001e 00000000 00000003 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n";

	assert_int_equal(cpustat_parse_softnet(t15, NULL, s, err, sizeof(err)), 0);
	assert_int_equal(s->ncols, 15);
	assert_false(s->cpu_from_row);
	assert_true(s->cpu[0].present);
	assert_false(s->cpu[1].present);
	assert_true(s->cpu[3].present);
	assert_int_equal(s->cpu[3].processed, 0x0b93e469);
	assert_int_equal(s->cpu[3].dropped, 0x005ae8d7);
	assert_int_equal(s->cpu[3].squeezed, 10);

	assert_int_equal(cpuset_parse_list("0-1,3", &on, err, sizeof(err)), 0);
	assert_int_equal(cpustat_parse_softnet(t11, &on, s, err, sizeof(err)), 0);
	assert_true(s->cpu_from_row);
	assert_int_equal(s->cpu[3].processed, 30);
	assert_int_equal(s->cpu[3].squeezed, 3);
	assert_int_equal(s->cpu[1].dropped, 2);
	assert_false(s->cpu[2].present);
	assert_int_equal(cpustat_parse_softnet(t11, NULL, s, err, sizeof(err)), 0);
	assert_int_equal(s->cpu[2].processed, 30);
	/* More rows than online CPUs: refused. */
	assert_int_equal(cpuset_parse_list("0-1", &on, err, sizeof(err)), 0);
	assert_true(cpustat_parse_softnet(t11, &on, s, err, sizeof(err)) < 0);

	assert_true(cpustat_parse_softnet("", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_softnet("0000000a 00000001\n", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_softnet("1 2 3\n1 2 3 4\n", NULL, s, err, sizeof(err)) < 0);
	assert_true(cpustat_parse_softnet("1 2 zz\n", NULL, s, err, sizeof(err)) < 0);
	/* A CPU id beyond what we track. */
	assert_true(cpustat_parse_softnet("1 2 3 4 5 6 7 8 9 a b c fffff\n", NULL, s, err, sizeof(err)) < 0);
	free(s);
}

static void soak_arith(void **st)
{
	bool cl = false;

	/* Half the loops of the calibration in the same time: 50% load. */
	assert_float_equal(soak_calib_busy(500, 1.0, 1000, &cl), 0.5, 1e-12);
	assert_false(cl);
	assert_float_equal(soak_calib_busy(1000, 2.0, 1000, &cl), 0.5, 1e-12);
	assert_float_equal(soak_calib_busy(1000, 1.0, 1000, &cl), 0.0, 1e-12);
	assert_false(cl);
	assert_float_equal(soak_calib_busy(0, 1.0, 1000, &cl), 1.0, 1e-12);
	assert_false(cl);
	/* Faster than calibrated: clamped to 0 and said so. */
	assert_float_equal(soak_calib_busy(1010, 1.0, 1000, &cl), 0.0, 1e-12);
	assert_true(cl);
	cl = false;
	assert_float_equal(soak_calib_busy(10, 0.0, 1000, &cl), 0.0, 1e-12);
	assert_true(cl);
	cl = false;
	assert_float_equal(soak_calib_busy(10, 1.0, 0, &cl), 0.0, 1e-12);
	assert_true(cl);
	cl = false;
	assert_float_equal(soak_calib_busy(NAN, 1.0, 10, &cl), 0.0, 1e-12);
	assert_true(cl);
	assert_float_equal(soak_calib_busy(-5, 1.0, 10, NULL), 1.0, 1e-12);
}

static void summary(void **st)
{
	double v[] = { 0.5, 0.2, 0.8 }, mean, min, max;

	stat_summary(v, 3, &mean, &min, &max);
	assert_float_equal(mean, 0.5, 1e-12);
	assert_float_equal(min, 0.2, 1e-12);
	assert_float_equal(max, 0.8, 1e-12);
	stat_summary(v, 0, &mean, &min, &max);
	assert_float_equal(mean, 0, 1e-12);
}

static const char calib_text[] =
	"wirerate-soak-calibration 1\n"
	"# a comment\n"
	"kernel 6.18.44-fc-v669\n"
	"cpu_model AMD EPYC 7B13 64-Core Processor\n"
	"work v1-lines64-mix4-buf2llc\n"
	"when 1780000000\n"
	"cpu 0 3346175.500 0.00400\n"
	"\n"
	"cpu 1 3307667.000 0.00100\n";

static void calib_parse(void **st)
{
	struct soak_calib *c = malloc(sizeof(*c)), *d = malloc(sizeof(*d));
	char buf[4096];
	int n;

	assert_int_equal(soak_calib_parse(calib_text, c, err, sizeof(err)), 0);
	assert_string_equal(c->kernel, "6.18.44-fc-v669");
	assert_string_equal(c->cpu_model, "AMD EPYC 7B13 64-Core Processor");
	assert_string_equal(c->work, "v1-lines64-mix4-buf2llc");
	assert_int_equal(c->when, 1780000000);
	assert_int_equal(c->n, 2);
	assert_float_equal(soak_calib_rate(c, 0), 3346175.5, 1e-6);
	assert_float_equal(soak_calib_rate(c, 1), 3307667.0, 1e-6);
	assert_true(soak_calib_rate(c, 2) < 0);
	assert_float_equal(c->spread[0], 0.004, 1e-9);

	n = soak_calib_format(c, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(soak_calib_parse(buf, d, err, sizeof(err)), 0);
	assert_string_equal(d->cpu_model, c->cpu_model);
	assert_int_equal(d->n, 2);
	assert_float_equal(d->rate[1], c->rate[1], 1e-3);
	assert_int_equal(soak_calib_format(c, buf, 20), -ENOSPC);

	assert_int_equal(soak_calib_check(c, "6.18.44-fc-v669", "AMD EPYC 7B13 64-Core Processor",
					  "v1-lines64-mix4-buf2llc", err, sizeof(err)), 0);
	assert_int_equal(soak_calib_check(c, "6.1.0-13-amd64", "AMD EPYC 7B13 64-Core Processor",
					  "v1-lines64-mix4-buf2llc", err, sizeof(err)), -ESTALE);
	assert_non_null(strstr(err, "kernel 6.18.44-fc-v669"));
	assert_non_null(strstr(err, "6.1.0-13-amd64"));
	assert_int_equal(soak_calib_check(c, "6.18.44-fc-v669", "Intel Xeon", "v1-lines64-mix4-buf2llc",
					  err, sizeof(err)), -ESTALE);
	assert_non_null(strstr(err, "Intel Xeon"));
	assert_int_equal(soak_calib_check(c, "6.18.44-fc-v669", "AMD EPYC 7B13 64-Core Processor", "v2",
					  err, sizeof(err)), -ESTALE);
	free(c);
	free(d);
}

/* A calibration of some CPUs keeps the others of the file it replaces, in
 * CPU order, and only when made on the same kernel, CPU model and loop. */
static void calib_merge(void **st)
{
	struct soak_calib *old = malloc(sizeof(*old)), *c = malloc(sizeof(*c));

	assert_int_equal(soak_calib_parse(calib_text, old, err, sizeof(err)), 0);
	assert_int_equal(soak_calib_parse(calib_text, c, err, sizeof(err)), 0);
	/* c: a new calibration of CPU 1 only, and of CPU 3 */
	c->n = 2;
	c->cpu[0] = 1, c->rate[0] = 1000, c->spread[0] = 0.002;
	c->cpu[1] = 3, c->rate[1] = 3000, c->spread[1] = 0.003;
	old->cpu[old->n] = 2, old->rate[old->n] = 2000, old->spread[old->n] = 0.001, old->n++;
	assert_int_equal(soak_calib_merge(c, old), 2);		/* CPUs 0 and 2 */
	assert_int_equal(c->n, 4);
	for (unsigned int i = 0; i < 4; i++)
		assert_int_equal(c->cpu[i], i);
	assert_float_equal(soak_calib_rate(c, 0), 3346175.5, 1e-6);	/* kept */
	assert_float_equal(soak_calib_rate(c, 1), 1000, 1e-9);		/* the new one wins */
	assert_float_equal(soak_calib_rate(c, 2), 2000, 1e-9);
	assert_float_equal(c->spread[2], 0.001, 1e-9);
	assert_float_equal(soak_calib_rate(c, 3), 3000, 1e-9);
	assert_int_equal(soak_calib_merge(c, old), 0);		/* nothing left to add */
	/* another kernel: nothing kept */
	c->n = 1;
	snprintf(c->kernel, sizeof(c->kernel), "6.1.0-13-amd64");
	assert_int_equal(soak_calib_merge(c, old), 0);
	assert_int_equal(c->n, 1);
	free(old);
	free(c);
}

static void calib_corrupt(void **st)
{
	struct soak_calib *c = malloc(sizeof(*c));
	static const char *const bad[] = {
		"",
		"garbage\n",
		"wirerate-soak-calibration 2\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 1 0\n",
		"wirerate-soak-calibration 1\ncpu_model m\nwork w\nwhen 1\ncpu 0 1 0\n",
		"wirerate-soak-calibration 1\nkernel k\nwork w\nwhen 1\ncpu 0 1 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwhen 1\ncpu 0 1 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\ncpu 0 1 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 -1 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 0 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 nan 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 5\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 5 0 7\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu x 5 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 5000 5 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\ncpu 0 5 0\ncpu 0 6 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen x\ncpu 0 5 0\n",
		"wirerate-soak-calibration 1\nkernel k\ncpu_model m\nwork w\nwhen 1\nbogus 1\ncpu 0 5 0\n",
		"\x01\x02\x03\xff",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(soak_calib_parse(bad[i], c, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "corrupt soak calibration"));
	}
	free(c);
}

/* Student's t and the interval of a mean, against values worked by hand. */
static void t_interval(void **st)
{
	/* 10, 12, 14: mean 12, sd 2, t(95%, 2) = 4.303: +-4.968, 41.4% */
	const double v[3] = { 10, 12, 14 }, same[4] = { 5, 5, 5, 5 }, zero[2] = { 0, 0 };

	(void)st;
	assert_true(fabs(stat_t(95, 1) - 12.706) < 1e-9);
	assert_true(fabs(stat_t(99, 30) - 2.750) < 1e-9);
	assert_true(fabs(stat_t(95, 31) - 1.960) < 1e-9);
	assert_true(stat_t(90, 5) == 0);
	assert_true(stat_t(95, 0) == 0);
	assert_true(fabs(stat_mean_halfwidth(v, 3, 95) - 4.303 * 2 / sqrt(3) / 12) < 1e-6);
	assert_true(stat_mean_halfwidth(same, 4, 99) == 0);
	assert_true(isinf(stat_mean_halfwidth(v, 1, 95)));
	assert_true(isinf(stat_mean_halfwidth(zero, 2, 95)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_parse_real),
		cmocka_unit_test(stat_parse_columns),
		cmocka_unit_test(stat_parse_bad),
		cmocka_unit_test(pct_math),
		cmocka_unit_test(delta),
		cmocka_unit_test(interrupts),
		cmocka_unit_test(softirqs),
		cmocka_unit_test(softnet),
		cmocka_unit_test(soak_arith),
		cmocka_unit_test(summary),
		cmocka_unit_test(calib_parse),
		cmocka_unit_test(calib_merge),
		cmocka_unit_test(calib_corrupt), cmocka_unit_test(t_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
