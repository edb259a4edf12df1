/* 'report --trend' as text or JSON (the model: store/trend_model.h). */
#ifndef WR_RENDER_TREND_PRINT_H
#define WR_RENDER_TREND_PRINT_H

#include <stdbool.h>

#include "render/out.h"
#include "store/trend_model.h"

/* fail_pct < 0: no --fail-on-regression; regression: the last change is
 * worse than the group before by more than fail_pct. */
void trend_print(struct out *o, const struct trend *t, double fail_pct, bool regression);

/* What differed across change c: the "differed" array and "more", and
 * in text the keys, steady ones first ("nothing ... differed" when none). */
void trend_print_differed(struct out *o, const struct trend_change *c);

#endif
