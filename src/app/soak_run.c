#include "app/soak_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "core/ns.h"
#include "dut/envcap.h"
#include "os/clock.h"
#include "os/procstat.h"

int app_soak_run_cpus(struct dut *d, struct cpuset *cpus, char *err, size_t errlen)
{
	if (d) {
		const char *v = envcap_kv_get(dut_env(d), "dut.cpu.online");

		if (!v || cpuset_parse_list(v, cpus, err, errlen)) {
			snprintf(err, errlen, "%s: its CPUs online are not known", dut_name(d));
			return -ENOENT;
		}
		return 0;
	}
	return procstat_online(NULL, cpus, err, errlen);
}

int app_soak_run_calib_precheck(const char *path, struct soak_calib *c, char *err, size_t errlen)
{
	struct stat sb;
	int rc;

	rc = stat(path, &sb) == 0 && sb.st_size == 0 ? -ENOENT : soak_calibration_load(path, c, err, errlen);
	return rc && rc != -ENOENT ? rc : 0;
}

int app_soak_run_calibrate(const char *path, const struct cpuset *cpus, const struct soak_calib_opts *cal,
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

	if (old && !soak_calibration_load(path, old, e2, sizeof(e2)))
		*kept = soak_calib_merge(c, old);
	free(old);
	return soak_calibration_save(path, c, err, errlen);
}

void app_soak_run_accumulate(struct soak_calib_busy *tot, const struct soak_calib_busy *l)
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

bool app_soak_run_fast(const struct soak_calib_busy *l, unsigned int ncpu)
{
	for (unsigned int i = 0; i < ncpu; i++)
		if (l->raw[i] < -0.02)
			return true;
	return false;
}

bool app_soak_run_keep(bool stopped, double seconds, uint64_t interval_ns)
{
	return !(stopped && seconds * NSEC_PER_SEC < interval_ns / 10);
}

int app_soak_run_hist_init(struct app_soak_hist *h, unsigned int ncpu, size_t cap)
{
	h->n = 0;
	h->cap = cap;
	h->ncpu = ncpu;
	h->v = malloc(cap * (ncpu + 1) * sizeof(double));
	return h->v ? 0 : -ENOMEM;
}

bool app_soak_run_hist_add(struct app_soak_hist *h, const struct soak_calib_busy *l)
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

void app_soak_run_hist_compact(struct app_soak_hist *h)
{
	/* the per-CPU history sits at v + cap * (i + 1): pack it */
	for (unsigned int k = 1; k <= h->ncpu; k++)
		memmove(h->v + h->n * k, h->v + h->cap * k, h->n * sizeof(double));
	h->cap = h->n;
}

void app_soak_run_hist_free(struct app_soak_hist *h)
{
	free(h->v);
	h->v = NULL;
}

/* The load over the last interval: from two snapshots of this host's
 * soakers, or the DUT agent's reading since its previous one. */
static int reading(struct dut *d, struct soak *s, struct soak_snap *a, struct soak_snap *b,
		   struct soak_calib_busy *l, char *err, size_t errlen)
{
	if (d)
		return dut_soak_read(d, l, err, errlen);
	soak_snap(s, b);
	soak_load_between(s, a, b, l);
	*a = *b;
	return 0;
}

/* The room a step's reason has: the CPUs' 255 bytes, the others' 511,
 * so that a long name or path is cut where it always was. */
#define CPUS_ERR_MAX 256
#define STEP_ERR_MAX 512

static size_t room(size_t errlen, size_t max)
{
	return errlen < max ? errlen : max;
}

/* The CPUs to soak or calibrate: the ones asked for, else every one the
 * soaked host has online. */
static int soak_cpus(const struct app_soak_cfg *cfg, struct app_soak_result *r, char *err, size_t errlen)
{
	int rc;

	if (cfg->cpus) {
		r->cpus = *cfg->cpus;
		return 0;
	}
	if ((rc = app_soak_run_cpus(cfg->d, &r->cpus, err, room(errlen, CPUS_ERR_MAX))))
		r->why = APP_SOAK_HOST;
	return rc;
}

