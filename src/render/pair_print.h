/* pair's results printed: text, JSON or KTAP, and the KCIDB file. */
#ifndef WR_RENDER_PAIR_PRINT_H
#define WR_RENDER_PAIR_PRINT_H

#include <stdbool.h>

#include "app/pair_run.h"
#include "render/out.h"

struct pair_print {
	/* the output for text or JSON, made when the results are written */
	struct out *(*create)(bool json, const char *command);
};

extern const struct app_pair_hooks pair_print_hooks;

#endif
