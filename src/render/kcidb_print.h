/* A set of test points as one KernelCI KCIDB I/O v5.3 JSON document: the
 * kernel tested as one checkout and one build, each point a test of that
 * build with its status, figure, comment and environment. The schema:
 * tests/fixtures/kcidb-io-v5.3.schema.json. */
#ifndef WR_RENDER_KCIDB_PRINT_H
#define WR_RENDER_KCIDB_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/testpoint.h"

/* Who submits and what the tests are of. */
struct kcidb_ids {
	const char *origin;		/* the CI system's name: [a-z0-9_]+ */
	/* "ORIGIN:..." as the submitter knows them, used as they are; NULL:
	 * both "ORIGIN:wirerate-kernel-<the kernel release>" */
	const char *checkout_id, *build_id;
};


/* s as {"version":{"major":5,"minor":3},"checkouts":[..],"builds":[..],
 * "tests":[..]} and a newline, into f. A test's id is
 * "ORIGIN:<run uuid or wirerate>.<its number from 1>.<path>"; its number
 * (the figure) only when it has one that is finite and it ran (not SKIP).
 * 0, -EINVAL for a missing set or an origin that is not valid, -ENOMEM,
 * or -errno when the write failed. */
int kcidb_print(FILE *f, const struct testpoint_set *s, const struct kcidb_ids *ids);

/* The same into the file path, written beside it and renamed over it, so
 * that a failure leaves no half document there: 0, or -errno with err
 * ("--kcidb PATH: reason"). */
int kcidb_print_file(const char *path, const struct testpoint_set *s, const struct kcidb_ids *ids, char *err,
		     size_t errlen);

#endif
