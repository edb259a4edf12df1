/* A run stored as it goes: begin, each trial, rfc2544's rows, end. */
#include "app/run_store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/rfc2544_plan.h"
#include "app/trial_plan.h"
#include "core/ns.h"
#include "dut/dut.h"
#include "dut/envcap.h"
#include "engine/cpucost.h"
#include "engine/rfc2544.h"
#include "engine/stream.h"

int app_run_store_open(struct run_store *s, char *err, size_t errlen)
{
	int rc;

	if (s->req.no_store)
		return 0;
	if (s->req.path_set)
		snprintf(s->ses.path, sizeof(s->ses.path), "%s", s->req.path);
	else if ((rc = db_default_path(s->ses.path, sizeof(s->ses.path), err, errlen)))
		return rc;
	return db_open(s->ses.path, true, &s->ses.db, err, errlen);
}

/* The run's row from its environment e (its config made from it), with
 * kv room for e's entries. */
static int begin_with(struct run_store *s, struct envcap *e, struct db_kv *kv, struct db_run_info *ri,
		      char *err, size_t errlen)
{
	char config[256];

	/* not in the config: the rounds of one configuration are one setup */
	envcap_config(e, config, sizeof(config));
	if (s->req.round)
		envcap_kv_set(e, "run.round", "%u", s->req.round);
	for (unsigned int i = 0; i < e->n; i++)
		kv[i] = (struct db_kv){ e->kv[i].key, e->kv[i].value };
	ri->label = s->req.label;
	ri->tags = s->req.tags;
	ri->ntags = s->req.ntags;
	ri->config = config;
	return db_run_begin(s->ses.db, ri, kv, e->n, &s->ses.run_id, err, errlen);
}

/* A run's environment, the host's to start with, and room for its
 * entries as the store's key-value pairs. */
