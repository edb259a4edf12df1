/* calibrate's options: trial's own table (the options of a trial, with
 * other defaults), parsed and checked. */
#include "cli/calibrate_args.h"

#include "app/calibrate.h"
#include "app/trial_check.h"
#include "cli/opt.h"

static const struct opt *const calibrate_tables[] = { trial_opts, NULL };

const struct opt_cmd calibrate_cmd = {
	.name = "calibrate",
	.synopsis = "[OPTIONS]",
	.about = "Measures the tester's own ceiling in frames/s for a frame size, back to back:\n"
		 "in the lab over a veth pair straight from gen to sink (no DUT), or over\n"
		 "--tx and --rx cabled to each other. Then checks, at 90% of that, that pacing\n"
		 "holds and the analyzer counts every frame. The ceiling is stored and later\n"
		 "trials above it are marked tester-limited.\n"
		 "\n"
		 "Takes the options of 'wirerate trial', with other defaults: --rate as fast as\n"
		 "possible, --duration 5s (not 10s), --learn-frames 0.\n",
	.tables = calibrate_tables,
};

enum opt_result calibrate_args(struct cli *cli, int argc, char **argv, struct trial_setup *to, int *status)
{
	void *ctx[] = { &to->req };
	char *args[1], err[512];
	int nargs, rc;

	app_trial_check_defaults(to);
	if ((rc = opt_parse(&calibrate_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (app_trial_check(to, "1Gpps", err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "calibrate: %s", err);
	app_calibrate_defaults(to);
	return OPT_GO;
}
