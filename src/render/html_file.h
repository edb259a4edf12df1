/* The HTML pages written to a file. */
#ifndef WR_RENDER_HTML_FILE_H
#define WR_RENDER_HTML_FILE_H

#include <stddef.h>

#include "store/report_model.h"

/* The report's or the trend's page written beside path and renamed over
 * it. 0, or -errno with the reason in err. */
struct trend;
int html_file_report(const char *path, const struct report_model *m, char *err, size_t errlen);
int html_file_trend(const char *path, const struct trend *t, char *err, size_t errlen);

#endif
