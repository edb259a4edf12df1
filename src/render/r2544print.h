/* Whether an RFC 2544 run's sizes tell one story (r2544_agree), in text
 *   "  sizes      PDR agree: every size forwards 650112-662040 frames/s ..."
 * with a line under it for each size below the others, and in JSON an
 * object "sizes": {ndr: {...}, pdr: {...}}. */
#ifndef WR_RENDER_R2544PRINT_H
#define WR_RENDER_R2544PRINT_H

#include "engine/rfc2544.h"
#include "render/out.h"

/* Nothing when fewer than two sizes have a figure. */
void r2544_agree_print(struct out *o, const struct r2544_result *res);

#endif
