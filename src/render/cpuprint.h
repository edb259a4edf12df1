/* The DUT CPU block of a trial's result (engine/cpucost.h): per CPU
 * mpstat's columns, the soak and its idle check, the stall probe, and the
 * CPU time per forwarded frame; text and JSON from the same calls. */
#ifndef WR_RENDER_CPUPRINT_H
#define WR_RENDER_CPUPRINT_H

#include "engine/cpucost.h"
#include "render/out.h"

void cpucost_print(struct out *out, const struct cpucost_result *r);
/* A sampling profile (dut/profile.h) as the object "profile": "2997
 * samples at 999 Hz over 3.0 s: busy 60.2%, 55.1% of it in softirq; where
 * the busy time went:" and the top functions; p NULL or invalid: none,
 * and why. */
void profile_print(struct out *out, const struct profile_result *p, const char *why);

#endif
