/* Everything a bisection checks before anything is built or measured
 * (src/cli/bisect_check.c): its spec from the options, the tree, the
 * candidates, each candidate's lab as 'lab up' would check it, and the
 * measurement as its command parses it; and the hooks by which the app
 * has the CLI read the lab's options and the measurement's words. */
#ifndef WR_CLI_BISECT_CHECK_H
#define WR_CLI_BISECT_CHECK_H

#include <stdbool.h>

#include "app/bisect_run.h"
#include "cli/bisect_args.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "core/duttarget.h"

/* bo's bisection into b (its hooks pointed, ctx cli): for start the spec
 * checked, its candidates found and a new bisection stored; for resume
 * and log the stored one opened (resume: its tree clean again; log: its
 * steps read). OPT_GO to go on, or OPT_EXIT with *status (opt.h) after a
 * one-line error. */
enum opt_result bisect_check(struct cli *cli, const struct bisect_opts *bo, struct app_bisect *b, int *status);

/* The DUT the measurement's words reach (--dut, --ssh-option,
 * --dut-agent, each followed by its value), the one --install waits
 * for: 0, or -EINVAL with err when they name none or a bad one. */
int bisect_check_dut(char *const *measure, int nmeasure, struct dut_target *t, char *err, size_t errlen);

#endif
