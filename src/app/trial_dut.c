#include "app/trial_dut.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dut/dut.h"
#include "dut/envcap.h"
#include "engine/cpucost.h"
#include "engine/rfc2544.h"
#include "lab/lab.h"

int app_trial_dut_open(struct trialopt *o, char *err, size_t errlen)
{
	struct dut_target t = o->dut_t;
	const char *lab_ports[2 * TRIAL_MAX_PORTS];
	const char *const *ports = o->dut_ports;
	unsigned int nports = o->ndut_ports;
	const struct envcap *env;
	const char *v;
	char list[64];
	size_t n;
	int rc;

	if (o->dut)
		return 0;
	if (!o->dut_t.given) {
		if (o->lab) {
			t.kind = DUT_LAB;
			snprintf(t.prefix, sizeof(t.prefix), "%s", o->prefix);
		} else if (cpuset_count(&o->watch)) {
			t.kind = DUT_LOCAL;	/* the watch of this host's CPUs, as before --dut */
		} else {
			if (o->soak || o->stall_probe || o->profile) {
				snprintf(err, errlen, "--%s: name the DUT with --dut (or its CPUs on this host with --watch-cpus)",
					 o->soak ? "soak" : o->stall_probe ? "stall-probe" : "profile");
				return -EINVAL;
			}
			return 0;
		}
	}
	if (t.kind == DUT_LAB) {
		/* every path's ingress and egress (resolved before this) */
		for (unsigned int p = 0; p < o->nports && p < TRIAL_MAX_PORTS; p++) {
			lab_ports[2 * p] = lab_path_if(p, LAB_DUT0)->ifname;
			lab_ports[2 * p + 1] = lab_path_if(p, LAB_DUT1)->ifname;
		}
		ports = lab_ports;
		nports = 2 * (o->nports ? o->nports : 1);
		t.avoid = o->watch;	/* the lab's DUT CPUs, from its status */
	}
	if ((rc = dut_open(&t, ports, nports, &o->dut, err, errlen)))
		return rc;
	/* The DUT's counters around each trial say where lost frames went:
	 * its ports in pairs, port pair p's ingress then its egress. */
	if (nports >= 2 && !o->direct) {
		o->cfg.dut = (struct trial_dut){ .on = true, .lab = t.kind == DUT_LAB, .agent = o->dut,
						 .cpus = o->watch };
		for (unsigned int i = 0; i < nports && i < 2 * TRIAL_MAX_PORTS; i++)
			o->cfg.dut.ifnames[i] = ports[i];
	}
	env = dut_env(o->dut);
	/* A DUT of its own is watched on every CPU it has unless told. */
	if (!cpuset_count(&o->watch) && (v = envcap_kv_get(env, "dut.cpu.online")) &&
	    cpuset_parse_list(v, &o->watch, err, errlen)) {
		app_trial_dut_close(o);
		return -EPROTO;
	}
	if (o->dut_place || o->dut_rules_set) {
		struct dut_apply a = { .placement = (enum dut_placement)o->dut_place, .cpus = o->watch,
				       .rules_set = o->dut_rules_set, .rules = o->dut_rules };

		if ((rc = dut_apply(o->dut, &a, o->dut_applied, sizeof(o->dut_applied), err, errlen))) {
			app_trial_dut_close(o);
			return rc;
		}
	}
	if (t.kind != DUT_LAB) {
		n = strlen(o->where);
		cpuset_format_list(&o->watch, list, sizeof(list));
		snprintf(o->where + n, sizeof(o->where) - n, "%sDUT %s (kernel %s, CPUs %s%s%s)", n ? "; " : "",
			 dut_name(o->dut), (v = envcap_kv_get(env, "dut.kernel.release")) ? v : "?", list,
			 o->dut_applied[0] ? "; " : "", o->dut_applied);
	}
	return 0;
}

void app_trial_dut_close(struct trialopt *o)
{
	memset(&o->cfg.dut, 0, sizeof(o->cfg.dut));
	/* dut_close says bye, which restores; the agent restores on its own
	 * if that fails. */
	dut_close(o->dut);
	o->dut = NULL;
}

int app_trial_dut_cpucost(const struct trialopt *o, struct cpucost **cost, char *err, size_t errlen)
{
	int rc;

	*cost = NULL;
	if (!o->dut || !cpuset_count(&o->watch))
		return 0;
	rc = cpucost_create(o->dut, &o->watch, o->soak, o->dut_t.kind == DUT_SSH ? NULL : o->soak_path, cost, err,
			    errlen);
	if (!rc && o->stall_probe && (rc = cpucost_stall_probe(*cost, err, errlen))) {
		cpucost_destroy(*cost);
		*cost = NULL;
	}
	if (!rc && o->profile)
		cpucost_profile(*cost, o->profile_hz, o->profile_top);
	return rc;
}

int app_trial_dut_watch(const struct trialopt *o, struct rfc2544_cfg *cfg, char *err, size_t errlen)
{
	struct cpucost *probe = NULL;
	int rc;

	if ((rc = app_trial_dut_cpucost(o, &probe, err, errlen)))
		return rc;
	cpucost_destroy(probe);
	cfg->watch = o->watch;
	cfg->dut = o->dut;
	cfg->soak = o->soak;
	cfg->profile = o->profile;
	cfg->profile_hz = o->profile_hz;
	cfg->profile_top = o->profile_top;
	cfg->soak_path = o->dut_t.kind == DUT_SSH ? NULL : o->soak_path;
	return 0;
}
