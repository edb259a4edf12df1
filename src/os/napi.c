/* Threaded NAPI and its kernel threads; see napi.h. */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/fs.h"
#include "os/kthread.h"
#include "os/napi.h"

#define MAX_NAPI 64

/* PIDs of the kernel threads named "napi/<ifname>-<id>": only kernel
 * threads, since any process may take that name and would get
 * SCHED_FIFO from us. */
static unsigned int napi_threads(const char *ifname, pid_t *pids, unsigned int max)
{
	char want[32];

	snprintf(want, sizeof(want), "napi/%s-", ifname);
	return kthread_find(NULL, want, pids, max);
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int napi_pin(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	pid_t before[MAX_NAPI], after[MAX_NAPI];
	unsigned int nb, na, pinned = 0;
	char path[128];
	cpu_set_t set;
	int rc;

	/* Threaded NAPI: the kernel makes a thread per NAPI instance when
	 * the switch goes on. Threads already there may belong to another
	 * lab's port of the same name, so turn it off and on and pin only the
	 * threads that appeared. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/threaded", ifname);
	fs_write(NULL, path, "0");
	nb = napi_threads(ifname, before, MAX_NAPI);
	if ((rc = fs_write(NULL, path, "1"))) {
		snprintf(err, errlen, "cannot turn on threaded NAPI on %s: %s", ifname, strerror(-rc));
		return rc;
	}
	if (!cpuset_count(cpus))
		return 0;	/* placement free: the scheduler decides */
	/* The threads start asynchronously: look for a while (bounded). */
	for (int tries = 0; tries < 50 && !pinned; tries++) {
		pid_t fresh[MAX_NAPI];
		unsigned int nf = 0, ncpu = cpuset_count(cpus);

		na = napi_threads(ifname, after, MAX_NAPI);
		for (unsigned int i = 0; i < na; i++) {
			bool old = false;

			for (unsigned int k = 0; k < nb; k++)
				old |= after[i] == before[k];
			if (!old)
				fresh[nf++] = after[i];
		}
		/* One thread per receive queue, made in queue order: with several
		 * queues and CPUs, queue i goes to the i-th CPU (round robin),
		 * as a NIC's queues have an interrupt each on a CPU of its own. */
		qsort(fresh, nf, sizeof(fresh[0]), pid_cmp);
		for (unsigned int i = 0; i < nf; i++) {
			/* A NIC's NAPI runs in softirq, ahead of any task; a
			 * threaded NAPI at normal priority would wait behind
			 * whatever else runs on the DUT's CPU and drop. */
			struct sched_param sp = { .sched_priority = 50 };

			CPU_ZERO(&set);
			if (nf > 1 && ncpu > 1)
				CPU_SET(cpuset_nth(cpus, i % ncpu), &set);
			else
				for (int c = cpuset_nth(cpus, 0); c >= 0; c = cpuset_next(cpus, (unsigned int)c + 1))
					CPU_SET(c, &set);
			if (sched_setaffinity(fresh[i], sizeof(set), &set))
				continue;
			sched_setscheduler(fresh[i], SCHED_FIFO, &sp);
			pinned++;
		}
		if (!pinned)
			usleep(10000);
	}
	if (!pinned) {
		snprintf(err, errlen, "threaded NAPI on %s started no thread to pin", ifname);
		return -ESRCH;
	}
	return 0;
}
