/* The soak's idle check and the stall probe on this host's CPU 0, with
 * no root: a calibration far from any CPU's speed is untrusted with its
 * reason, the probe wakes about as often as its period says, and both
 * refuse bad CPU sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dut/soak.h"
#include "dut/stallprobe.h"

static char err[512];

static void one_cpu(struct cpuset *s, unsigned int cpu)
{
	cpuset_zero(s);
	cpuset_add(s, cpu);
}

/* A calibration of 10^12 loops/s (no CPU loops that fast) reads the CPU
 * slow; one of 1 loop/s reads it fast. A CPU busy with something else
 * during the check is untrusted too, with that reason: either way, never
 * trusted. */
static void idle_check_untrusted(void **st)
{
	static struct soak_calib cal;
	static struct soak_idle r;
	struct cpuset cpus;

	one_cpu(&cpus, 0);
	memset(&cal, 0, sizeof(cal));
	cal.n = 1;
	cal.cpu[0] = 0;
	cal.rate[0] = 1e12;
	cal.when = (int64_t)time(NULL);
	assert_int_equal(soak_check_idle(&cpus, &cal, 100 * NSEC_PER_MSEC, 0, &r, err, sizeof(err)), 0);
	assert_false(r.trusted);
	assert_int_equal(r.n, 1);
	assert_true(r.tolerance == SOAK_IDLE_TOL);
	assert_non_null(strstr(r.reason, "CPU 0"));
	if (!strstr(r.reason, "was busy")) {
		assert_non_null(strstr(r.reason, "below its calibration of"));
		assert_non_null(strstr(r.reason, "recalibrate with wirerate soak --calibrate"));
		assert_true(r.off[0] < -0.99);
	}
	cal.rate[0] = 1;
	assert_int_equal(soak_check_idle(&cpus, &cal, 100 * NSEC_PER_MSEC, 0.05, &r, err, sizeof(err)), 0);
	assert_false(r.trusted);
	if (!strstr(r.reason, "was busy"))
		assert_non_null(strstr(r.reason, "above its calibration of"));
	/* a CPU the calibration lacks: refused, as the soak refuses it */
	cal.cpu[0] = 7777;
	assert_int_equal(soak_check_idle(&cpus, &cal, 0, 0, &r, err, sizeof(err)), -ENOENT);
}

static void probe_bad_sets(void **st)
{
	struct stallprobe *p = (void *)1;
	struct cpuset cpus;

	cpuset_zero(&cpus);
	assert_int_equal(stallprobe_create(&cpus, 0, 0, &p, err, sizeof(err)), -EINVAL);
	assert_null(p);
	one_cpu(&cpus, CPUSET_MAX - 1);
	assert_int_equal(stallprobe_create(&cpus, 0, 0, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not online"));
	stallprobe_destroy(NULL);
}

/* 300 ms at a 20 ms period: 15 wakeups. At least 5 when the host holds
 * the CPU for long stretches (a 22 ms stall was seen here), at most 16
 * (one boundary more). */
static void probe_window(void **st)
{
	struct stallprobe_result r;
	struct stallprobe *p;
	struct cpuset cpus;

	one_cpu(&cpus, 0);
	assert_int_equal(stallprobe_create(&cpus, 0, 0, &p, err, sizeof(err)), 0);
	stallprobe_read(p, &r);
	assert_false(r.valid);		/* not started: no window */
	assert_int_equal(stallprobe_start(p, err, sizeof(err)), 0);
	usleep(300000);
	stallprobe_stop(p);
	stallprobe_stop(p);		/* idempotent */
	stallprobe_read(p, &r);
	assert_true(r.valid);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.c[0].cpu, 0);
	assert_true(r.period_ns == STALLPROBE_PERIOD_NS && r.threshold_ns == STALLPROBE_THRESHOLD_NS);
	assert_in_range(r.c[0].wakeups, 5, 16);
	assert_true(r.c[0].stalls <= r.c[0].wakeups);
	assert_true(r.seconds > 0.29 && r.seconds < 5);
	assert_true(r.c[0].steal_pct == -1 || r.c[0].steal_pct >= 0);
	assert_true(r.fifo || strstr(r.note, "SCHED_FIFO refused"));
	stallprobe_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(idle_check_untrusted), cmocka_unit_test(probe_bad_sets),
		cmocka_unit_test(probe_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
