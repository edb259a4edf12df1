/* The report command's hooks as it runs (app_report_hooks, ctx a struct
 * reportrunprint): the page written to its file, then the report or the
 * trend on stdout, as CSV, text or JSON, with the page's name. */
#ifndef WR_RENDER_REPORTRUNPRINT_H
#define WR_RENDER_REPORTRUNPRINT_H

#include <stdbool.h>

#include "app/report.h"
#include "render/out.h"

struct reportrunprint {
	/* the output for text or JSON, made when the report is written */
	struct out *(*create)(bool json, const char *command);
};

extern const struct app_report_hooks reportrunprint_hooks;

#endif
