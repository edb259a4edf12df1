/* The matrix: lab configurations from axes, each a setting of the lab
 * ('lab up' takes it), every combination of their values one
 * configuration, in a fixed order (the first axis varies fastest), each
 * with a label that tells it apart; and the checks of what the matrix
 * hands to its tests and its report. The values are the user's text: the
 * caller (the CLI) sets each configuration's lab from them, builds the
 * labs and runs the tests. */
#ifndef WR_APP_MATRIX_PLAN_H
#define WR_APP_MATRIX_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APP_MATRIX_MAX		64	/* configurations */
#define APP_MATRIX_VALUES_MAX	16	/* values of one axis */
#define APP_MATRIX_NAXES	8
#define APP_MATRIX_ARGV_MAX	512	/* a test's command line */
#define APP_MATRIX_LABEL_MAX	63	/* a run's label */
#define APP_MATRIX_ROUNDS_MAX	16	/* --repeat */
#define APP_MATRIX_RUNS_MAX	256	/* configurations x rounds, and the drift check */

struct app_matrix_plan_axis {
	const char *name;	/* in labels and JSON: "placement" */
	bool lists;		/* a value given may be a comma-separated list */
	int n;
	char *v[APP_MATRIX_VALUES_MAX];
};

struct app_matrix {
	struct app_matrix_plan_axis axes[APP_MATRIX_NAXES];
	int nconf;
	char labels[APP_MATRIX_MAX][128];
};

/* The axes, no values yet: placement, rules, dut-cpus, shape, mtu,
 * queues, kernel and cmdline (its kernel command line), in that order. */
void app_matrix_plan_init(struct app_matrix *m);
/* The axis of that name, -1 when it is none. */
int app_matrix_plan_axis(const struct app_matrix *m, const char *name);
/* Add one value to axis k (v is kept): -EINVAL with a reason when it
 * has all it may, or is none. */
int app_matrix_plan_add(struct app_matrix *m, int k, char *v, char *err, size_t errlen);
/* Count the configurations: at most APP_MATRIX_MAX (-EINVAL with a
 * reason); -ENOENT when no axis has a value. */
int app_matrix_plan_count(struct app_matrix *m, char *err, size_t errlen);
/* Configuration c's value of axis k, NULL when the axis has none. */
const char *app_matrix_plan_value(const struct app_matrix *m, int c, int k);
/* What configuration c sets of axis k: its value, or NULL when it leaves
 * it at the lab's default (no value; "none" of cmdline: no extra kernel
 * arguments, against some). */
const char *app_matrix_plan_setting(const struct app_matrix *m, int c, int k);
/* Every configuration's label: label (may be NULL) then name=value for
 * each axis of more than one value (the value alone for placement), and
 * " (C)" after one that would read as an earlier one's.
 * -EINVAL when one would not fit a run's label. */
int app_matrix_plan_labels(struct app_matrix *m, const char *label, char *err, size_t errlen);

/* The order of the configurations within a round: alternating (the
 * first round in order, the next reversed, and so on: A B, B A, A B), or
 * shuffled afresh each round from a seed. */
enum app_matrix_order {
	APP_MATRIX_ALTERNATE,
	APP_MATRIX_SHUFFLE,
};

/* One test of the matrix: configuration conf's round (from 1). The drift
 * check is the first configuration once more at the end, as a round of
 * its own. */
struct app_matrix_step {
	int conf;
	unsigned int round;
	bool drift_check;
};

/* The tests of a matrix of nconf configurations, in the order they run.
 * Interleaved with rounds >= 2: rounds rounds, each every configuration
 * once in the order's order (shuffle's from seed). Otherwise every
 * configuration once (its test repeating as it was asked, back to back),
 * in order, then (with two configurations or more) the drift check: the
 * first again, round 2, so that 'report' sees how far the host moved
 * between the first test and the last. The number of steps, at most max;
 * -EINVAL with a reason when they would be more. */
int app_matrix_plan_schedule(int nconf, unsigned int rounds, bool interleave, enum app_matrix_order order,
			     uint64_t seed, struct app_matrix_step *out, int max, char *err, size_t errlen);

/* A DUT of its own (not the lab) takes the axes placement and rules
 * only: its agent applies them. 0 when every axis given is one of them,
 * else -EINVAL with *axis the first that is not. */
int app_matrix_plan_check_remote(const struct app_matrix *m, int *axis);
/* The matrix's own options, checked as its tests and report would check
 * them, so that no lab is built for a run that would refuse. */
int app_matrix_plan_check_own(const char *label, const char *const *tags, int ntags, const char *db, const char *html,
			 const char *fail_pct, char *err, size_t errlen);

/* The newest run in the store at db_path tagged tag: the one a test just
 * stored; 0 when there is none (or no store). */
int64_t app_matrix_plan_newest_run(const char *db_path, const char *tag);

#endif
