/* The /proc readers against fixture trees, the calibration file on disk,
 * and a short real soak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cpustat.h"
#include "core/soak_calib.h"
#include "os/procstat.h"
#include "dut/soak.h"

static char err[512];

static struct procstat_sample *read_fx(const char *name, const char *filter, int want)
{
	struct procstat_sample *s = procstat_sample_new();
	char root[1024];

	assert_non_null(s);
	snprintf(root, sizeof(root), "%s/%s", FIXTURES, name);
	err[0] = 0;
	assert_int_equal(procstat_read(root, filter, s, err, sizeof(err)), want);
	return s;
}

static void real_pair(void **st)
{
	struct procstat_sample *a = read_fx("real-t0", NULL, 0), *b = read_fx("real-t1", NULL, 0);
	struct cpustat_pct p;
	bool back = false;

	assert_true(a->have_irq && a->have_soft && a->have_net);
	assert_int_equal(a->stat.max_cpu, 2);
	assert_int_equal(a->net.ncols, 15);
	assert_false(a->net.cpu_from_row);
	assert_true(a->net.cpu[1].present);
	/* One second apart, 100 ticks per CPU: the columns moved forward. */
	cpustat_pct(&a->stat.cpu[0], &b->stat.cpu[0], 100, &p);
	assert_false(p.backwards);
	assert_true(p.usr + p.sys + p.soft + p.idle > 99.9);
	assert_true(b->soft.net_rx[0] >= a->soft.net_rx[0]);
	assert_true(cpustat_delta(a->irq.total[1], b->irq.total[1], &back) > 0);
	assert_true(cpustat_delta(a->net.cpu[0].processed, b->net.cpu[0].processed, &back) > 0);
	assert_false(back);
	procstat_sample_free(a);
	procstat_sample_free(b);
}

static void old_kernel(void **st)
{
	struct procstat_sample *s = read_fx("old-4col", NULL, 0);

	assert_int_equal(s->stat.cpu[1].ncols, 4);
	assert_int_equal(s->stat.cpu[1].v[CS_IDLE], 49395);
	assert_true(s->have_irq);
	assert_false(s->have_soft);		/* 2.4 had no /proc/softirqs */
	assert_true(s->have_net);
	assert_int_equal(s->net.ncols, 9);
	assert_true(s->net.cpu_from_row);
	assert_int_equal(s->net.cpu[1].processed, 0x2000);
	assert_int_equal(s->irq.total[0], 50000 + 2 + 7000 + 1000 + 49000);
	procstat_sample_free(s);

	s = read_fx("old-4col", "eth", 0);
	assert_int_equal(s->irq.nlines, 2);
	assert_int_equal(s->irq.total[1], 3500);
	procstat_sample_free(s);

	s = read_fx("old-7col", NULL, 0);
	assert_int_equal(s->stat.cpu[0].ncols, 7);
	assert_int_equal(s->stat.cpu[0].v[CS_SOFTIRQ], 45);
	assert_false(s->have_irq || s->have_soft || s->have_net);
	procstat_sample_free(s);
	s = read_fx("old-8col", NULL, 0);
	assert_int_equal(s->stat.cpu[0].v[CS_STEAL], 7);
	procstat_sample_free(s);
}

static void offline_cpu(void **st)
{
	struct procstat_sample *s = read_fx("offline-11col", "eth0", 0);

	assert_false(s->stat.cpu[2].present);
	assert_true(s->stat.cpu[3].present);
	assert_false(s->irq.present[2]);
	assert_int_equal(s->irq.total[3], 303);
	assert_int_equal(s->soft.net_rx[3], 30);
	assert_false(s->soft.present[2]);
	/* 11 columns: rows are CPUs 0, 1, 3 (the online ones). */
	assert_true(s->net.cpu_from_row);
	assert_false(s->net.cpu[2].present);
	assert_int_equal(s->net.cpu[3].processed, 30);
	assert_int_equal(s->net.cpu[3].squeezed, 3);
	procstat_sample_free(s);
}

static void more_columns_and_backwards(void **st)
{
	struct procstat_sample *a = read_fx("more-cols", NULL, 0), *b = read_fx("backwards", NULL, 0);
	struct cpustat_pct p;

	assert_int_equal(a->stat.all.ncols, 12);
	assert_int_equal(a->stat.cpu[1].v[CS_GUEST_NICE], 7);
	assert_int_equal(a->net.ncols, 17);
	assert_int_equal(a->net.cpu[1].processed, 200);
	assert_false(a->have_irq);
	cpustat_pct(&a->stat.cpu[1], &b->stat.cpu[1], 10, &p);
	assert_true(p.backwards);
	assert_float_equal(p.usr, 0, 1e-9);
	assert_float_equal(p.idle, 100, 1e-9);
	cpustat_pct(&a->stat.cpu[0], &b->stat.cpu[0], 10, &p);
	assert_false(p.backwards);
	procstat_sample_free(a);
	procstat_sample_free(b);
}

