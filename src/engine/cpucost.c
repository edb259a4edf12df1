#include "engine/cpucost.h"
#include "core/timeconst.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/procstat.h"
#include "dut/soak.h"

struct cpucost {
	struct cpuset cpus;
	struct soak *soak;
	struct procstat_sample *a, *b;
	struct soak_snap sa, sb;
	bool started, ended, a_ok, b_ok;
};

int cpucost_create(const struct cpuset *cpus, const struct soak_calib *calib,
		   struct cpucost **out, char *err, size_t errlen)
{
	struct cpucost *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c || !(c->a = procstat_sample_new()) || !(c->b = procstat_sample_new())) {
		cpucost_destroy(c);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->cpus = *cpus;
	if (calib) {
		if ((rc = soak_create(cpus, calib, &c->soak, err, errlen)) ||
		    (rc = soak_start(c->soak, err, errlen))) {
			cpucost_destroy(c);
			return rc;
		}
	}
	*out = c;
	return 0;
}

void cpucost_mark_start(struct cpucost *c)
{
	char err[128];

	c->started = true;
	c->a_ok = procstat_read("/", NULL, c->a, err, sizeof(err)) == 0;
	if (c->soak)
		soak_snap(c->soak, &c->sa);
}

void cpucost_mark_end(struct cpucost *c)
{
	char err[128];

	c->ended = true;
	c->b_ok = procstat_read("/", NULL, c->b, err, sizeof(err)) == 0;
	if (c->soak)
		soak_snap(c->soak, &c->sb);
}

bool cpucost_started(const struct cpucost *c)
{
	return c->started;
}

bool cpucost_ended(const struct cpucost *c)
{
	return c->ended;
}

void cpucost_result(const struct cpucost *c, uint64_t frames, struct cpucost_result *o)
{
	struct soak_load sl;
	long hz = sysconf(_SC_CLK_TCK);
	bool back;

	memset(o, 0, sizeof(*o));
	o->soak_cpu_s = -1;
	if (!c->a_ok || !c->b_ok || c->b->t_ns <= c->a->t_ns)
		return;
	o->seconds = (double)(c->b->t_ns - c->a->t_ns) / NSEC_PER_SEC;
	if (c->soak)
		soak_load_between(c->soak, &c->sa, &c->sb, &sl);
	for (int cpu = cpuset_next(&c->cpus, 0); cpu >= 0 && o->n < CPUCOST_MAX;
	     cpu = cpuset_next(&c->cpus, (unsigned)cpu + 1)) {
		struct cpucost_cpu *x = &o->c[o->n++];

		x->cpu = (unsigned)cpu;
		x->soak = -1;
		if (cpu < CPUSTAT_MAX)
			cpustat_pct(&c->a->stat.cpu[cpu], &c->b->stat.cpu[cpu], o->seconds * (double)hz, &x->pct);
		if (c->a->have_irq && c->b->have_irq && cpu < CPUSTAT_MAX)
			x->intr_s = (double)cpustat_delta(c->a->irq.total[cpu], c->b->irq.total[cpu], &back) / o->seconds;
		if (c->a->have_soft && c->b->have_soft && cpu < CPUSTAT_MAX)
			x->net_rx_s = (double)cpustat_delta(c->a->soft.net_rx[cpu], c->b->soft.net_rx[cpu], &back) / o->seconds;
		if (c->a->have_net && c->b->have_net && cpu < CPUSTAT_MAX) {
			x->softnet_dropped = cpustat_delta(c->a->net.cpu[cpu].dropped, c->b->net.cpu[cpu].dropped, &back);
			x->softnet_squeezed = cpustat_delta(c->a->net.cpu[cpu].squeezed, c->b->net.cpu[cpu].squeezed, &back);
		}
		o->busy_cpu_s += x->pct.busy / 100.0 * o->seconds;
		o->accounted_cpu_s += (100.0 - x->pct.idle - x->pct.iowait) / 100.0 * o->seconds *
				      (x->pct.accounted > 0 ? x->pct.accounted / 100.0 : 1.0);
		if (c->soak)
			for (unsigned int k = 0; k < sl.n; k++)
				if (sl.cpu[k] == (unsigned)cpu)
					x->soak = sl.load[k];
	}
	if (c->soak) {
		o->soak_cpu_s = 0;
		for (unsigned int i = 0; i < o->n; i++)
			o->soak_cpu_s += (o->c[i].soak > 0 ? o->c[i].soak : 0) * o->seconds;
	}
	double cpu_s = c->soak ? o->soak_cpu_s : o->busy_cpu_s;

	o->source = c->soak ? "soak" : "/proc/stat";
	if (frames && cpu_s > 0) {
		o->ns_per_frame = cpu_s * NSEC_PER_SEC / (double)frames;
		o->frames_per_cpu_s = (double)frames / cpu_s;
	}
	o->valid = true;
}

void cpucost_destroy(struct cpucost *c)
{
	if (!c)
		return;
	soak_destroy(c->soak);
	procstat_sample_free(c->a);
	procstat_sample_free(c->b);
	free(c);
}
