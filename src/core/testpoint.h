/* A test point: one figure a run checked, as a CI's result collection
 * sees it (a kselftest KTAP line, a KernelCI test). Each has a dotted path
 * (wirerate.rfc2544.ndr.64), a status, the figure with its unit, and one
 * line saying what it was compared with. A set of them is one run's (or
 * one gate's) results with the environment they came from; the KTAP and
 * KCIDB writers (render/ktap_print.c, render/kcidb_print.c) read only
 * this, so the two never disagree. Pure data and checks: no I/O. */
#ifndef WR_CORE_TESTPOINT_H
#define WR_CORE_TESTPOINT_H

#include <stdbool.h>
#include <stddef.h>

enum testpoint_status {
	TESTPOINT_PASS,		/* judged: no regression (KTAP ok, KCIDB PASS) */
	TESTPOINT_FAIL,		/* judged: a regression, or a check that failed
				 * (KTAP not ok, KCIDB FAIL) */
	TESTPOINT_SKIP,		/* not run: this pair or host cannot (KTAP
				 * "ok N name # SKIP reason", KCIDB SKIP) */
	TESTPOINT_DONE,		/* measured, not judged: no baseline (KTAP ok,
				 * KCIDB DONE) */
	TESTPOINT_UNSURE,	/* measured, the gate cannot tell: the noise is
				 * larger than the threshold (KTAP "ok N name #
				 * SKIP cannot tell: ...", KCIDB DONE) */
	TESTPOINT_ERROR,	/* the test could not complete (KTAP not ok,
				 * KCIDB ERROR) */
};

#define TESTPOINT_PATH_MAX 128
#define TESTPOINT_UNIT_MAX 24
#define TESTPOINT_LINE_MAX 320

struct testpoint {
	/* dot-separated, each part [A-Za-z0-9_-]+ (KCIDB's path rule; KTAP
	 * takes it as the test's name): "wirerate.rfc2544.ndr.64" */
	char path[TESTPOINT_PATH_MAX];
	enum testpoint_status status;
	bool have_value;
	double value;			/* in unit, unscaled */
	char unit[TESTPOINT_UNIT_MAX];	/* "frames/s", "%", "ns", "us/KB", "Mbit/s" */
	/* one line: the figure and what it was compared with, or why it was
	 * skipped; "" none. Any bytes: the writers escape what their format
	 * cannot carry. */
	char line[TESTPOINT_LINE_MAX];
	double duration_s;		/* < 0 unknown */
};

/* Where the points come from: the run (or gate) and its environment. */
struct testpoint_env {
	char run_uuid[40];		/* the stored run's UUID; "" none */
	char start_time[40];		/* RFC 3339 with its offset; "" unknown */
	char label[64];
	char test[48];			/* "rfc2544 throughput", "trial", "stream", "gate", ... */
	char kernel[64];		/* the DUT's (the host under test's) kernel release */
	char config[160];		/* the configuration in key=value words */
	char target[192];		/* the lab, the DUT or the topology: "lab wr-", "ssh:root@dut",
					 * "net.config NETIF=eth1 REMOTE_TYPE=ssh" */
	char arch[24];			/* uname -m of the host under test; "" unknown */
	char version[32];		/* wirerate's */
};

struct testpoint_set {
	struct testpoint_env env;
	struct testpoint *p;		/* n of them, owned */
	unsigned int n, cap;
};

/* A point appended (the set grows; p may move): the new point zeroed but
 * for duration_s = -1, its path built from printf-style parts and made
 * valid (testpoint_path_clean). NULL when out of memory. */
struct testpoint *testpoint_add(struct testpoint_set *s, enum testpoint_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void testpoint_set_free(struct testpoint_set *s);

/* path made a valid dotted path in place: each byte outside
 * [A-Za-z0-9_.-] becomes '_', empty parts and leading/trailing dots are
 * dropped; "" stays "". */
void testpoint_path_clean(char *path);

/* How many points have each status. */
struct testpoint_counts {
	unsigned int pass, fail, skip, done, unsure, error;
};
struct testpoint_counts testpoint_count(const struct testpoint_set *s);

/* A KernelCI origin (the CI system's name, the prefix of every id it
 * sends): [a-z0-9_]+, as the KCIDB schema has it. */
bool testpoint_origin_ok(const char *origin);

/* The KTAP/KCIDB names of a status. */
const char *testpoint_kcidb_status(enum testpoint_status st);

#endif
