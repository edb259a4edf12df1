/* The traffic options' defaults and rules, for every command that offers
 * traffic (trial, calibrate, rfc2544): which options go together, the
 * port pairs of --tx/--rx and the lists that go with them, the addresses
 * allowed, and what follows (the lab or cabled ports, IPv6's addresses
 * and smallest frame, the calibration files, the trial id). No host is
 * asked anything here: app/trial_plan.c resolves the result against it. */
#ifndef WR_APP_TRIAL_CHECK_H
#define WR_APP_TRIAL_CHECK_H

#include <stddef.h>

#include "app/trial_setup.h"

/* Nothing given: the lab's ports, 64-byte frames, a 10 s trial, the
 * benchmarking addresses. */
void app_trial_check_defaults(struct trial_setup *o);

/* v as a list "A,B,..." of at most TRIAL_MAX_PORTS items (each under 96
 * characters, none empty) into items; name is the option's, for err. */
int app_trial_check_list(const char *name, const char *v, char items[][96], unsigned int *n, char *err, size_t errlen);

/* The plan made from the request: o->plan.g starts as o->req.g and is
 * checked against the request's other options and completed
 * (default_rate: the rate when none is given, NULL: --rate is
 * required); the request is not written. 0, or -EINVAL with the reason. */
int app_trial_check(struct trial_setup *o, const char *default_rate, char *err, size_t errlen);

#endif
