/* wirerate rfc2544 [throughput|latency|loss|b2b|all] */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "os/fsutil.h"
#include "cli/rfc2544args.h"
#include "cli/opt.h"
#include "cli/storeargs.h"
#include "app/trialres.h"
#include "app/rfc2544plan.h"
#include "app/rfc2544run.h"
#include "engine/rfc2544.h"
#include "os/clock.h"
#include "render/r2544print.h"
#include "render/r2544runprint.h"
#include "render/openmetrics.h"

/* --json-stream: each trial as it ends (after the store has it). */
static void stream_trial(void *ctx, const struct r2544_trial *t)
{
	struct out *o = cli_out_create_json(true, "rfc2544");

	(void)ctx;
	if (o) {
		r2544print_event(o, t);
		out_destroy(o);
	}
}

/* The result as a table (or JSON): the run's settings and deviations, a
 * row per size, the trials, where it was stored. */
static void print_result(struct cli *cli, const struct app_r2544_setup *s, const struct r2544_result *res)
{
	struct r2544runprint v = { .po = s->po, .to = s->to, .plan = s->plan, .res = res, .run_id = s->so->run_id,
				   .db = s->so->path };
	struct out *o = cli_out_create(cli, "rfc2544");

	r2544runprint_result(o, &v);
	out_destroy(o);
}

/* Before the maximum loads, which can take minutes: how long the run
 * should take; Ctrl-C stops a ceiling's measurement in order. */
static void loads_begin(void *ctx, const struct app_r2544_estimate *est)
{
	r2544runprint_planned(est);
	cli_stop_catch(ctx);
}

static void loads_end(void *ctx)
{
	cli_stop_restore(ctx);
}

static void measuring(void *ctx, unsigned int size, bool done)
{
	(void)ctx;
	r2544runprint_measuring(size, done);
}

/* The run up to its search (app_r2544_prepare, app_r2544_set_up): 0, or
 * an exit status after a one-line error. */
static int set_up(struct app_r2544_setup *s)
{
	char err[1024];
	int rc;

	if ((rc = app_r2544_prepare(s->po, s->to, err, sizeof(err)))) {
		cli_error("rfc2544: %s", err);
		return cli_status(rc);
	}
	if (!(s->cfg = calloc(1, sizeof(*s->cfg))))
		return EXIT_RUNTIME;
	if ((rc = app_r2544_set_up(s, err, sizeof(err))))
		return cli_fail(rc == -EINTR ? 130 : cli_status(rc), "rfc2544: %s", err);
	return 0;
}

int cmd_rfc2544(struct cli *cli, int argc, char **argv)
{
	struct rfc2544_args r;
	struct storeopt so;
	char headline[512];
	struct trialopt to;
	struct r2544_result *res = NULL;
	struct app_r2544_plan plan;
	struct cli_stop stop = { .caught = false };
	struct app_r2544_setup setup = { .po = &r.po, .to = &to, .so = &so, .stop = cli_stop_flag(),
					 .loads_begin = loads_begin, .loads_end = loads_end, .measuring = measuring,
					 .ctx = &stop, .plan = &plan };
	struct r2544runprint_progress prog = { .tty = isatty(STDERR_FILENO) };
	struct app_r2544_search x = { .progress = r2544runprint_progress, .progress_ctx = &prog };
	char err[512];
	int rc, ret = EXIT_RUNTIME;

	if ((rc = rfc2544_args(cli, argc, argv, &r, &so, &to)) >= 0)
		return rc;
	/* The plan: RFC 2544's defaults, or the lab's quick mode. */
	if ((rc = app_r2544_timing(&r.po, &to.cfg, &plan, err, sizeof(err)))) {
		cli_error("rfc2544: %s", err);
		return EXIT_USAGE;
	}
	if (cli->check_only) {
		/* the plan without the host: no ceiling measured in place */
		app_r2544_estimate(&r.po, &plan, &to.cfg, false, &setup.est);
		cli->planned_s = setup.est.seconds;
		return 0;
	}
	if ((ret = set_up(&setup)) || !(res = calloc(1, sizeof(*res)))) {
		ret = ret ? ret : EXIT_RUNTIME;
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (r.json_stream)
		x.on_trial = stream_trial;
	prog.t0 = mono_ns();
	prog.estimate_s = setup.est.seconds;
	x.stop = cli_stop_catch(&stop);
	rc = app_r2544_search(&setup, &x, res, err, sizeof(err));
	cli_stop_restore(&stop);
	r2544runprint_progress_clear(&prog);
	if (rc) {
		cli_error("rfc2544: %s", err);
		storeopt_end(&so, "failed", NULL);
		goto out;
	}
	if ((rc = app_store_r2544_finish(&so, res, headline, sizeof(headline), err, sizeof(err))))
		cli_error("warning: rfc2544: storing the last rows in %s: %s", so.path, err);
	storeopt_end(&so, res->interrupted ? "interrupted" : "complete", headline);
	print_result(cli, &setup, res);
	if (r.openmetrics) {
		struct om_rfc2544 m = { .label = so.label, .res = res };

		if (fs_write_file(r.openmetrics, om_rfc2544_write, &m, err, sizeof(err)))
			cli_error("warning: rfc2544: --openmetrics %s: %s", r.openmetrics, err);
	}
	ret = res->interrupted ? 130 : 0;
out:
	cli_stop_restore(&stop);
	storeopt_end(&so, "failed", NULL);
	free(setup.cfg);
	free(res);
	app_trial_release(&to);
	return ret;
}
