/* The policy of calibrate, cpu, soak and lab: the ceiling chosen from
 * the two steps, the cache line's span, --cpus and --irq against a
 * first sample, the soak's readings (weighted sum, history, fast and cut
 * readings), lab's actions, and probe's --require. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/calibrate.h"
#include "app/cpu_watch.h"
#include "app/lab_run.h"
#include "app/probe.h"
#include "app/soak_run.h"
#include "core/ns.h"

static char err[512];

static void step(struct trial_result *r, double target, double offered0, double offered1)
{
	memset(r, 0, sizeof(*r));
	r->ndirs = 2;
	r->dir[0].target_pps = target;
	r->dir[0].offered_pps = offered0;
	r->dir[1].target_pps = target;
	r->dir[1].offered_pps = offered1;
}

static void calib_ceiling(void **state)
{
	static struct trial_result flat, paced;
	double pe;

	(void)state;
	step(&flat, 0, 1000000, 990000);
	assert_true(app_calibrate_min_offered(&flat) == 990000);
	/* paced within 0.5% and nothing lost flat out: the flat-out figure */
	step(&paced, 891000, 890000, 889000);
	assert_true(app_calibrate_rx_clean(&flat));
	assert_true(app_calibrate_ceiling(&flat, &paced, &pe) == 990000);
	assert_true(pe > 0.22 && pe < 0.23);
	/* paced off by more than 0.5%: what the paced run reached */
	step(&paced, 891000, 880000, 870000);
	assert_true(app_calibrate_ceiling(&flat, &paced, &pe) == 870000);
	assert_true(pe > 2.3 && pe < 2.4);
	/* the analyzer lost frames flat out: the paced figure */
	step(&paced, 891000, 890000, 889000);
	flat.dir[1].lost = 1;
	assert_false(app_calibrate_rx_clean(&flat));
	assert_true(app_calibrate_ceiling(&flat, &paced, &pe) == 889000);
	flat.dir[1].lost = 0;
	flat.dir[0].tester_if_drops = 3;
	assert_false(app_calibrate_rx_clean(&flat));
}

static void calib_line_span(void **state)
{
	const double none[] = { 0, 0, 0 }, some[] = { 120, 0, 95 }, one[] = { 0, 80, 0 };
	double lo, hi;

	(void)state;
	app_calibrate_line_span(none, 3, &lo, &hi);
	assert_true(lo == 0 && hi == 0);
	app_calibrate_line_span(some, 3, &lo, &hi);
	assert_true(lo == 95 && hi == 120);
	app_calibrate_line_span(one, 3, &lo, &hi);
	assert_true(lo == 80 && hi == 80);
}

static void calib_defaults(void **state)
{
	static struct trial_setup to;

	(void)state;
	memset(&to, 0, sizeof(to));
	to.plan.cfg.duration_ns = 10 * NSEC_PER_SEC;
	to.plan.cfg.learn_frames = 4;
	app_calibrate_defaults(&to);
	assert_true(to.plan.direct);
	assert_true(to.plan.cfg.duration_ns == 5 * NSEC_PER_SEC);
	assert_int_equal(to.plan.cfg.learn_frames, 0);
	to.req.duration_set = to.req.learn_set = true;
	to.plan.cfg.duration_ns = 2 * NSEC_PER_SEC;
	to.plan.cfg.learn_frames = 4;
	app_calibrate_defaults(&to);
	assert_true(to.plan.cfg.duration_ns == 2 * NSEC_PER_SEC);
	assert_int_equal(to.plan.cfg.learn_frames, 4);
}

