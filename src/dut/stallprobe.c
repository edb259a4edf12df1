#include "dut/stallprobe.h"
#include "os/clock.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "core/cpustat.h"
#include "os/procstat.h"

struct prober {
	_Atomic uint64_t wakeups, max_late, stalls;
	_Atomic bool stop, ready;
	unsigned int cpu;
	int err;			/* SCHED_FIFO refused: its errno */
	uint64_t period, threshold;
	pthread_t tid;
	bool running;
} __attribute__((aligned(64)));

struct stallprobe {
	unsigned int n;
	struct prober *w;
	uint64_t period, threshold;
	uint64_t t0, t1;		/* the window, CLOCK_MONOTONIC */
	struct cpustat *sa, *sb;	/* /proc/stat at its ends */
	bool sa_ok, sb_ok, started, stopped;
};

/* No sanitizer in the loop: it is timing code on a CPU it must not load. */
static void *prober_main(void *arg)
{
	struct prober *w = arg;
	struct sched_param sp = { .sched_priority = STALLPROBE_PRIO };
	uint64_t next;

	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		w->err = errno;
		/* a normal thread's default 50 us of timer slack would read
		 * as lateness */
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	}
	atomic_store(&w->ready, true);
	next = clock_mono_ns() + w->period;
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		struct timespec ts = { (time_t)(next / NSEC_PER_SEC), (long)(next % NSEC_PER_SEC) };
		uint64_t now, late;

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;	/* a signal: sleep again to the same time */
		now = clock_mono_ns();
		late = now > next ? now - next : 0;
		atomic_store_explicit(&w->wakeups, atomic_load_explicit(&w->wakeups, memory_order_relaxed) + 1,
				      memory_order_relaxed);
		if (late > atomic_load_explicit(&w->max_late, memory_order_relaxed))
			atomic_store_explicit(&w->max_late, late, memory_order_relaxed);
		if (late > w->threshold)
			atomic_store_explicit(&w->stalls, atomic_load_explicit(&w->stalls, memory_order_relaxed) + 1,
					      memory_order_relaxed);
		/* The next period boundary after now: one stall of ten
		 * periods is one stall, not ten late wakeups. */
		next += w->period;
		if (next <= now)
			next += ((now - next) / w->period + 1) * w->period;
	}
	return NULL;
}

int stallprobe_create(const struct cpuset *cpus, uint64_t period_ns, uint64_t threshold_ns,
		      struct stallprobe **out, char *err, size_t errlen)
{
	struct cpuset online;
	struct stallprobe *p;
	int c, rc;

	*out = NULL;
	if (!cpuset_count(cpus) || cpuset_count(cpus) > STALLPROBE_MAX_CPUS) {
		snprintf(err, errlen, "stall probe: 1 to %d CPUs, not %u", STALLPROBE_MAX_CPUS, cpuset_count(cpus));
		return -EINVAL;
	}
	if ((rc = procstat_online(NULL, &online, err, errlen)))
		return rc;
	for (c = cpuset_next(cpus, 0); c >= 0; c = cpuset_next(cpus, (unsigned int)c + 1))
		if (!cpuset_has(&online, (unsigned int)c)) {
			snprintf(err, errlen, "stall probe: CPU %d is not online", c);
			return -EINVAL;
		}
	p = calloc(1, sizeof(*p));
	if (!p)
		goto nomem;
	p->n = cpuset_count(cpus);
	p->period = period_ns ? period_ns : STALLPROBE_PERIOD_NS;
	p->threshold = threshold_ns ? threshold_ns : STALLPROBE_THRESHOLD_NS;
	p->w = aligned_alloc(64, sizeof(struct prober) * p->n);
	p->sa = malloc(sizeof(*p->sa));
	p->sb = malloc(sizeof(*p->sb));
	if (!p->w || !p->sa || !p->sb)
		goto nomem;
	memset(p->w, 0, sizeof(struct prober) * p->n);
	for (unsigned int i = 0; i < p->n; i++) {
		p->w[i].cpu = (unsigned int)cpuset_nth(cpus, i);
		p->w[i].period = p->period;
		p->w[i].threshold = p->threshold;
	}
	*out = p;
	return 0;
nomem:
	stallprobe_destroy(p);
	snprintf(err, errlen, "stall probe: out of memory");
	return -ENOMEM;
}

