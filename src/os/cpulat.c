/* Cache-line transfer time between two CPUs: see cpulat.h. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/clock.h"
#include "os/cpulat.h"

/* The counter alone in its line; the control words in another, so that
 * reading them does not disturb the transfer being timed. */
struct pingpong {
	_Alignas(64) volatile uint64_t v;
	_Alignas(64) volatile int ready;
	volatile int stop;
	uint64_t deadline_ns;
	int cpu;
};

/* Spin until *p == want; 0, or -ETIMEDOUT past the deadline or when told
 * to stop. The clock is read every 4096 spins only. */
static int wait_for(volatile uint64_t *p, uint64_t want, const struct pingpong *pp)
{
	unsigned int n = 0;

	while (*p != want)
		if (!(++n & 4095) && (pp->stop || clock_mono_ns() > pp->deadline_ns))
			return -ETIMEDOUT;
	return 0;
}

static void *answer(void *arg)
{
	struct pingpong *pp = arg;
	uint64_t expect = 1;

	if (sched_getcpu() != pp->cpu) {
		pp->ready = -1;
		return NULL;
	}
	pp->ready = 1;
	while (!wait_for(&pp->v, expect, pp)) {
		pp->v = expect + 1;
		expect += 2;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int pin_self(int cpu, cpu_set_t *saved)
{
	cpu_set_t one;

	if (saved && pthread_getaffinity_np(pthread_self(), sizeof(*saved), saved))
		return -EINVAL;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) || sched_getcpu() != cpu) {
		if (saved)
			pthread_setaffinity_np(pthread_self(), sizeof(*saved), saved);
		return -EINVAL;
	}
	return 0;
}

int cpulat_measure(int a, int b, double *ns, char *err, size_t errlen)
{
	struct pingpong *pp = NULL;
	double batch[CPULAT_BATCHES];
	pthread_attr_t attr;
	cpu_set_t saved, one;
	pthread_t t;
	uint64_t x = 1;
	int rc;

	if (a < 0 || b < 0 || a >= CPU_SETSIZE || b >= CPU_SETSIZE || a == b) {
		snprintf(err, errlen, "a cache line's transfer needs two different CPUs (got %d and %d)", a, b);
		return -EINVAL;
	}
	if (pin_self(a, &saved)) {
		snprintf(err, errlen, "CPU %d is not available to wirerate (offline, or outside its affinity)", a);
		return -EINVAL;
	}
	if (posix_memalign((void **)&pp, 64, sizeof(*pp))) {
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(pp, 0, sizeof(*pp));
	pp->cpu = b;
	pp->deadline_ns = clock_mono_ns() + CPULAT_TIMEOUT_NS;
	CPU_ZERO(&one);
	CPU_SET(b, &one);
	pthread_attr_init(&attr);
	if ((rc = pthread_attr_setaffinity_np(&attr, sizeof(one), &one)) || (rc = pthread_create(&t, &attr, answer, pp))) {
		pthread_attr_destroy(&attr);
		pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
		free(pp);
		snprintf(err, errlen, "CPU %d is not available to wirerate: %s", b, strerror(rc));
		return rc == EINVAL ? -EINVAL : -rc;
	}
	pthread_attr_destroy(&attr);
	while (!pp->ready && clock_mono_ns() < pp->deadline_ns)
		sched_yield();

	rc = pp->ready == 1 ? 0 : pp->ready ? -EINVAL : -ETIMEDOUT;
	for (int k = 0; !rc && k < CPULAT_BATCHES; k++) {
		uint64_t t0 = clock_mono_ns();

		for (int i = 0; !rc && i < CPULAT_ROUNDS; i++, x += 2) {
			pp->v = x;
			rc = wait_for(&pp->v, x + 1, pp);
		}
		batch[k] = (double)(clock_mono_ns() - t0) / CPULAT_ROUNDS / 2;
	}
	pp->stop = 1;
	pthread_join(t, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	free(pp);
	if (rc == -EINVAL) {
		snprintf(err, errlen, "CPU %d is not available to wirerate (offline, or outside its affinity)", b);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "CPU %d did not answer CPU %d within %llu ms (busy with a real-time thread?)", b, a,
			 CPULAT_TIMEOUT_NS / NSEC_PER_MSEC);
		return rc;
	}
	qsort(batch, CPULAT_BATCHES, sizeof(batch[0]), cmp_double);
	*ns = batch[CPULAT_BATCHES / 2];
	return 0;
}

int cpulat_moved(double ns_then, double ns_now)
{
	return ns_then > 0 && ns_now > 0 && (ns_now >= 2 * ns_then || ns_then >= 2 * ns_now);
}

int cpulat_from_first(struct cpulat_pair *out, int max)
{
	cpu_set_t s;
	int first = -1, n = 0;

	if (sched_getaffinity(0, sizeof(s), &s))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++) {
		if (!CPU_ISSET(c, &s))
			continue;
		if (first < 0) {
			first = c;
			continue;
		}
		out[n] = (struct cpulat_pair){ .a = first, .b = c };
		if (cpulat_measure(first, c, &out[n].ns, out[n].err, sizeof(out[n].err)))
			out[n].ns = 0;
		n++;
	}
	return n;
}

void cpulat_pair_name(int a, int b, char *buf, size_t len)
{
	snprintf(buf, len, "%d-%d", a, b);
}

void cpulat_format(const struct cpulat_pair *p, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		if (p[i].ns > 0)
			off += (size_t)snprintf(buf + off, len - off, "%s%d-%d:%.1f", off ? " " : "", p[i].a, p[i].b,
						p[i].ns);
}

/* The figure for pair a-b in a text of cpulat_format, or 0. */
static double text_find(const char *t, int a, int b)
{
	int x, y, used;
	double ns;

	while (t && sscanf(t, " %d-%d:%lf%n", &x, &y, &ns, &used) == 3) {
		if (x == a && y == b)
			return ns;
		t += used;
	}
	return 0;
}

int cpulat_text_moved(const char *then, const char *now, const char *then_name, char *note, size_t len)
{
	int a, b, used;
	double ns;

	for (const char *t = then; t && sscanf(t, " %d-%d:%lf%n", &a, &b, &ns, &used) == 3; t += used) {
		double n2 = text_find(now, a, b);

		if (cpulat_moved(ns, n2)) {
			snprintf(note, len, "CPUs %d and %d %.0f ns a cache line apart (%.0f %s)", a, b, n2, ns, then_name);
			return 1;
		}
	}
	return 0;
}
