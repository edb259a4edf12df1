/* What report_print.c (the text tables and the JSON document) and
 * report_print_json.c (each run's JSON object) share: not for use
 * outside src/render/report_print*.c. */
#ifndef WR_RENDER_REPORT_PRINT_IMPL_H
#define WR_RENDER_REPORT_PRINT_IMPL_H

#include <stdbool.h>

#include "render/out.h"
#include "store/report_model.h"

/* A run of the report as an object of its "runs" array: its facts, then
 * its cells with every figure; baseline: the run the others are compared
 * with. */
void report_print_json_run(struct out *o, const struct rm_run *run, bool baseline);

#endif