static void corrupt_and_missing(void **st)
{
	procstat_sample_free(read_fx("corrupt", NULL, -EINVAL));
	assert_non_null(strstr(err, "/proc/stat"));
	procstat_sample_free(read_fx("no-such-tree", NULL, -ENOENT));
	assert_non_null(strstr(err, "/proc/stat"));
}

static void host_identity(void **st)
{
	char root[1024], buf[256];
	struct cpuset on;

	snprintf(root, sizeof(root), "%s/real-t0", FIXTURES);
	assert_int_equal(procstat_kernel(root, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "6.18.44-fc-v669");
	assert_int_equal(procstat_cpu_model(root, buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "AMD EPYC");
	assert_int_equal(procstat_online(root, &on, err, sizeof(err)), 0);
	assert_int_equal(cpuset_count(&on), 2);
	snprintf(root, sizeof(root), "%s/offline-11col", FIXTURES);
	assert_int_equal(procstat_online(root, &on, err, sizeof(err)), 0);
	assert_false(cpuset_has(&on, 2));
	assert_true(procstat_kernel(root, buf, sizeof(buf), err, sizeof(err)) < 0);
}

static void calib_file(void **st)
{
	char dir[] = "/tmp/wr-test-soak.XXXXXX", path[256], e2[512];
	struct soak_calib *c = calloc(1, sizeof(*c)), *d = calloc(1, sizeof(*d));
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub/dir/soak-calibration", dir);
	assert_int_equal(soak_calibration_load(path, d, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "--calibrate"));
	snprintf(c->kernel, sizeof(c->kernel), "k1");
	snprintf(c->cpu_model, sizeof(c->cpu_model), "Some CPU @ 2.0GHz");
	snprintf(c->work, sizeof(c->work), "%s", SOAK_WORK);
	c->when = 1;
	c->n = 1;
	c->cpu[0] = 1;
	c->rate[0] = 12345.5;
	assert_int_equal(soak_calibration_save(path, c, err, sizeof(err)), 0);
	assert_int_equal(soak_calibration_load(path, d, err, sizeof(err)), 0);
	assert_string_equal(d->cpu_model, "Some CPU @ 2.0GHz");
	assert_float_equal(soak_calib_rate(d, 1), 12345.5, 1e-3);
	/* Made on kernel "k1": refused here. */
	assert_int_equal(soak_calibration_verify(d, err, sizeof(err)), -ESTALE);
	assert_non_null(strstr(err, "k1"));

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("wirerate-soak-calibration 1\nkernel k\ncpu 0 garbage\n", f);
	fclose(f);
	assert_int_equal(soak_calibration_load(path, d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "corrupt"));
	snprintf(e2, sizeof(e2), "rm -rf '%s'", dir);
	assert_int_equal(system(e2), 0);
	free(c);
	free(d);
}

static void soak_refuses(void **st)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct soak *s = NULL;
	struct cpuset cpus;

	c->n = 1;
	c->cpu[0] = 0;
	c->rate[0] = 1000;
	cpuset_zero(&cpus);
	assert_int_equal(soak_create(&cpus, c, &s, err, sizeof(err)), -EINVAL);
	cpuset_add(&cpus, 1000);
	assert_int_equal(soak_create(&cpus, c, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not online"));
	assert_null(s);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		cpuset_zero(&cpus);
		cpuset_add(&cpus, 1);
		assert_int_equal(soak_create(&cpus, c, &s, err, sizeof(err)), -ENOENT);
		assert_non_null(strstr(err, "calibration"));
	}
	soak_destroy(NULL);
	free(c);
}

/* A real soak on CPU 0 for 200 ms: it runs, counts and stops. */
static void soak_runs(void **st)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct soak_calib_busy *l = malloc(sizeof(*l));
	struct soak_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct soak *s = NULL;
	struct cpuset cpus;

	c->n = 1;
	c->cpu[0] = 0;
	c->rate[0] = 1e12;		/* far faster than any CPU: load near 100% */
	cpuset_zero(&cpus);
	cpuset_add(&cpus, 0);
	assert_int_equal(soak_create(&cpus, c, &s, err, sizeof(err)), 0);
	assert_int_equal(soak_ncpus(s), 1);
	assert_int_equal(soak_cpu(s, 0), 0);
	assert_int_equal(soak_start(s, err, sizeof(err)), 0);
	soak_snap(s, a);
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	soak_snap(s, b);
	soak_load_between(s, a, b, l);
	assert_true(l->seconds > 0.15);
	assert_true(l->rate[0] > 0);
	assert_true(l->load[0] > 0.99 && l->load[0] <= 1.0);
	soak_read(s, l);
	assert_int_equal(l->n, 1);
	assert_true(l->all > 0.99);
	soak_stop(s);
	soak_stop(s);
	soak_destroy(s);
	free(c);
	free(l);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_pair),
		cmocka_unit_test(old_kernel),
		cmocka_unit_test(offline_cpu),
		cmocka_unit_test(more_columns_and_backwards),
		cmocka_unit_test(corrupt_and_missing),
		cmocka_unit_test(host_identity),
		cmocka_unit_test(calib_file),
		cmocka_unit_test(soak_refuses),
		cmocka_unit_test(soak_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
