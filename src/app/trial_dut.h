/* The DUT side of a traffic command: which DUT (--dut, else the lab when
 * its ports are used, else this host when --watch-cpus names CPUs), its
 * agent opened for the run, what the run changes on it, and the watch of
 * its CPUs on each trial. */
#ifndef WR_APP_TRIAL_DUT_H
#define WR_APP_TRIAL_DUT_H

#include <stddef.h>

#include "app/trial_setup.h"

struct cpucost;
struct rfc2544_cfg;

/* After app_trial_plan_resolve: open the DUT's agent (none: o->dut stays
 * NULL), default the CPUs to watch to the DUT's, apply --dut-placement and
 * --dut-rules, and add the DUT to o->where. -errno with a reason;
 * app_trial_plan_release closes it, restoring what was applied. */
int app_trial_dut_open(struct trial_setup *o, char *err, size_t errlen);
/* Restore and close; may be called twice. */
void app_trial_dut_close(struct trial_setup *o);
/* The watch of the DUT's CPUs for one trial, or NULL when there is no
 * DUT to watch. -errno with a reason (--soak without a calibration on the
 * DUT, ...). */
int app_trial_dut_cpucost(const struct trial_setup *o, struct cpucost **cost, char *err, size_t errlen);
/* rfc2544's DUT side in cfg: the DUT and the CPUs each trial watches
 * (checked now, by opening one watch), the soak and the profile. */
int app_trial_dut_watch(const struct trial_setup *o, struct rfc2544_cfg *cfg, char *err, size_t errlen);

#endif
