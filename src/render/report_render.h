/* A report model rendered: the text tables or JSON (from the same calls),
 * CSV, and the self-contained HTML page with its SVG charts. */
#ifndef WR_RENDER_REPORT_RENDER_H
#define WR_RENDER_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "render/out.h"
#include "store/report_model.h"

/* Text (the tables) or JSON (every figure), from the same calls. */
void report_print(struct out *o, const struct report_model *m);
/* One line per run and frame size, with a header. */
void report_print_csv(const struct report_model *m, FILE *f);
/* The frame loss test's steps: one line per run, frame size and offered
 * load (from the maximum load down, step 1 first), with a header. */
void report_print_csv_loss(const struct report_model *m, FILE *f);

/* One self-contained HTML page (inline CSS and SVG, no scripts, no
 * fetches): the tables and the charts (throughput vs frame size per run,
 * loss vs offered load, latency percentiles, CPU per frame). 0 or -errno
 * with a reason in err. */
int html_report_write(const struct report_model *m, FILE *f, char *err, size_t errlen);

/* The same kind of page for report --trend: the series as a chart with
 * its groups' means and its changes marked, and a table of the changes
 * with what differed. */
struct trend;
int html_trend_write(const struct trend *t, FILE *f, char *err, size_t errlen);

/* The two pages to a file: written beside path and renamed over it. 0, or
 * -errno with the reason in err. */
int html_file_report(const char *path, const struct report_model *m, char *err, size_t errlen);
int html_file_trend(const char *path, const struct trend *t, char *err, size_t errlen);

#endif
