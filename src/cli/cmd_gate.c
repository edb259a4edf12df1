/* wirerate gate --baseline LABEL|RUN RUN [--threshold PCT] [--ktap|--json]
 * [--kcidb FILE --origin NAME] [--db FILE]...: gate_args.c declares the
 * options, app/gate_run.c judges, render/gate_print.c writes it out. */
#include "app/gate_run.h"
#include "cli/cli.h"
#include "cli/gate_args.h"
#include "render/gate_print.h"

#define EXIT_REGRESSION 3
#define EXIT_CANNOT_TELL 4	/* kselftest's skip code */

static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%sgate: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

int cmd_gate(struct cli *cli, int argc, char **argv)
{
	static const int verdict_status[] = {
		[APP_GATE_OK] = 0, [APP_GATE_REGRESSION] = EXIT_REGRESSION, [APP_GATE_UNSURE] = EXIT_CANNOT_TELL,
	};
	struct gate_print p = { .create = cli_out_create_json };
	const struct app_cli_hooks ch = { .say = say };
	enum app_gate_verdict v = APP_GATE_UNSURE;
	enum app_gate_why why = APP_GATE_INPUT;
	struct app_gate_opts op;
	char err[2 * 4096 + 512];
	int rc;

	if (gate_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	op.json = cli->json;
	if (!(rc = app_gate_run_check(&op, err, sizeof(err))))
		rc = app_gate_run(&op, &ch, &gate_print_hooks, &p, &v, &why, err, sizeof(err));
	if (rc) {
		cli_error("gate: %s", err);
		return why == APP_GATE_INPUT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	return verdict_status[v];
}
