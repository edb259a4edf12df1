/* wirerate soak: cyclesoak's "System load", from SCHED_IDLE soakers
 * against their calibrated idle rate. soak_args.c declares the options,
 * app/soak_run.c has both workflows (--calibrate and the soak) and
 * render/soak_print.c prints them as they go. */
#include <stdlib.h>

#include "app/soak_run.h"
#include "cli/cli.h"
#include "cli/soak_args.h"
#include "dut/dut.h"
#include "os/stop.h"
#include "render/out.h"
#include "render/soak_print.h"

int cmd_soak(struct cli *cli, int argc, char **argv)
{
	static const int status[] = {
		[APP_SOAK_OK] = 0, [APP_SOAK_INPUT] = EXIT_USAGE, [APP_SOAK_HOST] = EXIT_RUNTIME, [APP_SOAK_STOPPED] = 130,
	};
	struct soakprint_run p = { .create = cli_out_create_json };
	struct stop stop = { 0 };
	const struct app_cli_hooks ch = { .stop = stop_hook, .ctx = &stop };
	struct app_soak_result r;
	struct soak_opts op;
	char err[1024], derr[256];
	int rc;

	if (soak_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.d, derr, sizeof(derr))))
		return cli_fail(cli_status(rc), "soak: %s", derr);
	const struct app_soak_cfg cfg = {
		.cpus = op.have_cpus ? &op.cpus : NULL,
		.path = op.d && op.dut.kind == DUT_SSH ? NULL : op.path,
		.interval_ns = op.interval_ns, .duration_ns = op.duration_ns, .cal = &op.cal,
		.d = op.d,
	};

	p.json = cli->json;
	p.per_cpu = op.per_cpu;
	if (op.calibrate)
		rc = app_soak_run_calibration(&cfg, &ch, &soak_print_hooks, &p, &r, err, sizeof(err));
	else
		rc = app_soak_run(&cfg, &ch, &soak_print_hooks, &p, &r, err, sizeof(err));
	if (rc && err[0])
		cli_error("soak: %s", err);
	out_destroy(p.o);
	app_soak_run_result_free(&r);
	dut_close(op.d);
	return status[r.why];
}
