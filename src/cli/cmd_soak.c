/* wirerate soak: cyclesoak's "System load", from SCHED_IDLE soakers
 * against their calibrated idle rate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/soakargs.h"
#include "cli/opt.h"
#include "render/out.h"
#include "dut/dut.h"
#include "dut/soak.h"
#include "render/soakprint.h"
#include "app/soakrun.h"

static int do_calibrate(struct soak_opts *op, struct cli *cli)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct out *o = NULL;
	char err[512];
	unsigned int kept = 0;
	int rc;

	if (!c)
		return EXIT_RUNTIME;
	/* never over a file that is not a soak calibration: said before the
	 * minutes of measuring, not after */
	if (app_soak_calib_precheck(op->path, c, err, sizeof(err))) {
		free(c);
		cli_error("soak: --calibration %s (give another file, or delete it)", err);
		return EXIT_USAGE;
	}
	o = cli_out_create(cli, "soak");
	if (!o) {
		free(c);
		return EXIT_RUNTIME;
	}
	soakprint_calib_start(o, &op->cpus, &op->cal, op->interval_ns);
	out_arr_start(o, "readings");
	op->cal.interval_ns = op->interval_ns;
	rc = app_soak_calibrate(op->path, &op->cpus, &op->cal, cli_stop_flag(), soakprint_calib_progress, o, c,
				&kept, err, sizeof(err));
	out_arr_end(o);
	if (rc) {
		out_destroy(o);
		free(c);
		cli_error("soak: %s", err);
		return cli_stopped() ? 130 : cli_status(rc);
	}
	soakprint_calib_saved(o, op->path, kept, c);
	out_destroy(o);
	free(c);
	return 0;
}

/* The soak's output, made once the soakers are. */
struct soak_print {
	struct cli *cli;
	const struct soak_opts *op;
	struct out *o;
};

static int soak_open(void *ctx)
{
	struct soak_print *p = ctx;

	p->o = cli_out_create(p->cli, "soak");
	return p->o ? 0 : -ENOMEM;
}

static void soak_started(void *ctx, unsigned int ncpu, const struct soak_idle *idle)
{
	struct soak_print *p = ctx;
	const struct soak_opts *op = p->op;

	soakprint_header(p->o, ncpu, &op->cpus, op->d ? dut_name(op->d) : NULL,
			 op->d && op->dut.kind == DUT_SSH ? "the DUT's own" : op->path, op->interval_ns);
	if (idle)
		soakprint_check(p->o, idle);
	out_arr_start(p->o, "readings");
}

static void soak_reading(void *ctx, double t, const struct soak_load *l, unsigned int ncpu)
{
	struct soak_print *p = ctx;

	soakprint_reading(p->o, t, l, ncpu, p->op->per_cpu);
}

static int do_soak(struct soak_opts *op, struct cli *cli)
{
	static const struct app_soak_hooks hooks = { soak_open, soak_started, soak_reading };
	struct app_soak_cfg cfg = {
		.cpus = &op->cpus,
		.path = op->d && op->dut.kind == DUT_SSH ? NULL : op->path,
		.interval_ns = op->interval_ns,
		.duration_ns = op->duration_ns,
		.d = op->d,
		.stop = cli_stop_flag(),
	};
	struct soak_print p = { cli, op, NULL };
	struct app_soak_result r;
	char err[512];
	int rc;

	if (app_soak_run(&cfg, &hooks, &p, &r, err, sizeof(err))) {
		if (err[0])
			cli_error("soak: %s", err);
		rc = r.bad_input ? EXIT_USAGE : EXIT_RUNTIME;
	} else {
		out_arr_end(p.o);
		soakprint_summary(p.o, &r.overall, r.hist.v, r.hist.n, r.ncpu, op->per_cpu, r.fast, cli_stopped());
		soakprint_verdict(p.o, r.trusted, cli_stopped());
		rc = 0;
	}
	out_destroy(p.o);
	app_soak_result_free(&r);
	return rc;
}

int cmd_soak(struct cli *cli, int argc, char **argv)
{
	struct cli_stop stop = { 0 };
	struct soak_opts op;
	char err[256];
	int rc;

	if ((rc = soak_args(cli, argc, argv, &op)) >= 0)
		return rc;
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.d, err, sizeof(err)))) {
		cli_error("soak: %s", err);
		return cli_status(rc);
	}
	/* every CPU the soaked host has online, unless told */
	if (!op.have_cpus && app_soak_cpus(op.d, &op.cpus, err, sizeof(err))) {
		cli_error("soak: %s", err);
		dut_close(op.d);
		return EXIT_RUNTIME;
	}
	if (op.calibrate && op.duration_ns)
		return cli_fail(EXIT_USAGE, "soak: --duration does not apply to --calibrate (see --timeout)");
	cli_stop_catch(&stop);
	rc = op.calibrate ? do_calibrate(&op, cli) : do_soak(&op, cli);
	cli_stop_restore(&stop);
	dut_close(op.d);
	return rc;
}
