#include "app/soakrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "core/timeconst.h"
#include "dut/envcap.h"
#include "os/clock.h"
#include "os/procstat.h"

int app_soak_cpus(struct dut *d, struct cpuset *cpus, char *err, size_t errlen)
{
	if (d) {
		const char *v = envcap_get(dut_env(d), "dut.cpu.online");

		if (!v || cpuset_parse_list(v, cpus, err, errlen)) {
			snprintf(err, errlen, "%s: its CPUs online are not known", dut_name(d));
			return -ENOENT;
		}
		return 0;
	}
	return procstat_online(NULL, cpus, err, errlen);
}

int app_soak_calib_precheck(const char *path, struct soak_calib *c, char *err, size_t errlen)
{
	struct stat sb;
	int rc;

	rc = stat(path, &sb) == 0 && sb.st_size == 0 ? -ENOENT : soak_calib_load(path, c, err, errlen);
	return rc && rc != -ENOENT ? rc : 0;
}

int app_soak_calibrate(const char *path, const struct cpuset *cpus, const struct soak_calib_opts *cal,
		       const volatile sig_atomic_t *stop, soak_progress_fn fn, void *ctx,
		       struct soak_calib *c, unsigned int *kept, char *err, size_t errlen)
{
	int rc;

	*kept = 0;
	memset(c, 0, sizeof(*c));
	if ((rc = soak_calibrate(cpus, cal, stop, fn, ctx, c, err, errlen)))
		return rc;
	/* Calibrating some CPUs keeps the others the file already has
	 * (same kernel, CPU model and loop); anything else is replaced. */
	struct soak_calib *old = calloc(1, sizeof(*old));
	char e2[512];

	if (old && !soak_calib_load(path, old, e2, sizeof(e2)))
		*kept = soak_calib_merge(c, old);
	free(old);
	return soak_calib_save(path, c, err, errlen);
}

void app_soak_accumulate(struct soak_load *tot, const struct soak_load *l)
{
	double t = tot->seconds + l->seconds;

	for (unsigned int i = 0; i < l->n && i < SOAK_MAX_CPUS; i++) {
		tot->cpu[i] = l->cpu[i];
		if (t > 0) {
			tot->load[i] = (tot->load[i] * tot->seconds + l->load[i] * l->seconds) / t;
			tot->rate[i] = (tot->rate[i] * tot->seconds + l->rate[i] * l->seconds) / t;
			tot->share[i] = (tot->share[i] * tot->seconds + l->share[i] * l->seconds) / t;
		}
	}
	tot->n = l->n;
	tot->seconds = t;
	tot->clamped |= l->clamped;
	tot->all = 0;
	for (unsigned int i = 0; i < tot->n; i++)
		tot->all += tot->load[i] / tot->n;
}

bool app_soak_fast(const struct soak_load *l, unsigned int ncpu)
{
	for (unsigned int i = 0; i < ncpu; i++)
		if (l->raw[i] < -0.02)
			return true;
	return false;
}

bool app_soak_keep(bool stopped, double seconds, uint64_t interval_ns)
{
	return !(stopped && seconds * NSEC_PER_SEC < interval_ns / 10);
}

int app_soak_hist_init(struct app_soak_hist *h, unsigned int ncpu, size_t cap)
{
	h->n = 0;
	h->cap = cap;
	h->ncpu = ncpu;
	h->v = malloc(cap * (ncpu + 1) * sizeof(double));
	return h->v ? 0 : -ENOMEM;
}

bool app_soak_hist_add(struct app_soak_hist *h, const struct soak_load *l)
{
	if (h->n == h->cap) {
		double *nh = malloc(2 * h->cap * (h->ncpu + 1) * sizeof(double));

		if (!nh)
			return false;
		for (unsigned int k = 0; k <= h->ncpu; k++)
			memcpy(nh + 2 * h->cap * k, h->v + h->cap * k, h->n * sizeof(double));
		free(h->v);
		h->v = nh;
		h->cap *= 2;
	}
	h->v[h->n] = l->all;
	for (unsigned int i = 0; i < h->ncpu; i++)
		h->v[h->cap * (i + 1) + h->n] = l->load[i];
	h->n++;
	return true;
}

void app_soak_hist_compact(struct app_soak_hist *h)
{
	/* the per-CPU history sits at v + cap * (i + 1): pack it */
	for (unsigned int k = 1; k <= h->ncpu; k++)
		memmove(h->v + h->n * k, h->v + h->cap * k, h->n * sizeof(double));
	h->cap = h->n;
}

