/* wirerate calibrate: the tester measured against itself, back to back
 * with no DUT in the path, so that results above its ceiling say so. */
#include <errno.h>

#include "cli/cli.h"
#include "cli/calibrate_args.h"
#include "app/calibrate.h"
#include "app/trial_plan.h"
#include "os/stop.h"
#include "render/calibrate_print.h"
#include "render/trial_live.h"

int cmd_calibrate(struct cli *cli, int argc, char **argv)
{
	struct trial_setup to;
	struct app_calibrate cal = { 0 };
	struct stop stop = { 0 };
	char err[512];
	struct out *o;
	int rc;

	if (calibrate_args(cli, argc, argv, &to, &rc) == OPT_EXIT)
		return rc;
	if ((rc = app_trial_plan_resolve(&to, err, sizeof(err)))) {
		app_trial_plan_release(&to);
		return cli_fail(cli_status(rc), "calibrate: %s", err);
	}
	stop_catch(&stop);
	if ((rc = app_calibrate(&to, stop_flag(), &cal, err, sizeof(err)))) {
		if (err[0])
			cli_error("calibrate: %s", err);
		rc = rc == -EINTR ? 130 : EXIT_RUNTIME;
	} else {
		o = cli_out_create(cli, "calibrate");
		trial_live_header(o, &to, cal.flat);
		calibrate_print_report(o, &cal.rep);
		out_destroy(o);
	}
	app_calibrate_free(&to, &cal);
	stop_restore(&stop);
	app_trial_plan_release(&to);
	return rc;
}