/* /proc/stat now into s; false when it cannot be read. */
static bool read_stat(struct cpustat *s)
{
	char e[128];
	char *text = NULL;
	bool ok;

	if (procstat_slurp(NULL, "/proc/stat", &text, e, sizeof(e)) < 0)
		return false;
	ok = cpustat_parse_stat(text, s, e, sizeof(e)) == 0;
	free(text);
	return ok;
}

int stallprobe_start(struct stallprobe *p, char *err, size_t errlen)
{
	p->sa_ok = read_stat(p->sa);
	p->t0 = clock_mono_ns();
	for (unsigned int i = 0; i < p->n; i++) {
		struct prober *w = &p->w[i];
		pthread_attr_t attr;
		cpu_set_t set;
		int rc;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		/* small: the loop needs next to nothing */
		pthread_attr_setstacksize(&attr, 64 * 1024);
		rc = pthread_create(&w->tid, &attr, prober_main, w);
		pthread_attr_destroy(&attr);
		if (rc) {
			stallprobe_stop(p);
			snprintf(err, errlen, "stall probe: cannot start a thread on CPU %u: %s", w->cpu, strerror(rc));
			return -rc;
		}
		w->running = true;
	}
	for (unsigned int i = 0; i < p->n; i++)
		for (int t = 0; t < 2000 && !atomic_load(&p->w[i].ready); t++)
			nanosleep(&(struct timespec){ 0, (long)NSEC_PER_MSEC }, NULL);
	p->started = true;
	return 0;
}

void stallprobe_stop(struct stallprobe *p)
{
	bool any = false;

	if (!p || !p->w)
		return;
	for (unsigned int i = 0; i < p->n; i++) {
		any |= p->w[i].running;
		atomic_store(&p->w[i].stop, true);
	}
	if (!any)
		return;
	p->t1 = clock_mono_ns();
	p->sb_ok = read_stat(p->sb);
	p->stopped = true;
	for (unsigned int i = 0; i < p->n; i++)
		if (p->w[i].running) {
			pthread_join(p->w[i].tid, NULL);
			p->w[i].running = false;
		}
}

void stallprobe_read(const struct stallprobe *p, struct stallprobe_result *o)
{
	uint64_t t1 = p->stopped ? p->t1 : clock_mono_ns();
	long hz = sysconf(_SC_CLK_TCK);
	struct cpustat *now = NULL;
	const struct cpustat *b = p->sb;
	bool b_ok = p->sb_ok;

	memset(o, 0, sizeof(*o));
	if (!p->started)
		return;
	if (!p->stopped) {
		now = malloc(sizeof(*now));
		b_ok = now && read_stat(now);
		b = now;
	}
	o->valid = true;
	o->fifo = true;
	o->seconds = t1 > p->t0 ? (double)(t1 - p->t0) / NSEC_PER_SEC : 0;
	o->period_ns = p->period;
	o->threshold_ns = p->threshold;
	o->n = p->n;
	for (unsigned int i = 0; i < p->n; i++) {
		const struct prober *w = &p->w[i];
		struct stallprobe_cpu *c = &o->c[i];
		unsigned int cpu = w->cpu;

		c->cpu = cpu;
		c->wakeups = atomic_load(&w->wakeups);
		c->max_late_ns = atomic_load(&w->max_late);
		c->stalls = atomic_load(&w->stalls);
		c->steal_pct = -1;
		/* the column is there from 2.6.11 on; a host that does not
		 * account steal leaves it at 0 */
		if (p->sa_ok && b_ok && cpu < CPUSTAT_MAX && p->sa->cpu[cpu].present && b->cpu[cpu].present &&
		    b->cpu[cpu].ncols > CS_STEAL && o->seconds > 0 && hz > 0)
			c->steal_pct = (double)cpustat_delta(p->sa->cpu[cpu].v[CS_STEAL], b->cpu[cpu].v[CS_STEAL], NULL) *
				       100.0 / ((double)hz * o->seconds);
		if (c->max_late_ns > o->c[o->worst].max_late_ns)
			o->worst = i;
		if (w->err && o->fifo) {
			o->fifo = false;
			snprintf(o->note, sizeof(o->note), "SCHED_FIFO refused (%s): the probes ran at normal "
				 "priority, so their stalls include other tasks' turns", strerror(w->err));
		}
	}
	free(now);
}

void stallprobe_destroy(struct stallprobe *p)
{
	if (!p)
		return;
	stallprobe_stop(p);
	free(p->w);
	free(p->sa);
	free(p->sb);
	free(p);
}
