/* What 'wirerate matrix' prints: in text, a line as it begins and one
 * per configuration (the tests print their own results in between), the
 * planned time on stderr; with --json, one document at the end: the
 * configurations, each with its label, its run and its lab settings, and
 * the report's document (which a child wrote) inside. */
#ifndef WR_RENDER_MATRIX_PRINT_H
#define WR_RENDER_MATRIX_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/matrix_plan.h"
#include "app/matrix_run.h"
#include "render/out.h"

/* The matrix's document: its tag, lab and order, each configuration
 * with its runs (in the order they ran), and the report's. */
void matrix_print_json(struct out *o, const struct app_matrix_run *r, FILE *report);

/* The matrix's first line: nconf configurations in lab prefix (NULL:
 * on the test's DUT), the tag of its runs; then how its tests are
 * ordered (rounds, the order and its seed, or the drift check). */
void matrix_print_begin(const struct app_matrix_run *r);
/* On stderr: about test_s seconds a test, lab_s more for the lab's
 * build (0: none), ntests tests. */
void matrix_print_planned(int ntests, double test_s, double lab_s);
/* "matrix K/N: LABEL" before test k (from 0) of n, with its round of
 * rounds when there are more than one, or "(the drift check)"; a blank
 * line after it stored its run. */
void matrix_print_config(int k, int n, const char *label, unsigned int round, unsigned int rounds,
			 bool drift_check);
void matrix_print_config_done(void);

/* A matrix's run as it prints, app_matrix_run's hooks (matrix_print_hooks,
 * ctx a struct matrix_print_run): begin (the first line and the plan),
 * starting and done (a configuration's lines); with json, the plan alone
 * (on stderr) and at the end the one document (made by create), the
 * report's inside it. */
struct matrix_print_run {
	struct out *(*create)(bool json, const char *command);
};

extern const struct app_matrix_hooks matrix_print_hooks;

#endif
