/* The DUT CPU block of a trial's result (engine/cpucost.h): per CPU
 * mpstat's columns, the soak and its idle check, the stall probe, and the
 * CPU time per forwarded frame; text and JSON from the same calls. */
#ifndef WR_RENDER_CPUPRINT_H
#define WR_RENDER_CPUPRINT_H

#include "engine/cpucost.h"
#include "render/out.h"

void cpucost_print(struct out *out, const struct cpucost_result *r);

#endif
