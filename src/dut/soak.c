#include "dut/soak.h"
#include "os/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/stat.h"
#include "os/fs.h"
#include "os/procstat.h"
#include "os/timefmt.h"

/* Cache lines walked per loop, and multiply-adds per line: enough
 * arithmetic that the walk is not bound by memory bandwidth (two soakers
 * then run at the rate of one, within 1% on a 2-CPU EPYC VM), while still
 * sweeping the last-level cache so the network stack's cache misses and
 * memory traffic show up as a slower soaker. */
#define SOAK_LINES 64
#define SOAK_MIX 4
#define LINE_WORDS 8

struct soaker {
	_Atomic uint64_t loops;
	_Atomic bool stop;
	unsigned int cpu;
	int err;			/* set by the thread before it loops */
	_Atomic bool ready;		/* the thread is set up (err is valid) */
	const uint64_t *buf;
	size_t nwords;
	size_t first;			/* where this soaker starts in buf */
	pthread_t tid;
	clockid_t clk;			/* the thread's CPU-time clock */
	bool have_clk;
	bool running;
} __attribute__((aligned(64)));

struct soak {
	unsigned int n;
	struct soaker *w;		/* n soakers, cache-line aligned */
	const uint64_t *buf;		/* walk_buf, shared */
	size_t nwords;
	double calib[SOAK_MAX_CPUS];	/* loops/s per soaker, 0 in calibration mode */
	struct soak_snap start;
	bool started;
};

/* The last-level cache's size, from sysconf or sysfs; 32 MiB if unknown. */
static size_t llc_bytes(void)
{
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	char buf[64];

	if (l3 > 0)
		return (size_t)l3;
	for (int i = 3; i >= 2; i--) {
		char p[96];
		unsigned long v;
		char unit = 0;

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (fs_read(NULL, p, buf, sizeof(buf)) > 0 && sscanf(buf, "%lu%c", &v, &unit) >= 1)
			return unit == 'M' ? v << 20 : unit == 'K' ? v << 10 : v;
	}
	return l2 > 0 ? (size_t)l2 : 32u << 20;
}

/* The buffer the soakers walk: twice the last-level cache, so each walk
 * misses it, within 8-128 MiB. 128 MiB is above any one core complex's
 * L3 (96 MiB on the largest EPYC); sysconf may report a whole package's
 * (508 MiB in one VM), and touching that much took over a second each
 * time a soak started. Made and touched once per process and shared:
 * soakers only read it. With the stop flag, this is one of the few
 * mutable globals: a soak of its own would touch up to 128 MiB again
 * at every start (the agent makes one per trial, and one more for
 * soak_check_idle). */
static pthread_once_t walk_once = PTHREAD_ONCE_INIT;
static uint64_t *walk_buf;
static size_t walk_nwords;

static void walk_make(void)
{
	size_t bytes = 2 * llc_bytes();
	uint64_t *b;

	if (bytes < (8u << 20))
		bytes = 8u << 20;
	if (bytes > (128u << 20))
		bytes = 128u << 20;
	b = malloc(bytes);
	if (!b)
		return;
	/* Touch every page now, not in the first readings. */
	for (size_t i = 0; i < bytes / sizeof(uint64_t); i++)
		b[i] = i * 0x9e3779b97f4a7c15ULL;
	walk_nwords = bytes / sizeof(uint64_t);
	walk_buf = b;
}

/* The loop is the instrument: sanitizer checks in it would change its rate
 * between a sanitized build and a release one. */
__attribute__((no_sanitize_address, no_sanitize("undefined")))
static void *soaker_main(void *arg)
{
	struct soaker *w = arg;
	struct sched_param sp = { 0 };
	const uint64_t *buf = w->buf;
	size_t pos = w->first, nwords = w->nwords;
	uint64_t acc = w->cpu + 1, n = 0;

	/* Lowest priority there is: below nice 19, so it yields to anything. */
	if (sched_setscheduler(0, SCHED_IDLE, &sp))
		w->err = errno;
	atomic_store(&w->ready, true);
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		for (int l = 0; l < SOAK_LINES; l++) {
			uint64_t x = buf[pos];

			pos += LINE_WORDS;
			if (pos >= nwords)
				pos = 0;
			for (int k = 0; k < SOAK_MIX; k++)
				acc = acc * 6364136223846793005ULL + x;
		}
		/* Keep the arithmetic: the compiler may not drop it. */
		__asm__ volatile("" : : "r"(acc));
		atomic_store_explicit(&w->loops, ++n, memory_order_relaxed);
	}
	return NULL;
}

