/* A report model as one self-contained HTML page. */
#ifndef WR_RENDER_HTML_H
#define WR_RENDER_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "store/report_model.h"

/* One self-contained HTML page (inline CSS and SVG, no scripts, no
 * fetches): the tables and the charts (throughput vs frame size per run,
 * loss vs offered load, latency percentiles, CPU per frame). 0 or -errno
 * with a reason in err. */
int html_report_write(const struct report_model *m, FILE *f, char *err, size_t errlen);

#endif
