/* The report command's hooks as it runs (app_report_hooks, ctx a struct
 * report_live): the page written to its file, then the report or the
 * trend on stdout, as CSV, text or JSON, with the page's name. */
#ifndef WR_RENDER_REPORT_LIVE_H
#define WR_RENDER_REPORT_LIVE_H

#include <stdbool.h>

#include "app/report.h"
#include "render/out.h"

struct report_live {
	/* the output for text or JSON, made when the report is written */
	struct out *(*create)(bool json, const char *command);
};

extern const struct app_report_hooks report_live_hooks;

#endif
