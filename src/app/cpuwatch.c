#include "app/cpuwatch.h"

#include <errno.h>
#include <stdio.h>

#include "core/cpustat.h"

int app_cpu_sample(struct dut *d, const char *root, const char *irq, struct procstat_sample *s,
		   char *err, size_t errlen)
{
	return d ? dut_procstat(d, irq, s, err, errlen) : procstat_read(root, irq, s, err, errlen);
}

int app_cpu_check(const struct procstat_sample *first, const struct cpuset *only, const char *irq,
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

int app_cpu_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz,
			  struct profile **prof, char *err, size_t errlen)
{
	int rc;

	if (d)
		return dut_profile_start(d, cpus, hz, err, errlen);
	if (!(rc = profile_create(cpus, hz, prof, err, errlen)))
		rc = profile_start(*prof, err, errlen);
	return rc;
}

void app_cpu_profile_read(struct dut *d, struct profile *prof, unsigned int top, struct profile_result *r,
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
