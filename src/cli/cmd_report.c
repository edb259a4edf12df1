/* wirerate report RUN... [--json] [--csv|--csv-loss] [--html FILE]
 * [--fail-on-regression PCT] [--db FILE]..., and report --trend.
 * report_args.c declares the options, app/report.c has their rules and
 * both workflows, render/report_live.c writes them out. */
#include <stdlib.h>

#include "app/report.h"
#include "cli/cli.h"
#include "cli/report_args.h"
#include "render/report_live.h"

#define EXIT_REGRESSION 3

/* A line for the user; a note is which run a name matching several
 * was taken for. */
static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%sreport: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

int cmd_report(struct cli *cli, int argc, char **argv)
{
	static const int status[] = {
		[APP_REPORT_OK] = 0, [APP_REPORT_INPUT] = EXIT_USAGE, [APP_REPORT_HOST] = EXIT_RUNTIME,
		[APP_REPORT_REGRESSION] = EXIT_REGRESSION,
	};
	struct report_live p = { .create = cli_out_create_json };
	const struct app_cli_hooks ch = { .say = say };
	struct app_report_opts op;
	enum app_report_why why = APP_REPORT_INPUT;
	char err[2 * 4096 + 512];
	int rc;

	if (report_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	op.json = cli->json;
	if (!(rc = app_report_check(&op, err, sizeof(err))))
		rc = (op.trend ? app_report_trend : app_report_run)(&op, &ch, &report_live_hooks, &p, &why, err,
								     sizeof(err));
	if (rc)
		cli_error("report: %s", err);
	free(op.runs);
	return status[why];
}
