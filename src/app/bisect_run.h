/* 'wirerate bisect': which candidate of an ordered series (the commits
 * of a git range, or a list of kernels) moved a figure, found by
 * measuring as few of them as the noise allows (core/bisect.h decides).
 *
 * For each candidate in turn: the tree checked out at its commit, the
 * user's --build command run in it, the lab built afresh (with the
 * candidate's kernel, or the image the build made), the user's --apply
 * command run, then the measurement (a trial or rfc2544 command line)
 * run as a child of this program and stored as a run of its own, tagged
 * with the bisection and the candidate. A build, boot, apply or
 * measurement failure is a skip with its reason, stored too. Everything
 * lives in the store: the bisection is a run (test "bisect") whose
 * environment holds its settings, and its state is re-read from its
 * steps' runs each time, so 'bisect resume' goes on after a stop, a
 * crash or a reboot and decides as the first run would have. */
#ifndef WR_APP_BISECT_RUN_H
#define WR_APP_BISECT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/child.h"
#include "app/cli_hooks.h"
#include "core/bisect.h"
#include "core/duttarget.h"
#include "lab/lab.h"
#include "store/bisect_db.h"
#include "store/trend_model.h"

#define BISECT_ARGV_MAX		256	/* the measurement's command line */
#define BISECT_NAME_MAX		40
#define BISECT_TIMEOUT_DEFAULT	7200	/* s: one build, apply or boot command */
#define BISECT_DUT_WAIT_DEFAULT	600	/* s: a cabled DUT back after --install */
#define BISECT_REPEAT_DEFAULT	3
#define BISECT_ROUNDS_DEFAULT	3
#define BISECT_VALUES_MAX	4096	/* pooled values of one candidate (an end's grow with its drift checks) */

/* The settings, as given to 'bisect start' and stored with the
 * bisection. Strings are "" when not given. */
struct app_bisect_spec {
	char name[BISECT_NAME_MAX + 1];	/* the runs' label prefix */
	char tree[4096];		/* the git tree; "" with kernels */
	char good[64], bad[64];		/* as given */
	char kernels[8192];		/* comma-separated, in order; "" with a git range */
	char build[1024], apply[1024];	/* sh -c commands */
	/* A cabled DUT: install the build on it (sh -c, here: the command
	 * reaches the DUT itself, and reboots or kexecs it), then wait up to
	 * dut_wait_s for the measurement's --dut to answer, with the kernel
	 * release that the release command prints when one is given. */
	char install[1024], release[1024];
	unsigned int dut_wait_s;
	char boot[1024];		/* the image the build makes, in the tree: boot it on a VM lab */
	char modules[1024];		/* its modules' directory, in the tree ("" none) */
	bool lab_on;			/* the lab built afresh per candidate, */
	char lab[1024];			/* with these 'lab up' options */
	char prefix[32];		/* the lab's */
	enum bisect_figure figure;
	unsigned int size;		/* frame size of the figure; 0 any/smallest */
	unsigned int repeat, max_rounds, timeout_s;
	bool no_drift_checks;		/* the ends' first figures alone (core/bisect.h without the order) */
	char *measure[BISECT_ARGV_MAX];	/* from the test's name on, NULL ended */
	int nmeasure;
	char db_path[4096];
	char logs[4096];		/* the commands' and measurements' logs */
};

/* One candidate as the bisection knows it. */
struct app_bisect_cand {
	char id[72];			/* a commit's full hash, or a kernel as given */
	char shown[48];			/* its short form: "1a2b3c4d subject..." or the kernel */
	double *v;			/* its values, pooled (malloc'd as they come) */
	unsigned int n, rounds, vcap;
	struct bisect_meas *m;		/* its measurements in order: values in v, the run's id as seq */
	unsigned int nm, mcap;
	bool bound;			/* a value is the tester's bound */
	bool bound_first;		/* an end: one of its values before the first
					 * candidate's measurement is (a drift check's
					 * later is no reason to stop) */
	bool failed;
	char reason[256];		/* why it was skipped */
	int64_t runs[16];		/* its measurement runs, oldest first */
	unsigned int nruns;
};

