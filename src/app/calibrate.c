#include "app/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#include "app/trial_plan.h"
#include "core/ns.h"
#include "lab/lab.h"
#include "os/cpulat.h"
#include "store/calib.h"

void app_calibrate_defaults(struct trial_setup *to)
{
	to->plan.direct = true;
	if (!to->req.duration_set)
		to->plan.cfg.duration_ns = 5 * NSEC_PER_SEC;
	if (!to->req.learn_set)
		to->plan.cfg.learn_frames = 0;
}

double app_calibrate_min_offered(const struct trial_result *r)
{
	double m = r->dir[0].offered_pps;

	for (unsigned int d = 1; d < r->ndirs; d++)
		m = fmin(m, r->dir[d].offered_pps);
	return m;
}

bool app_calibrate_rx_clean(const struct trial_result *r)
{
	for (unsigned int d = 0; d < r->ndirs; d++)
		if (r->dir[d].lost || r->dir[d].tester_rx_drops || r->dir[d].tester_if_drops || r->dir[d].tx_errors)
			return false;
	return true;
}

double app_calibrate_ceiling(const struct trial_result *flat, const struct trial_result *paced, double *pace_err)
{
	*pace_err = fabs(app_calibrate_min_offered(paced) - paced->dir[0].target_pps) * 100.0 / paced->dir[0].target_pps;
	return app_calibrate_rx_clean(flat) && *pace_err <= 0.5 ? app_calibrate_min_offered(flat)
							    : app_calibrate_min_offered(paced);
}

void app_calibrate_line_span(const double *lines, unsigned int n, double *lo, double *hi)
{
	*lo = *hi = 0;
	for (unsigned int i = 0; i < n; i++)
		if (lines[i] > 0) {
			*lo = *lo > 0 && *lo < lines[i] ? *lo : lines[i];
			*hi = *hi > lines[i] ? *hi : lines[i];
		}
}

/* The lab's direct veth pair in place of the DUT: cal0 in gen, cal1 in
 * sink, the two directions swapped over it. */
static int direct_pair(struct trial_setup *to, struct app_calibrate *c, char *err, size_t errlen)
{
	struct trial_cfg *cfg = &to->plan.cfg;
	int rc;

	if ((rc = lab_direct_add(to->plan.prefix, cfg->dir[0].spec.src_mac, cfg->dir[0].spec.dst_mac, err, errlen)))
		return rc;
	c->direct_made = true;
	cfg->dir[0].tx_if = LAB_DIRECT_TX;
	cfg->dir[0].rx_if = LAB_DIRECT_RX;
	cfg->dir[1].tx_if = LAB_DIRECT_RX;
	cfg->dir[1].rx_if = LAB_DIRECT_TX;
	/* cabled straight: the far end's ring is the tester's own */
	for (int d = 0; d < 2; d++) {
		cfg->dir[d].direct = true;
		cfg->dir[d].rx_peer_if = NULL;
	}
	memcpy(cfg->dir[1].spec.src_mac, cfg->dir[0].spec.dst_mac, 6);
	memcpy(cfg->dir[1].spec.dst_mac, cfg->dir[0].spec.src_mac, 6);
	snprintf(to->plan.where, sizeof(to->plan.where), "back to back in lab %s (gen cal0 -> sink cal1, no DUT)", to->plan.prefix);
	return 0;
}

int app_calibrate(struct trial_setup *to, const volatile sig_atomic_t *stop, struct app_calibrate *c,
		  char *err, size_t errlen)
{
	struct calib_report *r = &c->rep;
	struct calib_entry *e = &r->e;
	struct trial_result *flat, *paced;
	struct utsname u;
	char e2[256];
	int rc;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	flat = c->flat = calloc(1, sizeof(*flat));
	paced = c->paced = calloc(1, sizeof(*paced));
	if (!flat || !paced)
		return -ENOMEM;
	if (to->plan.lab) {
		if ((rc = direct_pair(to, c, err, errlen)))
			return rc;
	} else {
		snprintf(to->plan.where, sizeof(to->plan.where), "back to back on %s -> %s (cabled, no DUT)", to->plan.tx_if, to->plan.rx_if);
	}

	/* 1: flat out. */
	if ((rc = trial_run(&to->plan.cfg, flat, stop, NULL, NULL, err, errlen)))
		return rc;
	/* 2: paced at 90% of what the generator reached. */
	if (!flat->interrupted) {
		to->plan.cfg.rate_pps = floor(app_calibrate_min_offered(flat) * 0.9);
		to->plan.cfg.trial_id = (uint16_t)((to->plan.cfg.trial_id + 1) & 0x7fff);
		if (to->plan.cfg.rate_pps < 1) {
			snprintf(err, errlen, "the generator sent nothing");
			return -EIO;
		}
		if ((rc = trial_run(&to->plan.cfg, paced, stop, NULL, NULL, err, errlen)))
			return rc;
	}
	if (flat->interrupted || paced->interrupted) {
		snprintf(err, errlen, "interrupted; nothing stored");
		return -EINTR;
	}

	r->flat = flat;
	r->paced = paced;
	e->pps = app_calibrate_ceiling(flat, paced, &r->pace_err);

	/* Where the host had the generator's and the analyzer's CPUs: before
	 * each step (the trial measures it) and now. A ceiling measured while
	 * the host moved them holds for neither placement. */
	double lo, hi;

	r->line = flat->cpu_line_ns > 0;
	r->gen_cpu = to->plan.cfg.gen_cpu[0];
	r->rx_cpu = to->plan.cfg.rx_cpu;
	if (r->line && cpulat_measure(r->gen_cpu, r->rx_cpu, &r->line_after, e2, sizeof(e2)))
		r->line_after = 0;
	const double lines[] = { flat->cpu_line_ns, paced->cpu_line_ns, r->line_after };

	app_calibrate_line_span(lines, 3, &lo, &hi);
	r->moved = cpulat_moved(lo, hi);

	e->size = to->plan.cfg.sizes[0];
	if (r->line && !r->moved) {
		cpulat_pair_name(r->gen_cpu, r->rx_cpu, e->line_cpus, sizeof(e->line_cpus));
		e->line_ns = flat->cpu_line_ns;
	}
	app_trial_plan_calib_key(to, e->port_type, sizeof(e->port_type));
	e->rx_ok = app_calibrate_rx_clean(flat) || app_calibrate_rx_clean(paced);
	e->when = (int64_t)time(NULL);
	uname(&u);
	snprintf(e->kernel, sizeof(e->kernel), "%s", u.release);
	r->path = app_trial_plan_path(to);
	r->threads = trial_threads(&to->plan.cfg);
	r->lab = to->plan.lab;
	r->calib_path = to->plan.calib_path;
	r->stored = to->plan.cfg.nsizes == 1;
	if (r->stored && (rc = calib_store(to->plan.calib_path, e, err, errlen)))
		return rc;
	return 0;
}

void app_calibrate_free(struct trial_setup *to, struct app_calibrate *c)
{
	char e2[256];

	if (c->direct_made)
		lab_direct_del(to->plan.prefix, e2, sizeof(e2));
	free(c->flat);
	free(c->paced);
	c->flat = c->paced = NULL;
}
