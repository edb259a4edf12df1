/* 'wirerate cpu''s policy: where a sample comes from (this host's /proc
 * or a DUT's agent), what the first sample says of --cpus and --irq, and
 * the profile of the CPUs' time, here or on the DUT. */
#ifndef WR_APP_CPUWATCH_H
#define WR_APP_CPUWATCH_H

#include <stddef.h>

#include "core/cpuset.h"
#include "dut/dut.h"
#include "dut/profile.h"
#include "os/procstat.h"

/* This host's /proc (under root), or the DUT's through its agent when d
 * is not NULL. */
int app_cpu_sample(struct dut *d, const char *root, const char *irq, struct procstat_sample *s,
		   char *err, size_t errlen);
/* The CPUs online in the first sample into *online; -EINVAL when a CPU
 * of only (NULL: none asked) is not among them, or when irq names no IRQ
 * line the sample has, with the option and the reason in err. */
int app_cpu_check(const struct procstat_sample *first, const struct cpuset *only, const char *irq,
		  struct cpuset *online, char *err, size_t errlen);
/* Sampling where cpus' time goes starts, on the DUT when d is not NULL,
 * else on this host into *prof. */
int app_cpu_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz,
			  struct profile **prof, char *err, size_t errlen);
/* The profile's top entries (10 when top is 0) into r; err says why
 * when r stays empty. */
void app_cpu_profile_read(struct dut *d, struct profile *prof, unsigned int top, struct profile_result *r,
			  char *err, size_t errlen);

#endif
