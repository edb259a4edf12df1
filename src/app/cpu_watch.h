/* 'wirerate cpu''s policy: where a sample comes from (this host's /proc
 * or a DUT's agent), what the first sample says of --cpus and --irq, and
 * the profile of the CPUs' time, here or on the DUT. */
#ifndef WR_APP_CPU_WATCH_H
#define WR_APP_CPU_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "dut/dut.h"
#include "dut/profile.h"
#include "os/procstat.h"

/* This host's /proc (under root), or the DUT's through its agent when d
 * is not NULL. */
int app_cpu_watch_sample(struct dut *d, const char *root, const char *irq, struct procstat_sample *s,
		   char *err, size_t errlen);
/* The CPUs online in the first sample into *online; -EINVAL when a CPU
 * of only (NULL: none asked) is not among them, or when irq names no IRQ
 * line the sample has, with the option and the reason in err. */
int app_cpu_watch_check(const struct procstat_sample *first, const struct cpuset *only, const char *irq,
		  struct cpuset *online, char *err, size_t errlen);
/* Sampling where cpus' time goes starts, on the DUT when d is not NULL,
 * else on this host into *prof. */
int app_cpu_watch_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz,
			  struct profile **prof, char *err, size_t errlen);
/* The profile's top entries (10 when top is 0) into r; err says why
 * when r stays empty. */
void app_cpu_watch_profile_read(struct dut *d, struct profile *prof, unsigned int top, struct profile_result *r,
			  char *err, size_t errlen);

struct app_cpu_cfg {
	uint64_t interval_ns;
	uint64_t count;			/* intervals; 0: until stopped */
	const struct cpuset *cpus;	/* the CPUs shown; NULL: all online */
	const char *irq;		/* IRQ lines counted; NULL or "": all */
	const char *root;		/* this host's /proc under it */
	struct dut *d;			/* not NULL: the DUT's CPUs */
	bool profile;
	unsigned int profile_hz, profile_top;
};

/* The step of app_cpu_watch_open that failed. */
enum app_cpu_fail { APP_CPU_NOMEM, APP_CPU_SAMPLE, APP_CPU_CHECK, APP_CPU_PROFILE };

/* A run of 'wirerate cpu': the first sample, the interval just read
 * (prev to cur) and how many intervals were read. */
struct app_cpu_watch {
	struct procstat_sample *first, *prev, *cur;
	struct profile *prof;
	struct cpuset online;		/* as the first sample has them */
	long hz;			/* the kernel's clock ticks a second */
	uint64_t n, next_ns;
	bool pending;			/* cur holds an interval not yet counted */
	struct profile_result *profiled;	/* after app_cpu_watch_finish, with --profile */
	char profiled_why[512];		/* why profiled is NULL or empty */
};

/* The first sample, checked (app_cpu_watch_check), and the profile started.
 * On failure *why names the step; app_cpu_watch_close either way. */
int app_cpu_watch_open(const struct app_cpu_cfg *c, struct app_cpu_watch *w, enum app_cpu_fail *why,
		 char *err, size_t errlen);
/* Waits for the end of the next interval and samples it: 1 with the
 * interval in prev..cur, 0 at the end (c->count reached or *stop, prev
 * then the last sample), or -errno. */
int app_cpu_watch_next(const struct app_cpu_cfg *c, struct app_cpu_watch *w, const volatile sig_atomic_t *stop,
		 char *err, size_t errlen);
/* The end of a run that was not cut short: with c->profile, the profile
 * over the whole run into w->profiled (app_cpu_watch_profile_read). */
void app_cpu_watch_finish(const struct app_cpu_cfg *c, struct app_cpu_watch *w);
void app_cpu_watch_close(struct app_cpu_watch *w);

#endif
