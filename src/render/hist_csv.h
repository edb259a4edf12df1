/* A latency histogram (core/hist.h) as CSV: one row per non-empty bucket,
 * "REPEAT,DIRECTION,LO_NS,HI_NS,COUNT,CUMULATIVE" where LO..HI are the
 * bucket's values in ns (one value below 128 ns, 1/64 of a power of two
 * above) and CUMULATIVE the share of the direction's timed frames at or
 * below HI (the last row 1). hist_csv_header writes the column line. */
#ifndef WR_RENDER_HIST_CSV_H
#define WR_RENDER_HIST_CSV_H

#include <stdio.h>

#include "core/hist.h"

void hist_csv_header(FILE *f);
void hist_csv_rows(FILE *f, const struct hist *h, unsigned int repeat, unsigned int dir);

#endif
