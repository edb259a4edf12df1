/* A traffic command's options resolved against the host: the lab (its
 * lock and namespaces) or the cabled ports, their MACs and link speed,
 * the rate in frames/s, the generator's path; then the trial checked. */
#ifndef WR_APP_TRIAL_PLAN_H
#define WR_APP_TRIAL_PLAN_H

#include <stddef.h>

#include "app/trial_setup.h"

/* Open the ports' namespaces, read link speed, turn the rate into frames/s
 * and check the whole trial. -EINVAL: bad input; other: the host failed. */
int app_trial_plan_resolve(struct trial_setup *o, char *err, size_t errlen);
/* The lab's lock and the namespaces, given back; may be called twice. */
void app_trial_plan_release(struct trial_setup *o);
/* The generator's path: "xdp", "afxdp", "afpacket" or "mmsg". */
const char *app_trial_plan_path(const struct trial_setup *o);
/* The calibration file's key for this tester: the path, with the number
 * of generator threads after a '*' when there are several ("xdp*2"):
 * two threads reach a ceiling one does not. */
void app_trial_plan_calib_key(const struct trial_setup *o, char *buf, size_t len);

#endif
