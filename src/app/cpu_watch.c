#include "app/cpu_watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cpustat.h"
#include "core/ns.h"
#include "os/clock.h"

int app_cpu_watch_sample(struct dut *d, const char *root, const char *irq, struct procstat_sample *s,
		   char *err, size_t errlen)
{
	return d ? dut_procstat(d, irq, s, err, errlen) : procstat_read(root, irq, s, err, errlen);
}

int app_cpu_watch_check(const struct procstat_sample *first, const struct cpuset *only, const char *irq,
		  struct cpuset *online, char *err, size_t errlen)
{
	/* the CPUs online, as the first sample has them */
	cpuset_zero(online);
	for (unsigned int k = 0; k < first->stat.max_cpu; k++)
		if (first->stat.cpu[k].present)
			cpuset_add(online, k);
	if (only) {
		int c = cpuset_next(only, 0);

		for (; c >= 0; c = cpuset_next(only, (unsigned int)c + 1))
			if (c >= CPUSTAT_MAX || !first->stat.cpu[c].present) {
				char list[256];

				cpuset_format_list(online, list, sizeof(list));
				snprintf(err, errlen, "--cpus: CPU %d is not online (online: %s)", c, list);
				return -EINVAL;
			}
	}
	if (irq && *irq && first->have_irq && !first->irq.nlines) {
		snprintf(err, errlen, "--irq: no IRQ line's name contains '%s' (see /proc/interrupts)", irq);
		return -EINVAL;
	}
	return 0;
}

int app_cpu_watch_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz,
			  struct profile **prof, char *err, size_t errlen)
{
	int rc;

	if (d)
		return dut_profile_start(d, cpus, hz, err, errlen);
	if (!(rc = profile_create(cpus, hz, prof, err, errlen)))
		rc = profile_start(*prof, err, errlen);
	return rc;
}

void app_cpu_watch_profile_read(struct dut *d, struct profile *prof, unsigned int top, struct profile_result *r,
			  char *err, size_t errlen)
{
	err[0] = '\0';
	if (!r)
		snprintf(err, errlen, "out of memory");
	else if (d)
		dut_profile_read(d, top ? top : 10, r, err, errlen);
	else {
		profile_stop(prof);
		profile_read(prof, top ? top : 10, r);
	}
}

int app_cpu_watch_open(const struct app_cpu_cfg *c, struct app_cpu_watch *w, enum app_cpu_fail *why,
		 char *err, size_t errlen)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->hz = sysconf(_SC_CLK_TCK);
	if (w->hz <= 0)
		w->hz = 100;
	w->first = procstat_sample_new();
	w->prev = procstat_sample_new();
	w->cur = procstat_sample_new();
	if (!w->first || !w->prev || !w->cur) {
		*why = APP_CPU_NOMEM;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((rc = app_cpu_watch_sample(c->d, c->root, c->irq, w->first, err, errlen))) {
		*why = APP_CPU_SAMPLE;
		return rc;
	}
	if ((rc = app_cpu_watch_check(w->first, c->cpus, c->irq, &w->online, err, errlen))) {
		*why = APP_CPU_CHECK;
		return rc;
	}
	if (c->profile &&
	    (rc = app_cpu_watch_profile_start(c->d, c->cpus ? c->cpus : &w->online, c->profile_hz, &w->prof, err, errlen))) {
		*why = APP_CPU_PROFILE;
		return rc;
	}
	*w->prev = *w->first;
	w->next_ns = w->first->t_ns;
	return 0;
}

int app_cpu_watch_next(const struct app_cpu_cfg *c, struct app_cpu_watch *w, const volatile sig_atomic_t *stop,
		 char *err, size_t errlen)
{
	int rc;

	if (w->pending) {
		struct procstat_sample *tmp = w->prev;

		w->prev = w->cur;
		w->cur = tmp;
		w->n++;
		w->pending = false;
	}
	if (*stop || (c->count && w->n >= c->count))
		return 0;
	w->next_ns += c->interval_ns;
	clock_mono_sleep_until(w->next_ns, stop);
	if (*stop)
		return 0;
	if ((rc = app_cpu_watch_sample(c->d, c->root, c->irq, w->cur, err, errlen)))
		return rc;
	w->pending = true;
	return 1;
}

void app_cpu_watch_finish(const struct app_cpu_cfg *c, struct app_cpu_watch *w)
{
	if (!c->profile)
		return;
	w->profiled = calloc(1, sizeof(*w->profiled));
	app_cpu_watch_profile_read(c->d, w->prof, c->profile_top, w->profiled, w->profiled_why, sizeof(w->profiled_why));
}

void app_cpu_watch_close(struct app_cpu_watch *w)
{
	profile_destroy(w->prof);
	procstat_sample_free(w->first);
	procstat_sample_free(w->prev);
	procstat_sample_free(w->cur);
	free(w->profiled);
	memset(w, 0, sizeof(*w));
}
