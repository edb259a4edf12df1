/* A bisection as text or JSON: its steps as they go (text only), and its
 * log: every candidate measured or skipped with its verdict and figures,
 * and the result, with what differed in the environment across it. */
#ifndef WR_RENDER_BISECT_PRINT_H
#define WR_RENDER_BISECT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "app/bisect_run.h"
#include "render/out.h"

/* The bisection's first line (text only). */
void bisect_print_begin(FILE *f, const struct app_bisect *b, bool resumed);
/* A bisection's run as it prints, app_bisect's hooks (bisect_print_hooks,
 * ctx a struct bisect_print_run): each step's line on stdout, candidate
 * i and what happens to it, in text only. */
struct bisect_print_run {
	bool json;
};

extern const struct app_bisect_hooks bisect_print_hooks;
/* The whole state; diff NULL when nothing was found to explain. */
void bisect_print_log(struct out *o, const struct app_bisect *b, const struct trend_change *diff);

#endif
