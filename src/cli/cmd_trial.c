/* wirerate trial: one trial at a fixed rate, through the lab or cabled ports. */
#include <errno.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/store_args.h"
#include "cli/trial_args.h"
#include "os/stop.h"
#include "app/trial_run.h"
#include "render/trial_live.h"

static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%strial: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

/* The exit status of a run: 130 stopped by Ctrl-C; a failed step's, 2
 * for bad input (-EINVAL before the traffic, a frame too big in it). */
static int status(const struct app_trial_run *run)
{
	if (run->fail == APP_TRIAL_FAIL_TRAFFIC || run->fail == APP_TRIAL_FAIL_FILES)
		return run->fail == APP_TRIAL_FAIL_TRAFFIC && run->rc == -EMSGSIZE ? EXIT_USAGE : EXIT_RUNTIME;
	return run->fail ? cli_status(run->rc) : run->interrupted ? 130 : 0;
}

int cmd_trial(struct cli *cli, int argc, char **argv)
{
	struct app_trial_job *j = calloc(1, sizeof(*j));
	struct stop cs = { 0 };
	const struct app_cli_hooks ch = { .stop = stop_hook, .say = say, .ctx = &cs };
	struct trial_live_run v;
	struct trial_args own = { 0 };
	enum opt_result parsed;
	int rc;

	if (!j)
		return EXIT_RUNTIME;
	parsed = trial_args(cli, argc, argv, &j->to, &own, &j->so, &rc);
	j->run.repeat = (unsigned int)own.repeat;
	if (parsed == OPT_EXIT || cli->check_only) {
		if (parsed == OPT_GO) {
			cli->planned_s = app_trial_run_planned_s(&j->to.plan.cfg, j->run.repeat);
			rc = 0;
		}
		free(j);
		return rc;
	}
	/* after the parse: --json is one of the options */
	trial_live_init(&v, &j->to, cli->json, cli_out_create_json, &own.files);
	j->cli = &ch;
	j->h = &trial_live_hooks;
	j->ctx = &v;
	app_trial_run_go(j);
	rc = status(&j->run);
	free(j);
	return rc;
}
