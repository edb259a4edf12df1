/* A set of test points as kselftest KTAP (TAP version 13), the form
 * tools/testing/selftests/kselftest.h and ktap_helpers.sh print and the
 * kernel's own parser (tools/testing/kunit/kunit.py parse) reads: the
 * header, the environment as diagnostic lines, the plan, one result line
 * per point with its figure in a diagnostic line just before it, and
 * kselftest's "# Totals" line. */
#ifndef WR_RENDER_KTAP_PRINT_H
#define WR_RENDER_KTAP_PRINT_H

#include <stdio.h>

#include "core/testpoint.h"

/* s into f. PASS and DONE are "ok", FAIL and ERROR "not ok", SKIP "ok N
 * name # SKIP line", UNSURE "ok N name # SKIP cannot tell: line"; no
 * point: "1..0 # SKIP no test points". Control bytes in any string become
 * spaces. 0, -EINVAL without a set, or -errno when the write failed. */
int ktap_print(FILE *f, const struct testpoint_set *s);
/* The same on stdout, flushed there (a full disk is said, not left to
 * the exit): what a command's --ktap prints. */
int ktap_print_stdout(const struct testpoint_set *s);

#endif
