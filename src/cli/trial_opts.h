/* The options every traffic command shares (trial, calibrate, rfc2544):
 * ports (the lab or cabled interfaces), sizes, flows, rate, timing, CPUs. */
#ifndef WR_CLI_TRIAL_OPTS_H
#define WR_CLI_TRIAL_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <net/if.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/units.h"
#include "engine/cpucost.h"
#include "engine/trial.h"
#include "lab/lab.h"
#include "app/trial_setup.h"

#define TRIAL_OPTS_IMIX_DEFAULT "64:7,570:4,1518:1"

/* The traffic options (ports, traffic, timing, tester, DUT CPU cost): a
 * table for opt_parse whose ctx is a struct trial_setup (app_trial_check_defaults
 * before parsing, app_trial_check after: app/trial_check.h). */
extern const struct opt trial_opts[];

/* --next-hop, --rx-next-hop (src/cli/trial_opts_nexthop.c): the setter; the
 * checks against the other options are app_trial_check's. */
int trial_opts_nexthop_set(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);

#endif
