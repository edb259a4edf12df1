/* A report model printed: the text tables or JSON (every figure), from
 * the same calls. */
#ifndef WR_RENDER_REPORT_PRINT_H
#define WR_RENDER_REPORT_PRINT_H

#include "render/out.h"
#include "store/report_model.h"

/* Text (the tables) or JSON (every figure), from the same calls. */
void report_print(struct out *o, const struct report_model *m);

#endif