/* The CPUs, then Ctrl-C caught (*stop): a stop from here on ends the run
 * in order; before, while the DUT is asked for its CPUs, it ends the
 * process. */
static int soak_begin(const struct app_soak_cfg *cfg, const struct app_cli_hooks *cli, struct app_soak_result *r,
		      const volatile sig_atomic_t **stop, char *err, size_t errlen)
{
	int rc = soak_cpus(cfg, r, err, errlen);

	if (!rc)
		*stop = cli->stop(cli->ctx, true);
	return rc;
}

/* The calibration, once Ctrl-C is caught (stop). */
static int calibration(const struct app_soak_cfg *cfg, const volatile sig_atomic_t *stop,
		       const struct app_soak_hooks *h, void *ctx, struct app_soak_result *r, char *err, size_t errlen)
{
	struct soak_calib_opts cal = *cfg->cal;
	char e[STEP_ERR_MAX];
	int rc;

	r->why = APP_SOAK_HOST;
	if (!(r->calib = calloc(1, sizeof(*r->calib))))
		return -ENOMEM;
	/* its reason said whole, with the path that is not a calibration */
	if ((rc = app_soak_run_calib_precheck(cfg->path, r->calib, e, sizeof(e)))) {
		snprintf(err, errlen, "--calibration %s (give another file, or delete it)", e);
		r->why = APP_SOAK_INPUT;
		return rc;
	}
	if ((rc = h->open(ctx)))
		return rc;
	h->calib_start(ctx, cfg, r);
	cal.interval_ns = cfg->interval_ns;
	rc = app_soak_run_calibrate(cfg->path, &r->cpus, &cal, stop, h->progress, ctx, r->calib, &r->kept, err,
				room(errlen, STEP_ERR_MAX));
	h->calib_end(ctx, cfg, r, !rc);
	if (rc)
		r->why = *stop ? APP_SOAK_STOPPED : rc == -EINVAL ? APP_SOAK_INPUT : APP_SOAK_HOST;
	else
		r->why = APP_SOAK_OK;
	return rc;
}

int app_soak_run_calibration(const struct app_soak_cfg *cfg, const struct app_cli_hooks *cli,
			 const struct app_soak_hooks *h, void *ctx, struct app_soak_result *r, char *err,
			 size_t errlen)
{
	const volatile sig_atomic_t *stop;
	int rc;

	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	if (!(rc = soak_begin(cfg, cli, r, &stop, err, errlen)))
		rc = calibration(cfg, stop, h, ctx, r, err, errlen);
	cli->stop(cli->ctx, false);
	return rc;
}

/* The run's room: the calibration, two snapshots, a reading and the
 * total, the idle check. */
struct soak_room {
	struct soak_calib *c;
	struct soak_snap *a, *b;
	struct soak_calib_busy *l, *total;
	struct soak_idle *idle;
	bool checked;			/* idle holds the check of the calibration */
	struct soak *s;			/* this host's soakers (NULL: the DUT's) */
	const volatile sig_atomic_t *stop;	/* set: the soak ends */
};

/* The soakers ready: on the DUT (which loads and checks its calibration
 * itself), or made here from the calibration checked against the idle
 * machine. r->why says whose fault a failure is. */
static int soak_setup(const struct app_soak_cfg *cfg, struct soak_room *m, struct app_soak_result *r, char *err,
		      size_t errlen)
{
	int rc;

	m->checked = true;
	if (cfg->d) {
		if ((rc = dut_soak_start(cfg->d, &r->cpus, cfg->path, m->idle, &m->checked, err, errlen))) {
			r->why = rc == -EINVAL ? APP_SOAK_INPUT : APP_SOAK_HOST;
			return rc;
		}
		r->ncpu = cpuset_count(&r->cpus);
		return 0;
	}
	if ((rc = soak_calibration_load(cfg->path, m->c, err, errlen)) || (rc = soak_calibration_verify(m->c, err, errlen)) ||
	    (rc = soak_check_idle(&r->cpus, m->c, 0, 0, m->idle, err, errlen)) ||
	    (rc = soak_create(&r->cpus, m->c, &m->s, err, errlen))) {
		r->why = rc == -ENOMEM || rc == -EIO ? APP_SOAK_HOST : APP_SOAK_INPUT;
		return rc;
	}
	r->ncpu = soak_ncpus(m->s);
	return 0;
}

