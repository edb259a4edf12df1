/* 'wirerate calibrate''s result below the trial's header: its two steps
 * (flat out, paced at 90%), where the host had the generator's and the
 * analyzer's CPUs, the pacing error and the ceiling stored; text and JSON
 * from the same calls. */
#ifndef WR_RENDER_CALIBRATE_PRINT_H
#define WR_RENDER_CALIBRATE_PRINT_H

#include "app/calibrate.h"
#include "render/out.h"

void calibrate_print_report(struct out *o, const struct calib_report *c);

#endif
