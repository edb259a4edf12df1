/* The baseline gate: a run against a stored baseline, each figure a test
 * point, one verdict for the whole (app/gate_run.h). */
#include "app/gate_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "app/report.h"
#include "core/errmsg.h"

/* An id KCIDB takes from this origin: "ORIGIN:" and something. */
static bool id_ok(const char *id, const char *origin)
{
	size_t n = strlen(origin);

	return !strncmp(id, origin, n) && id[n] == ':' && id[n + 1];
}

static int check_path(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat sb;

	if (!*path)
		return errmsg(-EINVAL, err, errlen, "--kcidb: give a file name");
	if (strlen(path) >= sizeof(dir))
		return errmsg(-EINVAL, err, errlen, "--kcidb: the path is too long");
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return errmsg(-EINVAL, err, errlen, "--kcidb %s is %s", path,
			      S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
		return errmsg(-EINVAL, err, errlen, "--kcidb %s: no directory %s", path, dir);
	return 0;
}

int app_gate_run_check_kcidb(const struct app_gate_kcidb *k, char *err, size_t errlen)
{
	if (!k->path && (k->origin || k->checkout_id || k->build_id))
		return errmsg(-EINVAL, err, errlen, "--origin, --kcidb-checkout and --kcidb-build go with --kcidb FILE");
	if (!k->path)
		return 0;
	if (!k->origin)
		return errmsg(-EINVAL, err, errlen, "--kcidb needs --origin NAME: the CI system's name in KernelCI");
	if (!testpoint_origin_ok(k->origin))
		return errmsg(-EINVAL, err, errlen, "--origin '%s': KernelCI takes lower-case letters, digits and '_'",
			      k->origin);
	if (k->checkout_id && !id_ok(k->checkout_id, k->origin))
		return errmsg(-EINVAL, err, errlen, "--kcidb-checkout must start with '%s:' (the origin's)", k->origin);
	if (k->build_id && !id_ok(k->build_id, k->origin))
		return errmsg(-EINVAL, err, errlen, "--kcidb-build must start with '%s:' (the origin's)", k->origin);
	return check_path(k->path, err, errlen);
}

int app_gate_run_check(const struct app_gate_opts *op, char *err, size_t errlen)
{
	if (!op->baseline || !*op->baseline)
		return errmsg(-EINVAL, err, errlen, "give --baseline LABEL|RUN: the stored run to compare with");
	if (!op->run || !*op->run)
		return errmsg(-EINVAL, err, errlen, "give the RUN to judge (a label, run id or UUID; see 'wirerate runs')");
	if (!(op->threshold_pct >= 0 && op->threshold_pct <= 100))
		return errmsg(-EINVAL, err, errlen, "--threshold is a percent from 0 to 100");
	if (op->ktap && op->json)
		return errmsg(-EINVAL, err, errlen, "one of --ktap and --json");
	return app_gate_run_check_kcidb(&op->kcidb, err, errlen);
}

/* "rfc2544 throughput" -> "rfc2544": the first word of the test. */
static void test_slug(const char *test, char *buf, size_t len)
{
	size_t n = strcspn(test, " ");

	snprintf(buf, len, "%.*s", (int)n, n ? test : "run");
}

static void env_of(const struct rm_run *r, struct testpoint_env *e)
{
	time_t t = (time_t)r->started;
	struct tm tm;

	memset(e, 0, sizeof(*e));
	snprintf(e->run_uuid, sizeof(e->run_uuid), "%s", r->uuid);
	if (r->started > 0 && gmtime_r(&t, &tm))
		strftime(e->start_time, sizeof(e->start_time), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	snprintf(e->label, sizeof(e->label), "%s", r->label);
	snprintf(e->test, sizeof(e->test), "%s", r->test);
	snprintf(e->kernel, sizeof(e->kernel), "%s", r->kernel);
	snprintf(e->config, sizeof(e->config), "%s", r->config);
	snprintf(e->target, sizeof(e->target), "%s", r->dut[0] ? r->dut : r->place);
}

/* One figure of a cell: its name in the path, value, unit, and the
 * baseline's value and the noise around both (percent of the
 * baseline's, half the width of the bands the verdict compared). */
struct figure {
	const char *name, *unit;
	double v, base;
	double noise_pct;
};

static double half_pct(double lo, double hi, double of)
{
	return of > 0 && isfinite(lo) && isfinite(hi) ? (hi - lo) / 2 * 100 / of : 0;
}

/* The cell's headline figure, and the noise the verdict saw. */
static bool figure_of(const struct rm_cell *c, const struct rm_cell *b, struct figure *f)
{
	memset(f, 0, sizeof(*f));
	f->base = NAN;
	if (c->have_thr) {
		double lo, hi;

		f->name = "ndr";
		f->unit = "frames/s";
		f->v = c->ndr_med;
		report_db_band(c, &lo, &hi);
		f->noise_pct = half_pct(lo, hi, c->ndr_med);
		if (b && b->have_thr) {
			f->base = b->ndr_med;
			report_db_band(b, &lo, &hi);
			f->noise_pct = fmax(f->noise_pct, half_pct(lo, hi, b->ndr_med));
		}
		return true;
	}
	if (c->have_stream) {
		f->name = "received";
		f->unit = "Mbit/s";
		f->v = c->st_recv_mbps;
		/* the 5% band compare_stream allows either side */
		f->noise_pct = half_pct(c->st_recv_min, c->st_recv_max, c->st_recv_mbps) + 5;
		if (b && b->have_stream) {
			f->base = b->st_recv_mbps;
			f->noise_pct = fmax(f->noise_pct, half_pct(b->st_recv_min, b->st_recv_max, b->st_recv_mbps) + 5);
		}
		return true;
	}
	if (c->have_trial) {
		f->name = "forwarded";
		f->unit = "frames/s";
		f->v = c->trial_fwd_pps;
		/* the 0.5% of the offered load compare_trial allows either side */
		f->noise_pct = half_pct(c->trial_fwd_min, c->trial_fwd_max, c->trial_fwd_pps) +
			       (c->trial_fwd_pps > 0 ? 0.5 * c->trial_offered_pps / c->trial_fwd_pps : 0);
		if (b && b->have_trial) {
			f->base = b->trial_fwd_pps;
			f->noise_pct = fmax(f->noise_pct, half_pct(b->trial_fwd_min, b->trial_fwd_max, b->trial_fwd_pps) +
							  (b->trial_fwd_pps > 0 ? 0.5 * b->trial_offered_pps / b->trial_fwd_pps : 0));
		}
		return true;
	}
	return false;
}

static enum app_gate_verdict worst(enum app_gate_verdict a, enum testpoint_status st)
{
	if (st == TESTPOINT_FAIL)
		return APP_GATE_REGRESSION;
	if (a == APP_GATE_OK && (st == TESTPOINT_UNSURE || st == TESTPOINT_ERROR))
		return APP_GATE_UNSURE;
	return a;
}

/* The point of cell c judged against b: its status and its line. */
static enum testpoint_status judge(const struct report_model *m, const struct rm_cell *c, const struct figure *f,
				   double threshold, char *line, size_t len)
{
	const struct rm_run *base = &m->run[0], *run = &m->run[1];
	double noise = c->have_paired ? (c->paired.hi_pct - c->paired.lo_pct) / 2 : f->noise_pct;
	int n;

	n = snprintf(line, len, "baseline %.6g (%+.2f%%): ", f->base, c->diff_pct);
	if (n < 0 || (size_t)n >= len)
		n = 0;
	line += n;
	len -= (size_t)n;
	if (run->interrupted || base->interrupted) {
		snprintf(line, len, "the %s did not complete, so no verdict", run->interrupted ? "run" : "baseline");
		return TESTPOINT_ERROR;
	}
	switch (c->verdict) {
	case RM_WORSE:
		if (c->worse_by_pct > threshold) {
			snprintf(line, len, "a regression: worse by %.2f%% beyond the noise, over the threshold %.2f%%",
				 c->worse_by_pct, threshold);
			return TESTPOINT_FAIL;
		}
		snprintf(line, len, "worse by %.2f%% beyond the noise, within the threshold %.2f%%",
			 c->worse_by_pct, threshold);
		return TESTPOINT_PASS;
	case RM_BETTER:
		snprintf(line, len, "better beyond the noise");
		return TESTPOINT_PASS;
	case RM_NOISE:
		/* a regression as large as the threshold would hide in it */
		if (noise > threshold) {
			snprintf(line, len,
				 "cannot tell: the noise (+-%.2f%%) is wider than the threshold %.2f%%; "
				 "repeat the runs (--repeat) or measure them in rounds",
				 noise, threshold);
			return TESTPOINT_UNSURE;
		}
		snprintf(line, len, "within the noise (+-%.2f%%)", noise);
		return TESTPOINT_PASS;
	case RM_CANNOT_TELL:
		if (c->have_paired)
			snprintf(line, len, "cannot tell: the rounds disagree (%+.2f%%..%+.2f%%)", c->paired.lo_pct,
				 c->paired.hi_pct);
		else
			snprintf(line, len, "cannot tell: the baseline's own rounds moved %.2f%%, more than the change",
				 c->drift_pct);
		return TESTPOINT_UNSURE;
	case RM_NOT_COMPARABLE:
		snprintf(line, len, "cannot tell: a bound (the tester's ceiling) against a figure that may lie on "
				    "either side of it");
		return TESTPOINT_UNSURE;
	default:
		if (c->tester_limited)
			snprintf(line, len, "cannot tell: the tester fell short of the load in this run");
		else if (!isfinite(f->base))
			snprintf(line, len, "cannot tell: the baseline has no such figure");
		else
			snprintf(line, len, "cannot tell: the runs are not comparable (another offered load, or the "
					    "tester fell short in the baseline)");
		return TESTPOINT_UNSURE;
	}
}

int app_gate_run_points(const struct report_model *m, double threshold_pct, struct testpoint_set *s,
			enum app_gate_verdict *v)
{
	const struct rm_run *run = &m->run[m->nruns > 1 ? 1 : 0];
	enum app_gate_verdict all = APP_GATE_OK;
	char slug[32];

	env_of(run, &s->env);
	test_slug(run->test, slug, sizeof(slug));
	for (unsigned int k = 0; k < run->ncells; k++) {
		const struct rm_cell *c = &run->cell[k];
		const struct rm_cell *b = m->nruns > 1 ? report_model_cell_of(&m->run[0], c->size) : NULL;
		struct testpoint *t;
		struct figure f;

		if (!figure_of(c, b, &f))
			continue;
		if (!(t = testpoint_add(s, TESTPOINT_DONE, "wirerate.%s.%s.%u", slug, f.name, c->size)))
			return -ENOMEM;
		t->have_value = isfinite(f.v);
		t->value = f.v;
		snprintf(t->unit, sizeof(t->unit), "%s", f.unit);
		if (m->nruns < 2) {
			snprintf(t->line, sizeof(t->line), "%s",
				 c->tester_limited ? "at least (the tester fell short)" : "measured");
			continue;
		}
		t->status = judge(m, c, &f, threshold_pct, t->line, sizeof(t->line));
		all = worst(all, t->status);
		/* a stream's DUT CPU per KB, where both have it in rounds */
		if (c->have_stream && c->sd_verdict != RM_NONE) {
			struct testpoint *d = testpoint_add(s, TESTPOINT_PASS, "wirerate.%s.dut_cpu.%u", slug, c->size);

			if (!d)
				return -ENOMEM;
			d->have_value = c->st_dut_sd > 0;
			d->value = c->st_dut_sd;
			snprintf(d->unit, sizeof(d->unit), "us/KB");
			if (c->sd_verdict == RM_WORSE && -c->paired_sd.lo_pct > threshold_pct) {
				d->status = TESTPOINT_FAIL;
				snprintf(d->line, sizeof(d->line), "the DUT's CPU per KB: more by %+.2f%% "
					 "(%+.2f%%..%+.2f%%), over the threshold", c->paired_sd.diff_pct,
					 c->paired_sd.lo_pct, c->paired_sd.hi_pct);
			} else if (c->sd_verdict == RM_CANNOT_TELL) {
				d->status = TESTPOINT_UNSURE;
				snprintf(d->line, sizeof(d->line), "cannot tell: the rounds disagree (%+.2f%%..%+.2f%%)",
					 c->paired_sd.lo_pct, c->paired_sd.hi_pct);
			} else {
				snprintf(d->line, sizeof(d->line), "the DUT's CPU per KB %+.2f%%: %s",
					 c->paired_sd.diff_pct, report_db_verdict_name(c->sd_verdict));
			}
			all = worst(all, d->status);
		}
	}
	/* what the baseline has and the run lacks */
	for (unsigned int k = 0; m->nruns > 1 && k < m->run[0].ncells; k++) {
		const struct rm_cell *b = &m->run[0].cell[k];
		struct testpoint *t;
		struct figure f;

		if (report_model_cell_of(run, b->size) || !figure_of(b, NULL, &f))
			continue;
		if (!(t = testpoint_add(s, TESTPOINT_UNSURE, "wirerate.%s.%s.%u", slug, f.name, b->size)))
			return -ENOMEM;
		snprintf(t->line, sizeof(t->line), "cannot tell: the run has no figure at %u bytes, the baseline %.6g %s",
			 b->size, f.v, f.unit);
		t->have_value = false;
		all = worst(all, t->status);
	}
	if (!s->n) {
		struct testpoint *t = testpoint_add(s, TESTPOINT_UNSURE, "wirerate.%s", slug);

		if (!t)
			return -ENOMEM;
		snprintf(t->line, sizeof(t->line), "cannot tell: the run has no figure to judge");
		all = worst(all, t->status);
	}
	if (v)
		*v = all;
	return 0;
}

int app_gate_run_export(const char *db, const char *run, struct testpoint_set *s, char *err, size_t errlen)
{
	const char *dbs[1] = { db };
	char *runs[1] = { (char *)run };
	struct app_report_cfg c = { .dbs = dbs, .ndb = db ? 1 : 0, .runs = runs, .nruns = 1, .fail_pct = -1 };
	struct report_model *m = NULL;
	int rc;

	if ((rc = app_report_load(&c, &m, err, errlen)))
		return rc;
	if ((rc = app_gate_run_points(m, -1, s, NULL)))
		snprintf(err, errlen, "out of memory");
	free(m);
	return rc;
}

int app_gate_run(const struct app_gate_opts *op, const struct app_cli_hooks *cli, const struct app_gate_hooks *h,
		 void *ctx, enum app_gate_verdict *v, enum app_gate_why *why, char *err, size_t errlen)
{
	char *runs[2] = { (char *)op->baseline, (char *)op->run };
	struct app_report_cfg c = { .dbs = op->db, .ndb = op->ndb, .runs = runs, .nruns = 2,
				    .fail_pct = op->threshold_pct, .cli = cli };
	struct testpoint_set s = { 0 };
	struct report_model *m = NULL;
	int rc;

	*why = APP_GATE_INPUT;
	if ((rc = app_report_load(&c, &m, err, errlen))) {
		if (rc != -EINVAL)
			*why = APP_GATE_HOST;
		return rc;
	}
	*why = APP_GATE_HOST;
	if (m->nruns != 2 || (m->run[0].id == m->run[1].id && !strcmp(m->run[0].store, m->run[1].store))) {
		/* both names were the same run */
		*why = APP_GATE_INPUT;
		rc = errmsg(-EINVAL, err, errlen, "--baseline and RUN are the same run (%s): give two", m->run[0].ref);
	} else if (strcmp(m->run[0].test, m->run[1].test)) {
		*why = APP_GATE_INPUT;
		rc = errmsg(-EINVAL, err, errlen, "run %s is a %s and the baseline %s a %s: a gate compares runs of one test",
			    m->run[1].ref, m->run[1].test, m->run[0].ref, m->run[0].test);
	} else if ((rc = app_gate_run_points(m, op->threshold_pct, &s, v))) {
		snprintf(err, errlen, "out of memory");
	} else if (op->kcidb.path && (rc = h->kcidb(ctx, &op->kcidb, &s, err, errlen))) {
		;
	} else if ((rc = h->print(ctx, op, m, &s, *v))) {
		snprintf(err, errlen, "writing the verdict: %s", strerror(-rc));
	} else {
		*why = APP_GATE_DONE;
	}
	testpoint_set_free(&s);
	free(m);
	return rc;
}
