#include "engine/cpucost.h"

#include "core/lossattr.h"
#include "core/ns.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/procstat.h"
#include "dut/dut.h"
#include "dut/soak.h"

struct cpucost {
	struct dut *dut;		/* not owned */
	struct cpuset cpus;
	bool soak;
	struct procstat_sample *a, *b;
	struct soak_calib_busy *load;		/* the soak over the window */
	bool started, ended, a_ok, b_ok, load_ok;
	struct soak_idle *idle;		/* the agent's idle check before the soak */
	bool idle_ok;
	bool stall;			/* run the stall probe over the window */
	struct stallprobe_result *stall_res;
	bool profile, profiling;	/* asked for; started on the DUT */
	unsigned int profile_hz, profile_top;
	struct profile_result *prof_res;
	char profile_why[256];
	char why[256];			/* the first thing that failed */
};

int cpucost_create(struct dut *dut, const struct cpuset *cpus, bool soak, const char *soak_path,
		   struct cpucost **out, char *err, size_t errlen)
{
	struct cpucost *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if (!c || !(c->a = procstat_sample_new()) || !(c->b = procstat_sample_new()) ||
	    !(c->load = calloc(1, sizeof(*c->load))) || !(c->stall_res = calloc(1, sizeof(*c->stall_res))) ||
	    !(c->prof_res = calloc(1, sizeof(*c->prof_res))) ||
	    !(c->idle = calloc(1, sizeof(*c->idle)))) {
		cpucost_destroy(c);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->dut = dut;
	c->cpus = *cpus;
	if (soak) {
		if ((rc = dut_soak_start(dut, cpus, soak_path, c->idle, &c->idle_ok, err, errlen))) {
			cpucost_destroy(c);
			return rc;
		}
		c->soak = true;
	}
	*out = c;
	return 0;
}

int cpucost_stall_probe(struct cpucost *c, char *err, size_t errlen)
{
	c->stall = true;
	return 0;
}

void cpucost_profile(struct cpucost *c, unsigned int hz, unsigned int top)
{
	c->profile = true;
	c->profile_hz = hz;
	c->profile_top = top;
	/* ready before the traffic, so that its start is only a switch; a
	 * failure here is said again by the start */
	dut_profile_prepare(c->dut, &c->cpus, hz, c->profile_why, sizeof(c->profile_why));
}

/* The DUT's /proc now; the first failure is kept to say why. */
static bool sample(struct cpucost *c, struct procstat_sample *p)
{
	char err[256];

	if (!dut_procstat(c->dut, NULL, p, err, sizeof(err)))
		return true;
	if (!c->why[0])
		snprintf(c->why, sizeof(c->why), "%s", err);
	return false;
}

void cpucost_mark_start(struct cpucost *c)
{
	char err[256];

	c->started = true;
	/* A probe that cannot start leaves no figures: the trial goes on. */
	if (c->stall && dut_stall_start(c->dut, &c->cpus, err, sizeof(err)))
		c->stall = false;
	/* nor a profile that cannot: it says why */
	if (c->profile) {
		c->profiling = !dut_profile_start(c->dut, &c->cpus, c->profile_hz, c->profile_why,
						 sizeof(c->profile_why));
		memset(c->prof_res, 0, sizeof(*c->prof_res));
	}
	c->a_ok = sample(c, c->a);
	/* The soak counts from its last reading: read here to start the
	 * window, and keep the reading taken at its end. */
	if (c->soak && dut_soak_read(c->dut, c->load, err, sizeof(err)) && !c->why[0])
		snprintf(c->why, sizeof(c->why), "%s", err);
}

void cpucost_mark_end(struct cpucost *c)
{
	char err[256];

	c->ended = true;
	if (c->stall && dut_stall_read(c->dut, c->stall_res, err, sizeof(err)))
		memset(c->stall_res, 0, sizeof(*c->stall_res));
	if (c->profiling) {
		c->profiling = false;
		if (dut_profile_read(c->dut, c->profile_top, c->prof_res, c->profile_why, sizeof(c->profile_why)))
			memset(c->prof_res, 0, sizeof(*c->prof_res));
		else if (!c->prof_res->valid)
			snprintf(c->profile_why, sizeof(c->profile_why), "no sample was taken");
	}
	c->b_ok = sample(c, c->b);
	if (c->soak) {
		c->load_ok = !dut_soak_read(c->dut, c->load, err, sizeof(err));
		if (!c->load_ok && !c->why[0])
			snprintf(c->why, sizeof(c->why), "%s", err);
	}
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
	const struct soak_calib_busy *sl = c->load;
	long hz = sysconf(_SC_CLK_TCK);
	bool back;

	memset(o, 0, sizeof(*o));
	o->soak_cpu_s = -1;
	o->why = c->why[0] ? c->why : NULL;
	if (!c->a_ok || !c->b_ok || c->b->t_ns <= c->a->t_ns)
		return;
	o->seconds = (double)(c->b->t_ns - c->a->t_ns) / NSEC_PER_SEC;
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
		if (c->load_ok)
			for (unsigned int k = 0; k < sl->n; k++)
				if (sl->cpu[k] == (unsigned)cpu)
					x->soak = sl->load[k];
	}
	if (c->load_ok) {
		o->soak_cpu_s = 0;
		for (unsigned int i = 0; i < o->n; i++)
			o->soak_cpu_s += (o->c[i].soak > 0 ? o->c[i].soak : 0) * o->seconds;
	}
	double cpu_s = c->load_ok ? o->soak_cpu_s : o->busy_cpu_s;

	o->source = c->load_ok ? "soak" : "/proc/stat";
	if (c->idle_ok) {
		o->soak_checked = true;
		o->soak_trusted = c->idle->trusted;
		o->soak_idle_off = c->idle->n ? c->idle->off[c->idle->worst] : 0;
		snprintf(o->soak_reason, sizeof(o->soak_reason), "%s", c->idle->reason);
	}
	if (c->stall)
		o->stall = *c->stall_res;
	if (c->profile && c->ended) {
		o->profiled = c->prof_res->valid;
		o->profile = *c->prof_res;
		snprintf(o->profile_why, sizeof(o->profile_why), "%s", o->profiled ? "" : c->profile_why);
	}
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
	if (c->soak) {
		char err[256];

		dut_soak_stop(c->dut, err, sizeof(err));
	}
	free(c->load);
	free(c->stall_res);
	free(c->prof_res);
	free(c->idle);
	procstat_sample_free(c->a);
	procstat_sample_free(c->b);
	free(c);
}

void cpucost_hint(const struct cpucost_result *r, struct lossattr_cpu_hint *h)
{
	memset(h, 0, sizeof(*h));
	h->stall_ms = -1;
	if (!r->valid)
		return;
	for (unsigned int i = 0; i < r->n; i++) {
		double b = r->c[i].pct.busy, s = r->c[i].soak * 100;

		if (s > b)
			b = s;
		if (!h->known || b > h->busy_pct) {
			h->known = true;
			h->cpu = r->c[i].cpu;
			h->busy_pct = b;
		}
	}
	if (r->stall.valid && r->stall.n)
		h->stall_ms = ns_to_ms(r->stall.c[r->stall.worst].max_late_ns);
}
