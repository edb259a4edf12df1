#include "app/trial_dut.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dut/dut.h"
#include "dut/envcap.h"
#include "engine/cpucost.h"
#include "engine/rfc2544.h"
#include "lab/lab.h"

int app_trial_dut_open(struct trial_setup *o, char *err, size_t errlen)
{
	struct dut_target t = o->plan.dut_t;
	const char *lab_ports[2 * TRIAL_MAX_PORTS];
	const char *const *ports = o->req.dut_ports;
	unsigned int nports = o->req.ndut_ports;
	const struct envcap *env;
	const char *v;
	char list[64];
	size_t n;
	int rc;

	if (o->ses.dut)
		return 0;
	if (!o->plan.dut_t.given) {
		if (o->plan.lab) {
			t.kind = DUT_LAB;
			snprintf(t.prefix, sizeof(t.prefix), "%s", o->plan.prefix);
		} else if (cpuset_count(&o->plan.watch)) {
			t.kind = DUT_LOCAL;	/* the watch of this host's CPUs, as before --dut */
		} else {
			if (o->plan.soak || o->plan.stall_probe || o->plan.profile) {
				snprintf(err, errlen, "--%s: name the DUT with --dut (or its CPUs on this host with --watch-cpus)",
					 o->plan.soak ? "soak" : o->plan.stall_probe ? "stall-probe" : "profile");
				return -EINVAL;
			}
			return 0;
		}
	}
	if (t.kind == DUT_LAB) {
		/* every path's ingress and egress (resolved before this) */
		for (unsigned int p = 0; p < o->plan.nports && p < TRIAL_MAX_PORTS; p++) {
			lab_ports[2 * p] = lab_path_if(p, LAB_DUT0)->ifname;
			lab_ports[2 * p + 1] = lab_path_if(p, LAB_DUT1)->ifname;
		}
		ports = lab_ports;
		nports = 2 * (o->plan.nports ? o->plan.nports : 1);
		t.avoid = o->plan.watch;	/* the lab's DUT CPUs, from its status */
	}
	if ((rc = dut_open(&t, ports, nports, &o->ses.dut, err, errlen)))
		return rc;
	/* The DUT's counters around each trial say where lost frames went:
	 * its ports in pairs, port pair p's ingress then its egress. */
	if (nports >= 2 && !o->plan.direct) {
		o->plan.cfg.dut = (struct trial_dut){ .on = true, .lab = t.kind == DUT_LAB, .agent = o->ses.dut,
						 .cpus = o->plan.watch };
		for (unsigned int i = 0; i < nports && i < 2 * TRIAL_MAX_PORTS; i++)
			o->plan.cfg.dut.ifnames[i] = ports[i];
	}
	env = dut_env(o->ses.dut);
	/* A DUT of its own is watched on every CPU it has unless told. */
	if (!cpuset_count(&o->plan.watch) && (v = envcap_kv_get(env, "dut.cpu.online")) &&
	    cpuset_parse_list(v, &o->plan.watch, err, errlen)) {
		app_trial_dut_close(o);
		return -EPROTO;
	}
	if (o->req.dut_place || o->req.dut_rules_set) {
		struct dut_apply a = { .placement = (enum dut_placement)o->req.dut_place, .cpus = o->plan.watch,
				       .rules_set = o->req.dut_rules_set, .rules = o->req.dut_rules };

		if ((rc = dut_apply(o->ses.dut, &a, o->ses.dut_applied, sizeof(o->ses.dut_applied), err, errlen))) {
			app_trial_dut_close(o);
			return rc;
		}
	}
	if (t.kind != DUT_LAB) {
		n = strlen(o->plan.where);
		cpuset_format_list(&o->plan.watch, list, sizeof(list));
		snprintf(o->plan.where + n, sizeof(o->plan.where) - n, "%sDUT %s (kernel %s, CPUs %s%s%s)", n ? "; " : "",
			 dut_name(o->ses.dut), (v = envcap_kv_get(env, "dut.kernel.release")) ? v : "?", list,
			 o->ses.dut_applied[0] ? "; " : "", o->ses.dut_applied);
	}
	return 0;
}

void app_trial_dut_close(struct trial_setup *o)
{
	memset(&o->plan.cfg.dut, 0, sizeof(o->plan.cfg.dut));
	/* dut_close says bye, which restores; the agent restores on its own
	 * if that fails. */
	dut_close(o->ses.dut);
	o->ses.dut = NULL;
}

int app_trial_dut_cpucost(const struct trial_setup *o, struct cpucost **cost, char *err, size_t errlen)
{
	int rc;

	*cost = NULL;
	if (!o->ses.dut || !cpuset_count(&o->plan.watch))
		return 0;
	rc = cpucost_create(o->ses.dut, &o->plan.watch, o->plan.soak, o->plan.dut_t.kind == DUT_SSH ? NULL : o->plan.soak_path, cost, err,
			    errlen);
	if (!rc && o->plan.stall_probe && (rc = cpucost_stall_probe(*cost, err, errlen))) {
		cpucost_destroy(*cost);
		*cost = NULL;
	}
	if (!rc && o->plan.profile)
		cpucost_profile(*cost, o->plan.profile_hz, o->plan.profile_top);
	return rc;
}

int app_trial_dut_watch(const struct trial_setup *o, struct rfc2544_cfg *cfg, char *err, size_t errlen)
{
	struct cpucost *probe = NULL;
	int rc;

	if ((rc = app_trial_dut_cpucost(o, &probe, err, errlen)))
		return rc;
	cpucost_destroy(probe);
	cfg->watch = o->plan.watch;
	cfg->dut = o->ses.dut;
	cfg->soak = o->plan.soak;
	cfg->profile = o->plan.profile;
	cfg->profile_hz = o->plan.profile_hz;
	cfg->profile_top = o->plan.profile_top;
	cfg->soak_path = o->plan.dut_t.kind == DUT_SSH ? NULL : o->plan.soak_path;
	return 0;
}
