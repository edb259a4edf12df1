/* The gate's verdict printed: text, JSON, or KTAP, and its KCIDB file
 * (render/ktap_print.c and render/kcidb_print.c write the formats). */
#ifndef WR_RENDER_GATE_PRINT_H
#define WR_RENDER_GATE_PRINT_H

#include <stdbool.h>

#include "app/gate_run.h"
#include "render/out.h"

struct gate_print {
	/* the output for text or JSON, made when the verdict is written */
	struct out *(*create)(bool json, const char *command);
};

extern const struct app_gate_hooks gate_print_hooks;

/* "no regression", "regression", "cannot tell". */
const char *gate_print_verdict_name(enum app_gate_verdict v);

/* The points of s as text or JSON under "points" (the verdict and the
 * runs are the caller's). */
void gate_print_points(struct out *o, const struct testpoint_set *s);

/* s as a KCIDB document to k->path, written beside it and renamed over
 * it: 0, or -errno with err. */
int gate_print_kcidb_file(const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err, size_t errlen);

#endif
