/* wirerate calibrate: the tester measured against itself, back to back
 * with no DUT in the path, so that results above its ceiling say so. */
#include <errno.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "app/trialcheck.h"
#include "cli/opt.h"
#include "cli/trialopt.h"
#include "app/calibrate.h"
#include "app/trialres.h"
#include "render/calibprint.h"
#include "render/trialrunprint.h"

static const struct opt *const calibrate_tables[] = { trialopt_opts, NULL };

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

int cmd_calibrate(struct cli *cli, int argc, char **argv)
{
	struct trialopt to;
	struct app_calibrate cal = { 0 };
	struct cli_stop stop = { 0 };
	void *ctx[] = { &to };
	char *args[1];
	int nargs;
	char err[512];
	struct out *o;
	int rc, ret = EXIT_RUNTIME;

	app_trial_defaults(&to);
	if ((rc = opt_parse(&calibrate_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(rc);
	if (app_trial_check(&to, "1Gpps", err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "calibrate: %s", err);
	app_calibrate_defaults(&to);
	if ((rc = app_trial_resolve(&to, err, sizeof(err)))) {
		cli_error("calibrate: %s", err);
		app_trial_release(&to);
		return cli_status(rc);
	}
	cli_stop_catch(&stop);
	if ((rc = app_calibrate(&to, cli_stop_flag(), &cal, err, sizeof(err)))) {
		if (err[0])
			cli_error("calibrate: %s", err);
		ret = rc == -EINTR ? 130 : EXIT_RUNTIME;
		goto out;
	}
	o = cli_out_create(cli, "calibrate");
	trialrunprint_header(o, &to, cal.flat);
	calibprint_report(o, &cal.rep);
	out_destroy(o);
	ret = 0;
out:
	app_calibrate_free(&to, &cal);
	cli_stop_restore(&stop);
	app_trial_release(&to);
	return ret;
}
