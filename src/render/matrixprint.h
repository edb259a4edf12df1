/* 'wirerate matrix --json': the configurations, each with its label, its
 * run and its lab settings, and the report's document (which a child
 * wrote) inside. */
#ifndef WR_RENDER_MATRIXPRINT_H
#define WR_RENDER_MATRIXPRINT_H

#include <stdint.h>
#include <stdio.h>

#include "app/matrix.h"
#include "render/out.h"

void matrixprint_json(struct out *o, const struct app_matrix *m, const int64_t *run_ids, const char *mtag,
		      const char *prefix, FILE *report);

#endif
