/* A report model as CSV. */
#ifndef WR_RENDER_REPORT_PRINT_CSV_H
#define WR_RENDER_REPORT_PRINT_CSV_H

#include <stdio.h>

#include "store/report_model.h"

/* One line per run and frame size, with a header. */
void report_print_csv(const struct report_model *m, FILE *f);
/* The frame loss test's steps: one line per run, frame size and offered
 * load (from the maximum load down, step 1 first), with a header. */
void report_print_csv_loss(const struct report_model *m, FILE *f);

#endif
