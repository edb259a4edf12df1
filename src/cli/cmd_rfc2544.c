/* wirerate rfc2544 [throughput|latency|loss|b2b|all] */
#include <errno.h>

#include "cli/cli.h"
#include "cli/rfc2544_args.h"
#include "cli/store_args.h"
#include "os/stop.h"
#include "app/rfc2544_run.h"
#include "render/rfc2544_live.h"

static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%srfc2544: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

/* The exit status of a run: 130 stopped by Ctrl-C (also while measuring
 * a ceiling); a failed step's, 2 for bad input before the search. */
static int status(const struct app_rfc2544_job *j)
{
	if (j->fail == APP_RFC2544_FAIL_SEARCH)
		return EXIT_RUNTIME;
	if (j->fail == APP_RFC2544_FAIL_SETUP && j->rc == -EINTR)
		return 130;
	return j->rc ? cli_status(j->rc) : j->interrupted ? 130 : 0;
}

int cmd_rfc2544(struct cli *cli, int argc, char **argv)
{
	struct rfc2544_args r;
	struct run_store so;
	struct trial_setup to;
	struct app_rfc2544_plan plan;
	struct stop cs = { 0 };
	const struct app_cli_hooks ch = { .stop = stop_hook, .say = say, .ctx = &cs };
	struct rfc2544_live_run v;
	struct app_rfc2544_job j = { .s = { .po = &r.po, .to = &to, .so = &so, .cli = &ch, .h = &rfc2544_live_hooks,
					    .ctx = &v, .plan = &plan } };
	int rc;

	if (rfc2544_args(cli, argc, argv, &r, &so, &to, &plan, &rc) == OPT_EXIT)
		return rc;
	if (cli->check_only) {
		/* the plan without the host: no ceiling measured in place */
		app_rfc2544_plan_estimate(&r.po, &plan, &to.plan.cfg, false, &j.s.est);
		cli->planned_s = j.s.est.seconds;
		return 0;
	}
	/* after the parse: --json and --json-stream are options */
	rfc2544_live_init(&v, cli->json, r.json_stream, cli_out_create_json, r.openmetrics);
	app_rfc2544_run_go(&j);
	return status(&j);
}