void app_soak_hist_free(struct app_soak_hist *h)
{
	free(h->v);
	h->v = NULL;
}

/* Sleep until t_ns (CLOCK_MONOTONIC), or a signal. */
static void wait_until(uint64_t t_ns, const volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)(t_ns / NSEC_PER_SEC), (long)(t_ns % NSEC_PER_SEC) };

	while (!*stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The load over the last interval: from two snapshots of this host's
 * soakers, or the DUT agent's reading since its previous one. */
static int reading(struct dut *d, struct soak *s, struct soak_snap *a, struct soak_snap *b,
		   struct soak_load *l, char *err, size_t errlen)
{
	if (d)
		return dut_soak_read(d, l, err, errlen);
	soak_snap(s, b);
	soak_load_between(s, a, b, l);
	*a = *b;
	return 0;
}

int app_soak_run(const struct app_soak_cfg *cfg, const struct app_soak_hooks *h, void *ctx,
		 struct app_soak_result *r, char *err, size_t errlen)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct soak_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct soak_load *l = malloc(sizeof(*l)), *total = malloc(sizeof(*total));
	struct soak_idle *idle = calloc(1, sizeof(*idle));
	bool checked = true;
	struct soak *s = NULL;
	uint64_t start, next, end;
	int rc = -ENOMEM;

	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	if (!c || !a || !b || !l || !total || !idle)
		goto out;
	if (cfg->d) {
		/* the DUT loads and checks its calibration itself */
		if ((rc = dut_soak_start(cfg->d, cfg->cpus, cfg->path, idle, &checked, err, errlen))) {
			r->bad_input = rc == -EINVAL;
			goto out;
		}
		r->ncpu = cpuset_count(cfg->cpus);
	} else if ((rc = soak_calib_load(cfg->path, c, err, errlen)) ||
		   (rc = soak_calib_verify(c, err, errlen)) ||
		   (rc = soak_check_idle(cfg->cpus, c, 0, 0, idle, err, errlen)) ||
		   (rc = soak_create(cfg->cpus, c, &s, err, errlen))) {
		r->bad_input = !(rc == -ENOMEM || rc == -EIO);
		goto out;
	} else {
		r->ncpu = soak_ncpus(s);
	}
	if ((rc = app_soak_hist_init(&r->hist, r->ncpu,
				     cfg->duration_ns ? cfg->duration_ns / cfg->interval_ns + 2 : 64)) ||
	    (rc = h->open(ctx)))
		goto out;
	if (!cfg->d && (rc = soak_start(s, err, errlen)))
		goto out;
	h->start(ctx, r->ncpu, checked ? idle : NULL);
	memset(total, 0, sizeof(*total));
	if (s)
		soak_snap(s, a);
	else
		a->t_ns = mono_ns();	/* the readings' times are the tester's */
	start = next = a->t_ns;
	end = cfg->duration_ns ? start + cfg->duration_ns : UINT64_MAX;
	while (!*cfg->stop && next < end) {
		next = next + cfg->interval_ns < end ? next + cfg->interval_ns : end;
		wait_until(next, cfg->stop);
		if ((rc = reading(cfg->d, s, a, b, l, err, errlen)))
			goto out;
		if (!app_soak_keep(*cfg->stop, l->seconds, cfg->interval_ns))
			break;
		app_soak_accumulate(total, l);
		if (!app_soak_hist_add(&r->hist, l))
			break;
		r->fast += app_soak_fast(l, r->ncpu);
		h->reading(ctx, (double)((s ? b->t_ns : mono_ns()) - start) / NSEC_PER_SEC, l, r->ncpu);
	}
	if (s) {
		soak_read(s, &r->overall);
		soak_stop(s);
	} else {
		r->overall = *total;
		dut_soak_stop(cfg->d, err, errlen);
		err[0] = '\0';
	}
	app_soak_hist_compact(&r->hist);
	r->trusted = !checked || idle->trusted;
	rc = 0;
out:
	soak_destroy(s);
	free(idle);
	free(c);
	free(a);
	free(b);
	free(l);
	free(total);
	return rc;
}

void app_soak_result_free(struct app_soak_result *r)
{
	app_soak_hist_free(&r->hist);
}