static int env_new(struct envcap **e, struct db_kv **kv, char *err, size_t errlen)
{
	*e = calloc(1, sizeof(**e));
	*kv = calloc(ENVCAP_MAX, sizeof(**kv));
	if (!*e || !*kv) {
		free(*e);
		free(*kv);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	envcap_host(*e, NULL);
	return 0;
}

/* The DUT's own account of itself (dut.kernel.release, its ports, CPUs,
 * governor, config and ruleset hashes): what a report groups runs of one
 * DUT by, whatever the tester runs. */
static void env_dut(struct envcap *e, struct dut *d)
{
	const struct envcap *de = dut_env(d);

	for (unsigned int i = 0; i < de->n; i++)
		envcap_kv_set(e, de->kv[i].key, "%s", de->kv[i].value);
}

/* The SUT's part of e (the lab's and the DUT's keys, and the kernel the
 * SUT runs: the VM's, the DUT agent's, else this host's, which a
 * namespace lab forwards on) and its summary, for the run's report. */
static void keep_sut(struct run_store *s, const struct envcap *e)
{
	const char *k = envcap_kv_get(e, "lab.vm.release");

	envcap_config(e, s->ses.sut_config, sizeof(s->ses.sut_config));
	free(s->ses.sut);
	if (!(s->ses.sut = calloc(1, sizeof(*s->ses.sut))))
		return;
	if (!k)
		k = envcap_kv_get(e, "dut.kernel.release");
	if (!k && envcap_kv_get(e, "lab.prefix"))
		k = envcap_kv_get(e, "kernel.release");
	if (k)
		envcap_kv_set(s->ses.sut, "kernel", "%s", k);
	for (unsigned int i = 0; i < e->n; i++)
		if (!strncmp(e->kv[i].key, "lab.", 4) || !strncmp(e->kv[i].key, "dut.", 4))
			envcap_kv_set(s->ses.sut, e->kv[i].key, "%s", e->kv[i].value);
}

int app_run_store_begin(struct run_store *s, const struct trial_setup *to, struct db_run_info *ri,
		    char *err, size_t errlen)
{
	struct envcap *e;
	struct db_kv *kv;
	char e2[256];
	int rc;

	if (!s->ses.db && !s->rfc2544.want_sut)
		return 0;
	if ((rc = env_new(&e, &kv, err, errlen)))
		return rc;
	/* The lab or the cabled ports as they are now; what cannot be read is
	 * left out rather than failing the run. */
	if (to->plan.lab) {
		if (envcap_lab(e, to->plan.prefix, e2, sizeof(e2)))
			envcap_kv_set(e, "lab.error", "%s", e2);
	} else {
		envcap_port(e, "tx", to->ses.nsfd[0], to->plan.tx_name, NULL, to->ses.nsfd[0] < 0);
		if (strcmp(to->plan.tx_name, to->plan.rx_name) || to->ses.nsfd[0] != to->ses.nsfd[1])
			envcap_port(e, "rx", to->ses.nsfd[1], to->plan.rx_name, NULL, to->ses.nsfd[1] < 0);
		/* the further pairs as tx1, rx1, ... */
		for (unsigned int p = 1; p < to->plan.nports && p < TRIAL_MAX_PORTS; p++) {
			const struct trial_port *t = &to->plan.port[p];
			char k[8];

			snprintf(k, sizeof(k), "tx%u", p);
			envcap_port(e, k, t->tx_nsfd, t->tx_name, NULL, t->tx_nsfd < 0);
			snprintf(k, sizeof(k), "rx%u", p);
			envcap_port(e, k, t->rx_nsfd, t->rx_name, NULL, t->rx_nsfd < 0);
		}
	}
	if (to->plan.nports > 1)
		envcap_kv_set(e, "run.ports", "%u", to->plan.nports);
	if (to->ses.dut) {
		env_dut(e, to->ses.dut);
		if (to->ses.dut_applied[0])
			envcap_kv_set(e, "dut.applied", "%s", to->ses.dut_applied);
		if (to->req.dut_place)
			envcap_kv_set(e, "dut.placement", "%s",
				   (const char *[]){ "keep", "bound", "split", "free" }[to->req.dut_place]);
		if (to->req.dut_rules_set)
			envcap_kv_set(e, "dut.rules", "%u", to->req.dut_rules);
	}
	envcap_kv_set(e, "run.flows", "%u", frame_flows_count(&to->plan.cfg.flows));
	envcap_kv_set(e, "run.directions", "%u", to->plan.cfg.ndirs);
	envcap_kv_set(e, "run.port_type", "%s", app_trial_plan_path(to));
	envcap_kv_set(e, "run.analyzer", "%s", to->plan.cfg.xdp_rx ? "xdp" : port_type_name(to->plan.cfg.port_type));
	envcap_kv_set(e, "run.family", "%s", to->plan.ipv6 ? "ipv6" : "ipv4");
	if (to->plan.line_bps > 0)
		envcap_kv_set(e, "run.line_bps", "%.0f", to->plan.line_bps);
	/* rfc2544's load classification: in the config (so reports tell
	 * the runs apart) only when it is not one trial per load. */
	if (s->rfc2544.trial_ns) {
		envcap_kv_set(e, "run.exceed_ratio", "%g", s->rfc2544.exceed_ratio);
		if (s->rfc2544.duration_sum_ns > s->rfc2544.trial_ns)
			envcap_kv_set(e, "run.duration_sum", "%gs", (double)s->rfc2544.duration_sum_ns / NSEC_PER_SEC);
	}
	if (s->rfc2544.want_sut)
		keep_sut(s, e);
	ri->where = to->plan.where;
	ri->line_bps = to->plan.line_bps;
	rc = s->ses.db ? begin_with(s, e, kv, ri, err, errlen) : 0;
	free(kv);
	free(e);
	return rc;
}

void app_run_store_release(struct run_store *s)
{
	free(s->ses.sut);
	s->ses.sut = NULL;
}

int app_run_store_stream_begin(struct run_store *s, const struct app_stream_info *si, struct db_run_info *ri,
			   char *err, size_t errlen)
{
	struct envcap *e;
	struct db_kv *kv;
	char e2[256];
	int rc;

	if (!s->ses.db)
		return 0;
	if ((rc = env_new(&e, &kv, err, errlen)))
		return rc;
	if (si->lab && envcap_lab(e, si->lab, e2, sizeof(e2)))
		envcap_kv_set(e, "lab.error", "%s", e2);
	if (si->dut)
		env_dut(e, si->dut);
	envcap_kv_set(e, "run.message_size", "%u", si->size);
	envcap_kv_set(e, "run.senders", "%u", si->senders);
	envcap_kv_set(e, "run.dut_end", "%s", si->dut_end ? si->dut_end : "none");
	if (si->rate_pps > 0)
		envcap_kv_set(e, "run.rate_pps", "%.0f", si->rate_pps);
	if (si->cpus[0])
		envcap_kv_set(e, "run.sender_cpus", "%s", si->cpus);
	if (si->server_cpu >= 0)
		envcap_kv_set(e, "run.server_cpu", "%d", si->server_cpu);
	ri->where = si->where;
	rc = begin_with(s, e, kv, ri, err, errlen);
	free(kv);
	free(e);
	return rc;
}

void app_run_store_stream_trial(const struct stream_result *r, unsigned int size, unsigned int senders,
			    unsigned int rep, const struct cpucost_result *cr, struct db_trial *t, struct db_stream *x,
			    struct db_prof_entry *prof)
{
	uint64_t fwd = r->recv + r->drops;

	*x = (struct db_stream){ .senders = senders, .sent_bytes = r->sent_bytes, .recv_bytes = r->recv_bytes,
				 .send_ns = r->send_ns, .recv_ns = r->recv_ns, .errors = r->errors, .drops = r->drops,
				 .send_cpus = r->send_cpu.ncpus, .recv_cpus = r->recv_cpu.ncpus,
				 .send_busy_pct = 100 * r->send_cpu.busy, .recv_busy_pct = 100 * r->recv_cpu.busy };
	/* messages for frames: what was sent, what the server received */
	*t = (struct db_trial){ .size = size, .test = 'x', .repeat = rep,
			      .load = r->send_ns ? (double)r->sent / ((double)r->send_ns / NSEC_PER_SEC) : 0,
			      .duration_s = (double)r->send_ns / NSEC_PER_SEC, .tx = r->sent, .rx = r->recv,
			      .stream = x };
	if (cr && cr->valid) {
		t->cpu_valid = true;
		t->cpu_busy_pct = cr->busy_cpu_s / cr->seconds * 100;
		t->cpu_soak_pct = cr->soak_cpu_s >= 0 ? cr->soak_cpu_s / cr->seconds * 100 : -1;
		/* per datagram the DUT forwarded: received, or dropped by the
		 * full receiving socket past it */
		t->ns_per_frame = fwd ? cr->ns_per_frame : 0;
		t->cpu_source = cr->source;
		t->soak_trusted = cr->soak_checked ? (cr->soak_trusted ? 1 : -1) : 0;
		t->soak_note = cr->soak_reason;
		app_run_store_profile(cr->profiled ? &cr->profile : NULL, t, prof);
	}
}

int app_run_store_trial(struct run_store *s, const struct db_trial *t, char *err, size_t errlen)
{
	if (!s->ses.db || !s->ses.run_id)
		return 0;
	return db_trial_add(s->ses.db, s->ses.run_id, t, err, errlen);
}

int app_run_store_end(struct run_store *s, const char *status, const char *headline, char *err, size_t errlen)
{
	int rc = 0;

	if (s->ses.db && s->ses.run_id)
		rc = db_run_end(s->ses.db, s->ses.run_id, status, headline, err, errlen);
	db_close(s->ses.db);
	s->ses.db = NULL;
	return rc;
}

void app_run_store_end_say(struct run_store *s, const char *status, const char *headline,
			   const struct app_cli_hooks *cli)
{
	char err[512];
	int64_t id = s->ses.run_id;

	if (app_run_store_end(s, status, headline, err, sizeof(err)))
		app_cli_hooks_say(cli, APP_SAY_WARNING, "run %lld not marked %s in %s: %s", (long long)id, status,
				  s->ses.path, err);
}

void app_run_store_profile(const struct profile_result *p, struct db_trial *t, struct db_prof_entry *e)
{
	if (!p || !p->valid)
		return;
	t->prof_samples = p->samples;
	t->prof_hz = p->hz;
	t->prof_busy_pct = p->busy_pct;
	t->prof_softirq_pct = p->softirq_pct;
	for (unsigned int i = 0; i < p->n; i++)
		e[i] = (struct db_prof_entry){ p->e[i].sym, p->e[i].pct, p->e[i].samples };
	t->prof = e;
	t->nprof = p->n;
}

int app_run_store_rfc2544_trial(void *arg, const struct rfc2544_trial *rt, char *err, size_t errlen)
{
	struct db_prof_entry prof[PROFILE_TOP_MAX];
	struct db_trial t = { .size = rt->size, .test = rt->test, .repeat = rt->repeat, .load = rt->load,
			      .duration_s = (double)rt->duration_ns / NSEC_PER_SEC, .tx = rt->tx, .rx = rt->rx,
			      .tester_limited = rt->tester_limited, .cpu_valid = rt->cpu_valid,
			      .cpu_busy_pct = rt->cpu_busy_pct, .cpu_soak_pct = rt->cpu_soak_pct,
			      .soak_trusted = rt->soak_trusted,
			      .ns_per_frame = rt->ns_per_frame, .cpu_source = rt->cpu_source,
			      .loss = rt->loss, .nloss = rt->nloss,
			      .traffic_s = (double)rt->elapsed_ns / NSEC_PER_SEC };

	app_run_store_profile(rt->profile, &t, prof);
	return app_run_store_trial(arg, &t, err, errlen);
}

/* Every repeat of the row's search; the tests that run once per size go
 * with repeat 0. */
static int store_row(struct run_store *s, const struct rfc2544_row *row, char *err, size_t errlen)
{
	struct db_loss_step loss[RFC2544_MAX_STEPS];
	int rc = 0;

	for (unsigned int i = 0; i < row->nloss; i++)
		loss[i] = (struct db_loss_step){ row->loss[i].pct, row->loss[i].load, row->loss[i].tx,
						 row->loss[i].rx, row->loss[i].loss_pct, row->loss[i].tester_limited };
	for (unsigned int i = 0; i < row->nrep && !rc; i++) {
		const struct search_outcome *o = &row->rep[i];
		struct rfc2544_goal_result gr[GOAL_MAX];
		struct db_goal_result dg[GOAL_MAX];
		char spec[GOAL_MAX][64];
		struct db_result r = {
			.size = row->size, .repeat = i, .max_load = row->max_load,
			/* any cap but the line rate: a pass there is "at least"
			 * (store/report_db.c reads bounds from this and the uppers) */
			.max_is_ceiling = row->max_from != RFC2544_MAX_LINE,
			.ndr_valid = o->ndr.lower_valid, .ndr_lower = o->ndr.lower,
			.ndr_upper = o->ndr.upper_valid ? o->ndr.upper : NAN,
			.pdr_valid = o->pdr.lower_valid, .pdr_lower = o->pdr.lower,
			.pdr_upper = o->pdr.upper_valid ? o->pdr.upper : NAN,
			/* the NDR's own: a PDR the tester stopped says nothing of it */
			.at_max = o->ndr.at_max, .tester_capped = rfc2544_bound_note(row, o, false, NULL, 0),
			.noisy = o->ndr.noisy || o->pdr.noisy, .search_done = o->done,
			.search_trials = o->trials, .width_pps = s->rfc2544.precision * row->max_load,
			.ns_per_frame = row->rep_ns_per_frame[i] > 0 ? row->rep_ns_per_frame[i] : NAN,
			.b2b_avg = NAN, .b2b_min = NAN, .b2b_max = NAN,
		};

		for (unsigned int k = 0; k < s->rfc2544.ngoals && k < GOAL_MAX; k++) {
			struct search_goal bare = s->rfc2544.goals[k];

			bare.name[0] = '\0';
			goal_format(&bare, spec[k], sizeof(spec[k]));
			rfc2544_goal_result(row, rfc2544_set_outcome(row, i, s->rfc2544.goal_set ? s->rfc2544.goal_set[k] : 0),
					    s->rfc2544.goal_slot ? s->rfc2544.goal_slot[k] : -1, &s->rfc2544.goals[k], &gr[k]);
			dg[k] = (struct db_goal_result){ .name = s->rfc2544.goals[k].name, .spec = spec[k], .rlb = gr[k].rlb,
							 .rub = gr[k].rub, .cond = gr[k].cond,
							 .irregular = gr[k].irregular };
			r.ngoals = k + 1;
		}
		r.goals = dg;
		if (i == 0) {
			r.have_lat = row->lat_frames > 0;
			r.lat_load = row->lat_load;
			r.lat_frames = row->lat_frames;
			r.lat_min = (double)row->lat_min;
			r.lat_median = (double)row->lat_median;
			r.lat_p99 = (double)row->lat_p99;
			r.lat_p999 = (double)row->lat_p999;
			r.lat_max = (double)row->lat_max;
			if (row->b2b_runs) {
				r.b2b_avg = row->b2b_avg;
				r.b2b_min = row->b2b_min;
				r.b2b_max = row->b2b_max;
				r.b2b_runs = row->b2b_runs;
			}
			r.loss = loss;
			r.nloss = row->nloss;
		}
		rc = db_result_add(s->ses.db, s->ses.run_id, &r, err, errlen);
	}
	/* Frame loss or back-to-back alone: no search, still a row. */
	if (!rc && !row->nrep && (row->nloss || row->b2b_runs)) {
		struct db_result r = { .size = row->size, .max_load = row->max_load,
				       .max_is_ceiling = row->max_is_ceiling, .width_pps = NAN, .ns_per_frame = NAN,
				       .b2b_avg = row->b2b_runs ? row->b2b_avg : NAN,
				       .b2b_min = row->b2b_runs ? row->b2b_min : NAN,
				       .b2b_max = row->b2b_runs ? row->b2b_max : NAN, .b2b_runs = row->b2b_runs,
				       .ndr_upper = NAN, .pdr_upper = NAN, .loss = loss, .nloss = row->nloss };

		rc = db_result_add(s->ses.db, s->ses.run_id, &r, err, errlen);
	}
	return rc;
}

int app_run_store_rfc2544_row(void *arg, const struct rfc2544_row *row, char *err, size_t errlen)
{
	struct run_store *s = arg;
	int rc;

	if (!s->ses.db || !s->ses.run_id)
		return 0;
	if (!(rc = store_row(s, row, err, errlen)))
		s->ses.rows_stored++;
	return rc;
}

int app_run_store_rfc2544_finish(struct run_store *s, const struct rfc2544_result *res, char *headline,
			  size_t len, char *err, size_t errlen)
{
	size_t off = 0;
	int rc = 0;

	headline[0] = '\0';
	for (unsigned int i = 0; i < res->nrows && off < len; i++) {
		const struct rfc2544_row *row = &res->row[i];

		if (!row->ndr_valid)
			continue;
		off += (size_t)snprintf(headline + off, len - off, "%s%u:%.4gk", off ? " " : "NDR ", row->size,
					row->ndr_med / 1e3);
	}
	if (off && off < len)
		snprintf(headline + off, len - off, " f/s");
	if (!s->ses.db || !s->ses.run_id)
		return 0;
	for (unsigned int i = s->ses.rows_stored; i < res->nrows && !rc; i++)
		if (res->row[i].nrep || res->row[i].nloss || res->row[i].b2b_runs)
			rc = store_row(s, &res->row[i], err, errlen);
	s->ses.rows_stored = res->nrows;
	return rc;
}

int app_run_store_rfc2544_begin(struct run_store *s, const struct trial_setup *to, const struct app_rfc2544_opts *o,
			  const struct app_rfc2544_plan *plan, struct rfc2544_cfg *cfg, char *err, size_t errlen)
{
	char sizes[160], test[64], names[48];
	struct db_run_info ri = { .test = test, .sizes = sizes, .repeats = (unsigned int)o->repeat,
				  .precision = o->precision, .pdr_ratio = o->pdr };
	int rc;

	app_rfc2544_plan_sizes_text(o, sizes, sizeof(sizes));
	app_rfc2544_plan_tests_text(o->tests, false, names, sizeof(names));
	snprintf(test, sizeof(test), "rfc2544 %s", names);
	s->rfc2544.precision = o->precision;
	s->rfc2544.exceed_ratio = o->exceed;
	s->rfc2544.duration_sum_ns = plan->dsum_ns;
	s->rfc2544.trial_ns = plan->final_ns;
	s->rfc2544.goals = plan->goal;
	s->rfc2544.goal_set = plan->goal_set;
	s->rfc2544.goal_slot = plan->goal_slot;
	s->rfc2544.ngoals = plan->ngoal;
	s->rfc2544.want_sut = true;
	if ((rc = app_run_store_begin(s, to, &ri, err, errlen)))
		return rc;
	cfg->on_trial = app_run_store_rfc2544_trial;
	cfg->on_row = app_run_store_rfc2544_row;
	cfg->hook_ctx = s;
	return 0;
}