int soak_create(const struct cpuset *cpus, const struct soak_calib *calib, struct soak **out,
		char *err, size_t errlen)
{
	struct cpuset online;
	struct soak *s;
	int c, rc;

	*out = NULL;
	if (!cpuset_count(cpus)) {
		snprintf(err, errlen, "soak: no CPUs to soak");
		return -EINVAL;
	}
	if (cpuset_count(cpus) > SOAK_MAX_CPUS) {
		snprintf(err, errlen, "soak: at most %d CPUs", SOAK_MAX_CPUS);
		return -EINVAL;
	}
	if ((rc = procstat_online(NULL, &online, err, errlen)))
		return rc;
	for (c = cpuset_next(cpus, 0); c >= 0; c = cpuset_next(cpus, (unsigned int)c + 1)) {
		if (!cpuset_has(&online, (unsigned int)c)) {
			char list[256];

			cpuset_format_list(&online, list, sizeof(list));
			snprintf(err, errlen, "CPU %d is not online (online: %s)", c, list);
			return -EINVAL;
		}
		if (calib && soak_calib_rate(calib, (unsigned int)c) <= 0) {
			snprintf(err, errlen, "CPU %d is not in the soak calibration: calibrate it "
				 "with 'wirerate soak --calibrate --cpus ...'", c);
			return -ENOENT;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->w = aligned_alloc(64, sizeof(struct soaker) * cpuset_count(cpus));
	if (s->w)
		memset(s->w, 0, sizeof(struct soaker) * cpuset_count(cpus));
	s->n = cpuset_count(cpus);
	pthread_once(&walk_once, walk_make);
	s->buf = walk_buf;
	s->nwords = walk_nwords;
	if (!s->w || !s->buf)
		goto nomem;
	for (unsigned int i = 0; i < s->n; i++) {
		struct soaker *w = &s->w[i];

		w->cpu = (unsigned int)cpuset_nth(cpus, i);
		w->buf = s->buf;
		w->nwords = s->nwords;
		/* Spread the starting points so soakers do not walk in step. */
		w->first = (s->nwords / s->n * i) / LINE_WORDS * LINE_WORDS;
		s->calib[i] = calib ? soak_calib_rate(calib, w->cpu) : 0;
	}
	*out = s;
	return 0;
nomem:
	soak_destroy(s);
	snprintf(err, errlen, "soak: out of memory");
	return -ENOMEM;
}

int soak_start(struct soak *s, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < s->n; i++) {
		struct soaker *w = &s->w[i];
		pthread_attr_t attr;
		cpu_set_t set;
		int rc;

		atomic_store(&w->loops, 0);
		atomic_store(&w->stop, false);
		atomic_store(&w->ready, false);
		w->err = 0;
		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		pthread_attr_init(&attr);
		/* Pinned from birth: it never runs a loop on the wrong CPU. */
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		rc = pthread_create(&w->tid, &attr, soaker_main, w);
		pthread_attr_destroy(&attr);
		if (rc) {
			soak_stop(s);
			snprintf(err, errlen, "soak: cannot start a soaker on CPU %u: %s", w->cpu, strerror(rc));
			return -rc;
		}
		w->running = true;
		w->have_clk = !pthread_getcpuclockid(w->tid, &w->clk);
	}
	/* Wait until each soaker is SCHED_IDLE: a soaker that could not drop
	 * its priority would take the CPU from what it is meant to measure. */
	for (unsigned int i = 0; i < s->n; i++) {
		struct soaker *w = &s->w[i];

		for (int t = 0; t < 2000 && !atomic_load(&w->ready); t++)
			nanosleep(&(struct timespec){ 0, (long)NSEC_PER_MSEC }, NULL);
		if (!atomic_load(&w->ready) || w->err) {
			soak_stop(s);
			snprintf(err, errlen, "soak: the soaker on CPU %u %s", w->cpu,
				 w->err ? "cannot be made SCHED_IDLE" : "did not start in 2 s");
			return w->err ? -w->err : -ETIMEDOUT;
		}
	}
	s->started = true;
	soak_snap(s, &s->start);
	return 0;
}

unsigned int soak_ncpus(const struct soak *s)
{
	return s->n;
}

unsigned int soak_cpu(const struct soak *s, unsigned int i)
{
	return i < s->n ? s->w[i].cpu : 0;
}

void soak_snap(const struct soak *s, struct soak_snap *snap)
{
	snap->n = s->n;
	for (unsigned int i = 0; i < s->n; i++) {
		struct timespec ts;

		snap->loops[i] = atomic_load_explicit(&s->w[i].loops, memory_order_relaxed);
		snap->cpu_ns[i] = s->w[i].have_clk && !clock_gettime(s->w[i].clk, &ts)
				  ? (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec : 0;
	}
	snap->t_ns = clock_mono_ns();
}

void soak_load_between(const struct soak *s, const struct soak_snap *a, const struct soak_snap *b,
		       struct soak_calib_busy *out)
{
	double sec = b->t_ns > a->t_ns ? (double)(b->t_ns - a->t_ns) / NSEC_PER_SEC : 0, sum = 0;

	memset(out, 0, sizeof(*out));
	out->seconds = sec;
	out->n = s->n;
	for (unsigned int i = 0; i < s->n; i++) {
		double loops = (double)cpustat_delta(a->loops[i], b->loops[i], NULL);

		double ran = b->cpu_ns[i] > a->cpu_ns[i] ? (double)(b->cpu_ns[i] - a->cpu_ns[i]) / NSEC_PER_SEC : 0;

		out->cpu[i] = s->w[i].cpu;
		out->rate[i] = sec > 0 ? loops / sec : 0;
		out->share[i] = sec > 0 ? ran / sec : 0;
		out->run_rate[i] = ran > 0 ? loops / ran : out->rate[i];
		if (s->calib[i] > 0) {
			out->load[i] = soak_calib_busy(loops, sec, s->calib[i], &out->clamped);
			out->raw[i] = sec > 0 ? 1 - out->rate[i] / s->calib[i] : 0;
		}
		sum += out->load[i];
	}
	out->all = s->n ? sum / s->n : 0;
}

void soak_read(const struct soak *s, struct soak_calib_busy *out)
{
	struct soak_snap now;

	soak_snap(s, &now);
	soak_load_between(s, &s->start, &now, out);
}

void soak_stop(struct soak *s)
{
	if (!s)
		return;
	for (unsigned int i = 0; i < s->n; i++)
		atomic_store(&s->w[i].stop, true);
	for (unsigned int i = 0; i < s->n; i++)
		if (s->w[i].running) {
			pthread_join(s->w[i].tid, NULL);
			s->w[i].running = false;
		}
}

void soak_destroy(struct soak *s)
{
	if (!s)
		return;
	if (s->w)
		soak_stop(s);
	free(s->w);
	free(s);
}

/* --- calibration --- */

static int host_identity(struct soak_calib *c, char *err, size_t errlen)
{
	int rc;

	if ((rc = procstat_kernel(NULL, c->kernel, sizeof(c->kernel), err, errlen)) ||
	    (rc = procstat_cpu_model(NULL, c->cpu_model, sizeof(c->cpu_model), err, errlen)))
		return rc;
	snprintf(c->work, sizeof(c->work), "%s", SOAK_WORK);
	return 0;
}

static void sleep_until(uint64_t t_ns, const volatile sig_atomic_t *stop)
{
	/* In slices, so that a stop request is seen within 50 ms. */
	for (uint64_t now = clock_mono_ns(); now < t_ns && !(stop && *stop); now = clock_mono_ns()) {
		uint64_t d = t_ns - now < 50 * NSEC_PER_MSEC ? t_ns - now : 50 * NSEC_PER_MSEC;
		struct timespec ts = { (time_t)(d / NSEC_PER_SEC), (long)(d % NSEC_PER_SEC) };

		nanosleep(&ts, NULL);
	}
}

int soak_calibrate(const struct cpuset *cpus, const struct soak_calib_opts *o,
		   const volatile sig_atomic_t *stop, soak_progress_fn fn, void *ctx,
		   struct soak_calib *c, char *err, size_t errlen)
{
	unsigned int settle = o->settle ? o->settle : 5, reading = 0;
	uint64_t interval = o->interval_ns ? o->interval_ns : NSEC_PER_SEC;
	uint64_t timeout = o->timeout_ns ? o->timeout_ns : 60 * NSEC_PER_SEC, t0, next;
	double tol = o->tolerance > 0 ? o->tolerance : 0.01, worst = 0;
	struct soak_snap *a = NULL, *b = NULL;
	struct soak_calib_busy *l = NULL;
	double *hist = NULL;		/* settle readings per CPU, a ring */
	struct soak *s = NULL;
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = host_identity(c, err, errlen)))
		return rc;
	if ((rc = soak_create(cpus, NULL, &s, err, errlen)))
		return rc;
	a = malloc(sizeof(*a));
	b = malloc(sizeof(*b));
	l = malloc(sizeof(*l));
	hist = calloc((size_t)settle * s->n, sizeof(double));
	if (!a || !b || !l || !hist) {
		snprintf(err, errlen, "soak: out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = soak_start(s, err, errlen)))
		goto out;
	/* The first reading warms caches and the CPU's clock: not counted. */
	t0 = clock_mono_ns();
	sleep_until(t0 + interval / 2, stop);
	soak_snap(s, a);
	next = a->t_ns;
	for (;;) {
		bool stable;

		next += interval;
		sleep_until(next, stop);
		if (stop && *stop) {
			snprintf(err, errlen, "soak calibration interrupted");
			rc = -EINTR;
			goto out;
		}
		soak_snap(s, b);
		soak_load_between(s, a, b, l);
		*a = *b;
		for (unsigned int i = 0; i < s->n; i++)
			hist[(size_t)i * settle + reading % settle] = l->run_rate[i];
		reading++;
		stable = reading >= settle;
		worst = 0;
		for (unsigned int i = 0; i < s->n; i++) {
			unsigned int k = reading < settle ? reading : settle;
			double mean, min, max;

			stat_summary(&hist[(size_t)i * settle], k, &mean, &min, &max);
			c->cpu[i] = s->w[i].cpu;
			c->rate[i] = mean;
			c->spread[i] = mean > 0 ? (max - min) / mean : 1;
			if (c->spread[i] > worst)
				worst = c->spread[i];
			if (c->spread[i] > tol)
				stable = false;
		}
		if (fn)
			fn(ctx, reading, l, worst);
		if (stable)
			break;
		if (b->t_ns - t0 >= timeout) {
			snprintf(err, errlen, "soak calibration did not settle in %.0f s: the last %u "
				 "readings of a CPU differ by %.2g%% (want %.2g%%); is the machine idle?",
				 (double)timeout / NSEC_PER_SEC, settle, 100 * worst, 100 * tol);
			rc = -ETIMEDOUT;
			goto out;
		}
	}
	c->n = s->n;
	c->when = (int64_t)time(NULL);
	rc = 0;
out:
	soak_destroy(s);
	free(a);
	free(b);
	free(l);
	free(hist);
	return rc;
}

void soak_calibration_default_path(char *buf, size_t len)
{
	fs_state_path("soak-calibration", buf, len);
}

int soak_calibration_load(const char *path, struct soak_calib *c, char *err, size_t errlen)
{
	char buf[65536], e2[200];
	long n = fs_read(NULL, path, buf, sizeof(buf));
	int rc;

	if (n == -ENOENT) {
		snprintf(err, errlen, "no soak calibration at %s: run 'wirerate soak --calibrate' "
			 "on an idle machine first", path);
		return -ENOENT;
	}
	if (n < 0) {
		snprintf(err, errlen, "cannot read soak calibration %s: %s", path, strerror((int)-n));
		return (int)n;
	}
	if ((size_t)n + 1 >= sizeof(buf)) {
		snprintf(err, errlen, "%s: corrupt soak calibration (too large)", path);
		return -EINVAL;
	}
	if ((rc = soak_calib_parse(buf, c, e2, sizeof(e2))))
		snprintf(err, errlen, "%s: %s", path, e2);
	return rc;
}

int soak_calibration_save(const char *path, const struct soak_calib *c, char *err, size_t errlen)
{
	char text[65536];
	struct fs_out o;
	int len, rc = 0;

	len = soak_calib_format(c, text, sizeof(text));
	if (len < 0) {
		snprintf(err, errlen, "soak calibration too large");
		return len;
	}
	if ((rc = fs_mkdir_parents(path))) {
		snprintf(err, errlen, "cannot make the directory of %s: %s", path, strerror(-rc));
		return rc;
	}
	if ((rc = fs_out_open(&o, path))) {
		snprintf(err, errlen, "cannot write next to %s: %s", path, strerror(-rc));
		return rc;
	}
	fwrite(text, 1, (size_t)len, o.f);
	if ((rc = fs_out_close(&o, true)))
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}

int soak_calibration_verify(const struct soak_calib *c, char *err, size_t errlen)
{
	struct soak_calib here;
	int rc;

	if ((rc = host_identity(&here, err, errlen)))
		return rc;
	return soak_calib_check(c, here.kernel, here.cpu_model, here.work, err, errlen);
}

/* Readings the check takes the median of. */
#define IDLE_SLICES 5

/* Soakers on cpus, started and warm, and the first snapshot into a: the
 * first 50 ms fill the caches with the soaker's buffer and let the CPU's
 * clock come up, as the calibration's first half-reading does, and are
 * not counted. Both checks start this way. */
static int soak_start_warm(const struct cpuset *cpus, const struct soak_calib *calib, struct soak **s,
			   struct soak_snap *a, char *err, size_t errlen)
{
	int rc;

	if ((rc = soak_create(cpus, calib, s, err, errlen)) || (rc = soak_start(*s, err, errlen)))
		return rc;
	sleep_until(clock_mono_ns() + 50 * NSEC_PER_MSEC, NULL);
	soak_snap(*s, a);
	return 0;
}

int soak_check_idle(const struct cpuset *cpus, const struct soak_calib *calib, uint64_t duration_ns,
		    double tol, struct soak_idle *out, char *err, size_t errlen)
{
	struct soak_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct soak_calib_busy *l = malloc(sizeof(*l));
	double *v = calloc((size_t)IDLE_SLICES * SOAK_MAX_CPUS, sizeof(double));
	unsigned int used[SOAK_MAX_CPUS] = { 0 }, busy = SOAK_MAX_CPUS;
	struct soak *s = NULL;
	double worst = -1;
	int rc;

	memset(out, 0, sizeof(*out));
	out->tolerance = tol > 0 ? tol : SOAK_IDLE_TOL;
	out->duration_ns = duration_ns ? duration_ns : SOAK_IDLE_NS;
	out->calib_when = calib->when;
	if (!a || !b || !l || !v) {
		snprintf(err, errlen, "soak: out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = soak_start_warm(cpus, calib, &s, a, err, errlen)))
		goto out;
	/* The median of slices, not one mean: a burst of another task's
	 * cache traffic slows one slice, a changed host slows them all. */
	for (unsigned int k = 0; k < IDLE_SLICES; k++) {
		sleep_until(a->t_ns + out->duration_ns / IDLE_SLICES, NULL);
		soak_snap(s, b);
		soak_load_between(s, a, b, l);
		/* A slice the soaker got under a fifth of says little of
		 * its speed (a few ms of loops, cold caches): left out. */
		for (unsigned int i = 0; i < l->n; i++)
			if (l->share[i] >= 0.2)
				v[(size_t)i * IDLE_SLICES + used[i]++] = l->run_rate[i];
		*a = *b;
	}
	soak_stop(s);
	out->n = s->n;
	for (unsigned int i = 0; i < s->n; i++) {
		double d;

		out->cpu[i] = s->w[i].cpu;
		if (!used[i]) {
			busy = i;
			out->off[i] = -1;
			continue;
		}
		out->run_rate[i] = stat_median(&v[(size_t)i * IDLE_SLICES], used[i], NULL, NULL);
		out->calib[i] = s->calib[i];
		out->off[i] = s->calib[i] > 0 ? out->run_rate[i] / s->calib[i] - 1 : -1;
		d = out->off[i] < 0 ? -out->off[i] : out->off[i];
		if (d > worst) {
			worst = d;
			out->worst = i;
		}
	}
	out->trusted = out->n && worst <= out->tolerance && busy == SOAK_MAX_CPUS;
	if (busy < SOAK_MAX_CPUS) {
		out->worst = busy;
		snprintf(out->reason, sizeof(out->reason),
			 "CPU %u was busy with something else during the idle check (the soaker got under a "
			 "fifth of it): its calibration could not be checked", out->cpu[busy]);
	} else if (!out->trusted) {
		char when[64];

		timefmt_local(when, sizeof(when), calib->when, "%Y-%m-%d %H:%M");
		snprintf(out->reason, sizeof(out->reason),
			 "idle speed of CPU %u is %.0f%% %s its calibration of %s (more than %.0f%% off): "
			 "recalibrate with wirerate soak --calibrate", out->cpu[out->worst],
			 100 * (worst < 0 ? 0 : worst), out->off[out->worst] < 0 ? "below" : "above", when,
			 100 * out->tolerance);
	}
	rc = 0;
out:
	soak_destroy(s);
	free(a);
	free(b);
	free(l);
	free(v);
	return rc;
}

/* Steal ticks of cpus in /proc/stat now; -1 when it cannot be read. */
static int64_t steal_now(const struct cpuset *cpus)
{
	struct cpustat *st = malloc(sizeof(*st));
	char *text = NULL, e[128];
	int64_t sum = -1;

	if (st && procstat_slurp(NULL, "/proc/stat", &text, e, sizeof(e)) == 0 &&
	    cpustat_parse_stat(text, st, e, sizeof(e)) == 0) {
		sum = 0;
		for (int c = cpuset_next(cpus, 0); c >= 0 && c < CPUSTAT_MAX; c = cpuset_next(cpus, (unsigned int)c + 1))
			sum += (int64_t)st->cpu[c].v[CS_STEAL];
	}
	free(text);
	free(st);
	return sum;
}

int soak_steady_check(const struct cpuset *cpus, uint64_t reading_ns, struct soak_steady *out,
		      char *err, size_t errlen)
{
	struct soak_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct soak_calib_busy *l1 = malloc(sizeof(*l1)), *l2 = malloc(sizeof(*l2));
	struct soak *s = NULL;
	int64_t steal0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!a || !b || !l1 || !l2) {
		snprintf(err, errlen, "soak: out of memory");
		rc = -ENOMEM;
		goto out;
	}
	steal0 = steal_now(cpus);
	if ((rc = soak_start_warm(cpus, NULL, &s, a, err, errlen)))
		goto out;
	sleep_until(a->t_ns + reading_ns, NULL);
	soak_snap(s, b);
	soak_load_between(s, a, b, l1);
	sleep_until(b->t_ns + reading_ns, NULL);
	soak_snap(s, a);
	soak_load_between(s, b, a, l2);
	soak_stop(s);
	out->steal_ticks = steal0 >= 0 ? steal_now(cpus) : -1;
	if (out->steal_ticks >= 0)
		out->steal_ticks = out->steal_ticks >= steal0 ? out->steal_ticks - steal0 : 0;
	out->seconds = l1->seconds + l2->seconds;
	for (unsigned int i = 0; i < s->n; i++) {
		double x = l1->run_rate[i], y = l2->run_rate[i], d = x > y ? x - y : y - x;
		double spread = x + y > 0 ? 2 * d / (x + y) : 1;

		if (spread >= out->spread) {
			out->spread = spread;
			out->cpu = s->w[i].cpu;
		}
	}
	rc = 0;
out:
	soak_destroy(s);
	free(a);
	free(b);
	free(l1);
	free(l2);
	return rc;
}
