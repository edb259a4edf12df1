/* 'wirerate calibrate''s result below the trial's header: its two steps
 * (flat out, paced at 90%), where the host had the generator's and the
 * analyzer's CPUs, the pacing error and the ceiling stored; text and JSON
 * from the same calls. */
#ifndef WR_RENDER_CALIBPRINT_H
#define WR_RENDER_CALIBPRINT_H

#include "app/calibrate.h"
#include "render/out.h"

void calibprint_report(struct out *o, const struct calib_report *c);

#endif
