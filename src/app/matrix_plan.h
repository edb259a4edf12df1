/* The matrix: lab configurations from axes of 'lab up' options, every
 * combination of their values one configuration, in a fixed order (the
 * first axis varies fastest), each with a label that tells it apart;
 * and the checks of what the matrix hands to its tests and its report.
 * Building the labs and running the tests is the caller's. */
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

struct app_matrix_plan_axis {
	const char *opt;	/* the 'lab up' option: "--placement" */
	const char *name;	/* in labels: "placement" */
	bool lists;		/* a value may be a comma-separated list */
	int n;
	char *v[APP_MATRIX_VALUES_MAX];
};

struct app_matrix {
	struct app_matrix_plan_axis axes[APP_MATRIX_NAXES];
	int nconf;
	char labels[APP_MATRIX_MAX][128];
};

/* The axes, no values yet. */
void app_matrix_plan_init(struct app_matrix *m);
/* The axis of a 'lab up' option, -1 when it is none. */
int app_matrix_plan_axis(const struct app_matrix *m, const char *opt);
/* Add a value given for axis k (split at commas where the axis lists);
 * v is kept and cut in place. -EINVAL with a reason. */
int app_matrix_plan_add(struct app_matrix *m, int k, char *v, char *err, size_t errlen);
/* Count the configurations: at least one axis, at most APP_MATRIX_MAX. */
int app_matrix_plan_count(struct app_matrix *m, char *err, size_t errlen);
/* Configuration c's value of axis k, NULL when the axis has none. */
const char *app_matrix_plan_value(const struct app_matrix *m, int c, int k);
/* Configuration c as 'lab' arguments (argv[0] "lab", ending with "up" and
 * NULL) in argv, of room for at least 2 * APP_MATRIX_NAXES + 6; returns
 * the count. */
int app_matrix_plan_lab_argv(const struct app_matrix *m, int c, const char *prefix, bool no_xdp, char **argv);
/* Every configuration's label: label (may be NULL) then name=value for
 * each axis of more than one value (the value alone for placement).
 * -EINVAL when one would not fit a run's label. */
int app_matrix_plan_labels(struct app_matrix *m, const char *label, char *err, size_t errlen);

/* True when a test option is one the matrix sets itself (--prefix, --db,
 * ...); remote: the matrix of a DUT of its own,
 * which sets --dut-placement and --dut-rules and leaves the ports to the
 * test. */
bool app_matrix_plan_reserved(const char *arg, bool remote);
/* True when the test's options name a DUT other than the lab (--dut
 * ssh:... or local): its configurations are applied by its agent, one
 * test at a time, with no lab built. */
bool app_matrix_plan_remote_dut(char **test, int ntest);
/* The test's words (from its name on) checked before anything is built:
 * no --help, none that the matrix sets itself, and room for what it adds
 * (ntags: the user's tags). *remote: the test names a DUT of its own. -EINVAL with
 * the reason. */
int app_matrix_plan_check_test(char **test, int ntest, int ntags, bool *remote, char *err, size_t errlen);
/* Such a DUT has the axes placement and rules only: -EINVAL with a reason. */
int app_matrix_plan_check_remote(const struct app_matrix *m, char *err, size_t errlen);
/* Append configuration c's --dut-placement and --dut-rules to a test's
 * command line (NULL ended, with room). */
void app_matrix_plan_dut_argv(const struct app_matrix *m, int c, char **targv);
/* The matrix's own options, checked as its tests and report would check
 * them, so that no lab is built for a run that would refuse. */
int app_matrix_plan_check_own(const char *label, const char *const *tags, int ntags, const char *db, const char *html,
			 const char *fail_pct, char *err, size_t errlen);
/* The test's command line (argv[0] "wirerate"): its own options, then
 * the lab (prefix NULL: none), label, tags and store the matrix gives it. targv holds
 * APP_MATRIX_ARGV_MAX. */
void app_matrix_plan_test_argv(char **targv, char **test, int ntest, const char *prefix, const char *label,
			  const char *mtag, const char *const *tags, int ntags, const char *db_path);

/* The report's command line over the runs of the configurations
 * (argv[0] "wirerate"; --json when json), into argv (room for
 * APP_MATRIX_MAX + 16, NULL ended) with the ids written in ids. */
#define APP_MATRIX_REPORT_ARGV (APP_MATRIX_MAX + 16)
void app_matrix_plan_report_argv(char **argv, char ids[][24], const int64_t *run_ids, int nconf, bool json,
			    const char *db_path, const char *html, const char *fail_pct);

/* The newest run in the store at db_path tagged tag: the one a test just
 * stored; 0 when there is none (or no store). */
int64_t app_matrix_plan_newest_run(const char *db_path, const char *tag);

#endif
