/* wirerate lab up|down|status */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/lab_args.h"
#include "cli/opt.h"
#include "render/out.h"
#include "render/lab_print.h"
#include "lab/lab.h"
#include "app/lab_run.h"
#include "os/stop.h"

int cmd_lab(struct cli *cli, int argc, char **argv)
{
	struct lab_spec spec;
	struct lab_status st;
	struct stop ignored = { 0 };
	enum app_lab_action a;
	enum app_lab_step failed;
	const char *action;
	char **cmd = NULL;
	struct out *o;
	char err[512];
	int rc;

	if (lab_args_parse(cli, argc, argv, &spec, &action, &cmd, &rc) == OPT_EXIT)
		return rc;
	app_lab_run_action_parse(action, &a);
	if (a == APP_LAB_EXEC) {
		int status;
		char *output;

		rc = app_lab_run_exec(spec.prefix, cmd, &status, &output, err, sizeof(err));
		free(cmd);
		if (output)
			fputs(output, stdout);
		free(output);
		if (rc)
			return cli_fail(cli_status(rc), "lab exec: %s", err);
		return status;
	}
	/* Building or removing takes a second or two and is finished rather
	 * than left half done (lab_up, lab_down): a Ctrl-C then would only
	 * kill the report of a job that completed. Ignored to the command's
	 * end, which is the process's. */
	if (a != APP_LAB_STATUS && !spec.kernel[0])
		stop_ignore(&ignored);
	/* in JSON, down prints the status of the lab now gone: one shape
	 * for up, down and status */
	/* A VM's boot takes seconds, and Ctrl-C ends it: lab up stops the
	 * VM and removes what it built (vm_lab_up) */
	if ((rc = app_lab_run(&spec, a, cli->json, &st, &failed, err, sizeof(err)))) {
		cli_error("lab %s: %s%s", failed == APP_LAB_STEP_STATUS ? "status" : action, err,
			  failed == APP_LAB_STEP_UP ? " (nothing was left behind)" : "");
		return rc == -EINTR ? 130 : failed == APP_LAB_STEP_LOCK ? EXIT_RUNTIME : cli_status(rc);
	}
	if (a == APP_LAB_DOWN && !cli->json) {
		lab_print_removed(spec.prefix);
		return 0;
	}
	o = cli_out_create(cli, "lab");
	if (!o)
		return cli_fail(EXIT_RUNTIME, "out of memory");
	lab_print_status(o, &st);
	out_destroy(o);
	return 0;
}