static void cpu_check(void **state)
{
	struct procstat_sample *s = procstat_sample_new();
	struct cpuset online, only;

	(void)state;
	assert_non_null(s);
	assert_int_equal(app_cpu_watch_sample(NULL, FIXTURES "/real-t0", NULL, s, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_check(s, NULL, NULL, &online, err, sizeof(err)), 0);
	assert_int_equal(cpuset_count(&online), 2);
	assert_int_equal(cpuset_parse_list("1", &only, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_check(s, &only, NULL, &online, err, sizeof(err)), 0);
	assert_int_equal(cpuset_parse_list("0-2", &only, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_check(s, &only, NULL, &online, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--cpus: CPU 2 is not online (online: 0-1)");

	/* a filter that names no line */
	assert_int_equal(app_cpu_watch_sample(NULL, FIXTURES "/real-t0", "no-such-line", s, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_check(s, NULL, "no-such-line", &online, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--irq: no IRQ line's name contains 'no-such-line' (see /proc/interrupts)");
	assert_int_equal(app_cpu_watch_sample(NULL, FIXTURES "/real-t0", "virtio0", s, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_check(s, NULL, "virtio0", &online, err, sizeof(err)), 0);
	procstat_sample_free(s);
}

static void cpu_watch(void **state)
{
	static volatile sig_atomic_t stop;
	struct app_cpu_cfg c = { .interval_ns = 10 * NSEC_PER_MSEC, .count = 2, .root = FIXTURES "/real-t0" };
	struct app_cpu_watch w;
	enum app_cpu_fail why;
	struct cpuset only;

	(void)state;
	assert_int_equal(app_cpu_watch_open(&c, &w, &why, err, sizeof(err)), 0);
	assert_true(w.hz > 0);
	assert_int_equal(app_cpu_watch_next(&c, &w, &stop, err, sizeof(err)), 1);
	assert_int_equal(app_cpu_watch_next(&c, &w, &stop, err, sizeof(err)), 1);
	assert_int_equal(app_cpu_watch_next(&c, &w, &stop, err, sizeof(err)), 0);
	assert_int_equal(w.n, 2);
	assert_true(w.prev->t_ns > w.first->t_ns);
	/* no profile asked: none read at the end */
	app_cpu_watch_finish(&c, &w);
	assert_null(w.profiled);
	app_cpu_watch_close(&w);

	/* stopped: no interval */
	c.count = 0;
	stop = 1;
	assert_int_equal(app_cpu_watch_open(&c, &w, &why, err, sizeof(err)), 0);
	assert_int_equal(app_cpu_watch_next(&c, &w, &stop, err, sizeof(err)), 0);
	assert_int_equal(w.n, 0);
	app_cpu_watch_close(&w);

	/* the step that failed */
	assert_int_equal(cpuset_parse_list("3", &only, err, sizeof(err)), 0);
	c.cpus = &only;
	assert_int_equal(app_cpu_watch_open(&c, &w, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_CPU_CHECK);
	app_cpu_watch_close(&w);
	c.cpus = NULL;
	c.root = FIXTURES "/no-such-tree";
	assert_true(app_cpu_watch_open(&c, &w, &why, err, sizeof(err)) < 0);
	assert_int_equal(why, APP_CPU_SAMPLE);
	app_cpu_watch_close(&w);
}

static void load(struct soak_calib_busy *l, double seconds, double l0, double l1)
{
	memset(l, 0, sizeof(*l));
	l->seconds = seconds;
	l->n = 2;
	l->cpu[0] = 2;
	l->cpu[1] = 3;
	l->load[0] = l0;
	l->load[1] = l1;
	l->all = (l0 + l1) / 2;
}

static void soak_accumulate(void **state)
{
	static struct soak_calib_busy tot, l;

	(void)state;
	memset(&tot, 0, sizeof(tot));
	load(&l, 1, 0.2, 0.4);
	app_soak_run_accumulate(&tot, &l);
	load(&l, 3, 0.6, 0.0);
	l.clamped = true;
	app_soak_run_accumulate(&tot, &l);
	assert_true(tot.seconds == 4);
	assert_int_equal(tot.n, 2);
	assert_int_equal(tot.cpu[1], 3);
	assert_true(fabs(tot.load[0] - 0.5) < 1e-12);
	assert_true(fabs(tot.load[1] - 0.1) < 1e-12);
	assert_true(fabs(tot.all - 0.3) < 1e-12);
	assert_true(tot.clamped);
}

static void soak_fast_and_keep(void **state)
{
	static struct soak_calib_busy l;

	(void)state;
	load(&l, 1, 0, 0);
	l.raw[0] = -0.01;
	l.raw[1] = -0.03;
	assert_false(app_soak_run_fast(&l, 1));
	assert_true(app_soak_run_fast(&l, 2));
	/* a reading Ctrl-C cut to under a tenth of the interval is dropped */
	assert_true(app_soak_run_keep(false, 0.001, NSEC_PER_SEC));
	assert_false(app_soak_run_keep(true, 0.05, NSEC_PER_SEC));
	assert_true(app_soak_run_keep(true, 0.2, NSEC_PER_SEC));
}

static void soak_hist(void **state)
{
	static struct soak_calib_busy l;
	struct app_soak_hist h;

	(void)state;
	assert_int_equal(app_soak_run_hist_init(&h, 2, 2), 0);
	for (int i = 0; i < 5; i++) {
		load(&l, 1, 0.1 * i, 0.2 * i);
		assert_true(app_soak_run_hist_add(&h, &l));
	}
	assert_int_equal(h.n, 5);
	assert_int_equal(h.cap, 8);
	app_soak_run_hist_compact(&h);
	for (int i = 0; i < 5; i++) {
		assert_true(fabs(h.v[i] - 0.15 * i) < 1e-12);
		assert_true(fabs(h.v[5 + i] - 0.1 * i) < 1e-12);
		assert_true(fabs(h.v[10 + i] - 0.2 * i) < 1e-12);
	}
	app_soak_run_hist_free(&h);
	assert_null(h.v);
}

static void lab_actions(void **state)
{
	enum app_lab_action a;

	(void)state;
	assert_int_equal(app_lab_run_action_parse("up", &a), 0);
	assert_int_equal(a, APP_LAB_UP);
	assert_int_equal(app_lab_run_action_parse("down", &a), 0);
	assert_int_equal(a, APP_LAB_DOWN);
	assert_int_equal(app_lab_run_action_parse("status", &a), 0);
	assert_int_equal(a, APP_LAB_STATUS);
	assert_string_equal(app_lab_run_action_name(a), "status");
	assert_int_equal(app_lab_run_action_parse("Up", &a), -EINVAL);
	assert_int_equal(app_lab_run_action_parse("", &a), -EINVAL);
}

/* --require: known names only, none empty; the first missing one said
 * with why. */
static void probe_require(void **state)
{
	struct probe_report r;
	(void)state;
	assert_int_equal(app_probe_check_require("veth,af_xdp", err, sizeof(err)), 0);
	assert_int_equal(app_probe_check_require("", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--require: '': give feature names, e.g. af_xdp,veth");
	assert_int_equal(app_probe_check_require("veth,,af_xdp", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_probe_check_require("veth,pktgen", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--require: unknown feature 'pktgen' (see 'wirerate probe' for names)");
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < PR_COUNT; i++)
		hostcaps_set(&r, (enum probe_id)i, PROBE_YES, "here");
	assert_int_equal(app_probe_require(&r, "veth,af_xdp", err, sizeof(err)), 0);
	hostcaps_set(&r, (enum probe_id)hostcaps_find("af_xdp"), PROBE_NO, "no XSK here");
	assert_int_equal(app_probe_require(&r, "veth,af_xdp", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "af_xdp missing: no XSK here");
}

/* What app_probe_host looks at: under a fixture root no CPU lines (they
 * are this host's); --require stops before the interfaces; an interface
 * that is not there fails alone. */
static void probe_host(void **state)
{
	struct app_probe_cfg c = { .root = FIXTURES "/..", .ifs = { "lo", "wr-nosuch0" }, .nifs = 2 };
	struct app_probe_host *h = malloc(sizeof(*h));

	(void)state;
	assert_non_null(h);
	app_probe_host(&c, h);
	assert_false(h->here);
	assert_int_equal(h->nlines, 0);
	assert_int_equal(h->nports, 2);
	assert_string_equal(h->spec[1], "wr-nosuch0");
	assert_int_not_equal(h->port_rc[1], 0);
	assert_non_null(strstr(h->ports[1].err, "no such interface"));
	c.require = "veth";
	app_probe_host(&c, h);
	assert_int_equal(h->nports, 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(calib_ceiling),
		cmocka_unit_test(calib_line_span),
		cmocka_unit_test(calib_defaults),
		cmocka_unit_test(cpu_check),
		cmocka_unit_test(cpu_watch),
		cmocka_unit_test(soak_accumulate),
		cmocka_unit_test(soak_fast_and_keep),
		cmocka_unit_test(soak_hist),
		cmocka_unit_test(lab_actions),
		cmocka_unit_test(probe_require),
		cmocka_unit_test(probe_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
