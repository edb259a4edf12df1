/* The options every traffic command shares (trial, calibrate, rfc2544):
 * ports (the lab or cabled interfaces), sizes, flows, rate, timing, CPUs. */
#ifndef WR_CLI_TRIALOPT_H
#define WR_CLI_TRIALOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <net/if.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/units.h"
#include "engine/cpucost.h"
#include "engine/trial.h"
#include "render/out.h"
#include "lab/lab.h"
#include "app/trialcfg.h"

#define TRIALOPT_IMIX_DEFAULT "64:7,570:4,1518:1"

/* The traffic options (ports, traffic, timing, tester, DUT CPU cost): a
 * table for opt_parse whose ctx is a struct trialopt. */
extern const struct opt trialopt_opts[];
/* The defaults, before parsing. */
void trialopt_init(struct trialopt *o);
/* After parsing: the checks across options, the defaults that depend on
 * others; --rate is required unless default_rate is given. 0, or -EINVAL
 * with a one-line reason in err. */
int trialopt_check(struct trialopt *o, const char *default_rate, char *err, size_t errlen);

/* The DUT's CPU watch for a trial, or NULL when there is nothing to watch;
 * -errno with a reason (soak asked for but not calibrated, ...). */
int trialopt_cpucost(const struct trialopt *o, struct cpucost **cost, char *err, size_t errlen);
/* The DUT CPU block of a result. */
void cpucost_print(struct out *out, const struct cpucost_result *r);
/* Flag directions whose target is above the tester's calibrated ceiling
 * for this port type and size; returns the ceiling (0: none known). */
double trialopt_check_ceiling(const struct trialopt *o, struct trial_result *res);
void trialopt_print_header(struct out *out, const struct trialopt *o, const struct trial_result *res);

void trial_print_dir(struct out *o, const struct trial_dir_result *d, double frame_size,
		     double line_bps, const char *label);

#endif
