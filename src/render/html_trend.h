/* report --trend as an HTML page. */
#ifndef WR_RENDER_HTML_TREND_H
#define WR_RENDER_HTML_TREND_H

#include <stddef.h>
#include <stdio.h>

/* The same kind of page as html_report_write for report --trend: the
 * series as a chart with its groups' means and its changes marked, and a
 * table of the changes with what differed. */
struct trend;
int html_trend_write(const struct trend *t, FILE *f, char *err, size_t errlen);

#endif