struct app_bisect;

/* A bisection as it prints: a step begun and its outcome (what). */
struct app_bisect_hooks {
	void (*step)(void *ctx, const struct app_bisect *b, size_t i, const char *what);
};

struct app_bisect {
	struct app_bisect_spec spec;
	int64_t id;			/* the bisection's run */
	char head[64];			/* the tree's HEAD before, put back at the end */
	struct app_bisect_cand *c;
	size_t n;
	enum bisect_mark *marks;
	struct bisect_state st;
	char *measure_buf;		/* what spec.measure points into, when read back */
	/* The lab for candidate i (in: the caller sets it from the spec's
	 * 'lab up' options, the prefix and the candidate's kernel,
	 * app_bisect_source_kernel): 0, or -EINVAL with err. NULL: the spec
	 * has no lab. */
	int (*lab_spec)(void *ctx, const struct app_bisect *b, size_t i, struct lab_spec *out, char *err,
			size_t errlen);
	/* The DUT the measurement's words reach, the one --install waits for
	 * (in: the caller reads the words): 0, or -EINVAL with err. */
	int (*measure_dut)(void *ctx, const struct app_bisect *b, struct dut_target *t, char *err, size_t errlen);
	/* The command line of a child, a measurement or the log's report (in:
	 * the caller spells its options, app/child.h). */
	app_child_argv_fn argv;
	/* The hooks above are the CLI's, called with cli->ctx; cli->say says
	 * a line of what went wrong (a bisection catches its own stops, a
	 * hangup too). h, render's table (bisect_print_hooks), called with
	 * ctx, prints as it goes. */
	const struct app_cli_hooks *cli;
	const struct app_bisect_hooks *h;
	void *ctx;
};

/* The candidates of a spec: the git range good..bad of the tree (good
 * first; bad a descendant of good) or the kernels. -EINVAL with err for
 * bad input (an unknown commit, good equal to bad, a range that is not an
 * ancestry line, fewer than two kernels); -EIO when git could not run. */
int app_bisect_source_candidates(struct app_bisect *b, char *err, size_t errlen);

/* A new bisection stored (its run, its settings), b->id set. */
int app_bisect_run_create(struct app_bisect *b, char *err, size_t errlen);

/* The bisection of run id (0: the newest not complete, or with any the
 * newest of all) loaded from the store: its settings and candidates;
 * -ENOENT when there is none. */
int app_bisect_run_open(struct app_bisect *b, const char *db_path, int64_t id, bool any, char *err, size_t errlen);

/* The figure given (NULL: the test's own, ndr for rfc2544 throughput,
 * forwarded for a trial) checked against the measurement's test (its
 * first word): 0, or -EINVAL with err. */
int app_bisect_run_figure(const char *given, const char *test, enum bisect_figure *f, char *err, size_t errlen);

/* Its steps re-read from the store and decided again (b->st, b->marks). */
int app_bisect_run_state(struct app_bisect *b, char *err, size_t errlen);

/* Run it to its end: 0 when decided (b->st.action says how), -EINTR when
 * stopped (every finished step stays stored), -EIO after saying why. */
int app_bisect_run(struct app_bisect *b);

void app_bisect_run_free(struct app_bisect *b);

/* The steps' runs, each measured candidate's last, as 'report' shows
 * them, into the HTML page file (the report's exit status, or -errno when
 * it could not run); -ENOENT with err when no step was measured yet. */
int app_bisect_run_html(const struct app_bisect *b, const char *file, char *err, size_t errlen);

/* What differed in the environment between the last good's runs and the
 * first bad's (app/trend.h's explanation), once the bisection found it. */
int app_bisect_run_explain(const struct app_bisect *b, struct trend_change *c, char *err, size_t errlen);

/* A line of step i's log, printf-style, through the printing hooks
 * (bisect_run.c and bisect_prepare.c say their steps through it). */
void app_bisect_run_said(const struct app_bisect *b, size_t i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
