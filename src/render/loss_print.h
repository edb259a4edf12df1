/* A direction's loss attribution (core/lossattr.h), in text one line
 *   "  loss       lost 59879: qdisc tbf on dut1 59879"
 * and in JSON an object "loss": {lost, counted, over, dut_counters,
 * note, places: [{place, detail, frames, shared}]}. */
#ifndef WR_RENDER_LOSS_PRINT_H
#define WR_RENDER_LOSS_PRINT_H

#include "core/lossattr.h"
#include "core/noisefloor.h"
#include "render/out.h"

/* note: why the DUT's counters are missing, or NULL. */
void loss_print_attr(struct out *o, const struct lossattr *a, const char *note);

/* What limited the trial (lossattr_limit): an object "limit": {by, text}
 * and a line "  limit      ...". */
void loss_print_limit(struct out *o, enum lossattr_limit_by by, const char *text);

/* The noise floor of one size, an object "noise_floor": {ndr_limited,
 * and when any trial lost: text, where, ppm_lo, ppm_hi, ppm,
 * reference_load, trials, lossy_trials, loads_with_loss, load_lo,
 * load_hi, elasticity, loads}. indent: the text lines' indent, NULL for
 * none (JSON only, as in a report). where: the place its loss went most,
 * or NULL/empty. */
void loss_print_noisefloor(struct out *o, const struct nf_result *nf, const char *where, const char *indent);

#endif