/* Every interval's reading until the end or *stop, each to the hook; a
 * last one cut short to noise by the stop is dropped. */
static int soak_loop(const struct app_soak_cfg *cfg, const struct app_soak_hooks *h, void *ctx,
		     struct soak_room *m, struct app_soak_result *r, char *err, size_t errlen)
{
	uint64_t start, next, end;
	int rc;

	memset(m->total, 0, sizeof(*m->total));
	if (m->s)
		soak_snap(m->s, m->a);
	else
		m->a->t_ns = clock_mono_ns();	/* the readings' times are the tester's */
	start = next = m->a->t_ns;
	end = cfg->duration_ns ? start + cfg->duration_ns : UINT64_MAX;
	while (!*m->stop && next < end) {
		next = next + cfg->interval_ns < end ? next + cfg->interval_ns : end;
		clock_mono_sleep_until(next, m->stop);
		if ((rc = reading(cfg->d, m->s, m->a, m->b, m->l, err, errlen)))
			return rc;
		if (!app_soak_run_keep(*m->stop, m->l->seconds, cfg->interval_ns))
			break;
		app_soak_run_accumulate(m->total, m->l);
		if (!app_soak_run_hist_add(&r->hist, m->l))
			break;
		r->fast += app_soak_run_fast(m->l, r->ncpu);
		h->reading(ctx, (double)((m->s ? m->b->t_ns : clock_mono_ns()) - start) / NSEC_PER_SEC, m->l, r->ncpu);
	}
	return 0;
}

int app_soak_run(const struct app_soak_cfg *cfg, const struct app_cli_hooks *cli, const struct app_soak_hooks *h,
		 void *ctx, struct app_soak_result *r, char *err, size_t errlen)
{
	struct soak_room m = {
		.c = calloc(1, sizeof(*m.c)), .a = malloc(sizeof(*m.a)), .b = malloc(sizeof(*m.b)),
		.l = malloc(sizeof(*m.l)), .total = malloc(sizeof(*m.total)), .idle = calloc(1, sizeof(*m.idle)),
	};
	int rc = -ENOMEM;

	memset(r, 0, sizeof(*r));
	err[0] = '\0';
	if ((rc = soak_begin(cfg, cli, r, &m.stop, err, errlen)))
		goto out;
	errlen = room(errlen, STEP_ERR_MAX);
	rc = -ENOMEM;
	r->why = APP_SOAK_HOST;
	if (!m.c || !m.a || !m.b || !m.l || !m.total || !m.idle || (rc = soak_setup(cfg, &m, r, err, errlen)))
		goto out;
	r->why = APP_SOAK_HOST;
	if ((rc = app_soak_run_hist_init(&r->hist, r->ncpu,
				     cfg->duration_ns ? cfg->duration_ns / cfg->interval_ns + 2 : 64)) ||
	    (rc = h->open(ctx)) || (m.s && (rc = soak_start(m.s, err, errlen))))
		goto out;
	h->start(ctx, cfg, r, m.checked ? m.idle : NULL);
	if ((rc = soak_loop(cfg, h, ctx, &m, r, err, errlen)))
		goto out;
	if (m.s) {
		soak_read(m.s, &r->overall);
		soak_stop(m.s);
	} else {
		r->overall = *m.total;
		dut_soak_stop(cfg->d, err, errlen);
		err[0] = '\0';
	}
	app_soak_run_hist_compact(&r->hist);
	r->trusted = !m.checked || m.idle->trusted;
	r->interrupted = *m.stop;
	r->why = APP_SOAK_OK;
	h->end(ctx, r);
out:
	cli->stop(cli->ctx, false);
	soak_destroy(m.s);
	free(m.idle);
	free(m.c);
	free(m.a);
	free(m.b);
	free(m.l);
	free(m.total);
	return rc;
}

void app_soak_run_result_free(struct app_soak_result *r)
{
	app_soak_run_hist_free(&r->hist);
	free(r->calib);
	r->calib = NULL;
}
