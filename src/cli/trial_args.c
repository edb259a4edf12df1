/* trial's options: declared once (its own table beside the traffic and
 * store options, read by opt_parse, the usage text and 'help --json'),
 * then parsed and checked. */
#include "cli/trial_args.h"

#include "app/trial_check.h"
#include "app/trial_run.h"
#include "cli/opt.h"
#include "cli/trial_opts.h"
#include "io/capture.h"

#define TA(field) OPT_FIELD(struct trial_args, field)

static const struct opt trial_args_opts[] = {
	{ OPT_U64("repeat", "N", TA(repeat), 1, APP_TRIAL_MAX_REPEATS,
		  "run the trial N times in a row (1..16), each stored;\n"
		  "'report' compares the runs over their spread"),
	  .group = "repeats", .def = "1" },
	{ OPT_PATH("latency-histogram", "FILE", TA(files.histogram),
		   "write every direction's full latency histogram as CSV\n"
		   "(repeat,direction,lo_ns,hi_ns,count,cumulative; docs/trial.md)") },
	{ OPT_PATH("openmetrics", "FILE", TA(files.openmetrics),
		   "write the run's figures as OpenMetrics text (for a\n"
		   "Prometheus textfile collector; docs/json.md)") },
	{ OPT_PATH("capture", "FILE", TA(files.capture),
		   "write the first frames received but not counted (not a\n"
		   "test frame, a bad tag, another trial's, late, a\n"
		   "duplicate) to a pcapng file, each with why") },
	{ OPT_UINT("capture-count", "N", TA(files.capture_count), 1, CAPTURE_MAX_FRAMES,
		   "how many frames --capture keeps (1..10000)"),
	  .def = "100" },
	{ NULL },
};

static const struct opt *const trial_tables[] = { trial_opts, trial_args_opts, store_args_opts, NULL };

const struct opt_cmd trial_cmd = {
	.name = "trial",
	.synopsis = "--rate RATE [OPTIONS]",
	.about = "Offers UDP frames at RATE for a time and counts what came out of the DUT.\n",
	.tables = trial_tables,
};

enum opt_result trial_args(struct cli *cli, int argc, char **argv, struct trial_setup *to, struct trial_args *own,
			   struct run_store *so, int *status)
{
	void *ctx[] = { &to->req, own, &so->req };
	char *args[1], err[512];
	int nargs, rc;

	app_trial_check_defaults(to);
	store_args_init(so);
	own->repeat = 1;
	if ((rc = opt_parse(&trial_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (app_trial_check(to, NULL, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "trial: %s", err);
	if (own->files.capture_count && !own->files.capture)
		return opt_fail(status, EXIT_USAGE, "trial: --capture-count goes with --capture FILE");
	if (!own->files.capture_count)
		own->files.capture_count = TRIAL_CAPTURE_COUNT;
	return OPT_GO;
}
