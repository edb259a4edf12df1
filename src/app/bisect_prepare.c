#include "app/bisect_prepare.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bisect_source.h"
#include "core/ns.h"
#include "dut/dut.h"
#include "dut/envcap.h"
#include "os/clock.h"
#include "os/command.h"
#include "os/stop.h"


/* Run a command of the spec (sh -c, in the tree) into log: 0, 1 with why
 * (a skip), -EINTR. */
static int run_cmd(const struct app_bisect *b, const char *what, const char *cmd, const char *log, char *out,
		   size_t outlen, char *why, size_t whylen)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL }, err[512], tail[256];
	int st;

	unlink(log);
	st = command_run(argv, b->spec.tree[0] ? b->spec.tree : NULL, log, b->spec.timeout_s * 1000u,
			 stop_flag(), err, sizeof(err));
	if (st == -EINTR || stop_requested())
		return -EINTR;
	command_log_tail(log, tail, sizeof(tail));
	if (st) {
		snprintf(why, whylen, "%s failed (%s%d%s%.200s): see %.300s", what, st < 0 ? "error " : "exit ",
			 st < 0 ? -st : st, *tail ? ": " : "", tail, log);
		return 1;
	}
	if (out)
		snprintf(out, outlen, "%.127s", tail);
	return 0;
}

/* --install: the build onto the cabled DUT, then a bounded wait for it
 * to answer with the kernel expected. 0, 1 with why, -EINTR. */
static int install(struct app_bisect *b, size_t i, char *why, size_t whylen)
{
	const struct app_bisect_spec *s = &b->spec;
	char log[4600], want[128] = "", got[128] = "", err[512] = "no answer";
	struct dut_target t;
	uint64_t deadline;
	int st;

	if (b->measure_dut(b->cli->ctx, b, &t, err, sizeof(err))) {
		snprintf(why, whylen, "%s", err);
		return 1;
	}
	if (s->release[0]) {
		snprintf(log, sizeof(log), "%s/release-%zu.log", s->logs, i);
		if ((st = run_cmd(b, "--release", s->release, log, want, sizeof(want), why, whylen)))
			return st;
		if (!want[0]) {
			snprintf(why, whylen, "--release printed nothing: see %.300s", log);
			return 1;
		}
	}
	app_bisect_run_said(b, i, "installing");
	snprintf(log, sizeof(log), "%s/install-%zu.log", s->logs, i);
	if ((st = run_cmd(b, "--install", s->install, log, NULL, 0, why, whylen)))
		return st;
	app_bisect_run_said(b, i, "waiting for the DUT");
	deadline = clock_mono_ns() + s->dut_wait_s * NSEC_PER_SEC;
	t.connect_timeout_s = 10;
	for (;;) {
		struct dut *d = NULL;

		if (!dut_open(&t, NULL, 0, &d, err, sizeof(err))) {
			const char *rel = envcap_kv_get(dut_env(d), "dut.kernel.release");

			snprintf(got, sizeof(got), "%s", rel ? rel : "");
			dut_close(d);
			if (!want[0] || !strcmp(got, want))
				return 0;
		}
		if (stop_requested())
			return -EINTR;
		if (clock_mono_ns() >= deadline)
			break;
		sleep(2);
	}
	if (got[0])
		snprintf(why, whylen, "the DUT answered with kernel %.100s, not %.100s, for %u s", got, want,
			 s->dut_wait_s);
	else
		snprintf(why, whylen, "the DUT did not answer within %u s of --install: %.300s", s->dut_wait_s, err);
	return 1;
}

int app_bisect_prepare(struct app_bisect *b, size_t i, char *why, size_t whylen)
{
	const struct app_bisect_spec *s = &b->spec;
	const struct app_bisect_cand *c = &b->c[i];
	char log[4600], err[512];
	int st;

	setenv("WR_BISECT_CANDIDATE", c->id, 1);
	setenv("WR_BISECT_PREFIX", s->prefix, 1);
	if (s->tree[0]) {
		setenv("WR_BISECT_TREE", s->tree, 1);
		if (app_bisect_source_checkout(s->tree, c->id, err, sizeof(err))) {
			snprintf(why, whylen, "checkout failed: %s", err);
			return 1;
		}
	}
	if (s->build[0]) {
		app_bisect_run_said(b, i, "building");
		snprintf(log, sizeof(log), "%s/build-%zu.log", s->logs, i);
		if ((st = run_cmd(b, "the build", s->build, log, NULL, 0, why, whylen)))
			return st;
	}
	if (s->install[0]) {
		if ((st = install(b, i, why, whylen)))
			return st;
	}
	if (b->lab_spec) {
		struct lab_spec ls;

		app_bisect_run_said(b, i, "lab up");
		if (b->lab_spec(b->cli->ctx, b, i, &ls, err, sizeof(err)) || lab_down(s->prefix, err, sizeof(err)) ||
		    lab_up(&ls, err, sizeof(err))) {
			if (stop_requested())
				return -EINTR;
			snprintf(why, whylen, "the lab did not come up: %s", err);
			return 1;
		}
	}
	if (s->apply[0]) {
		snprintf(log, sizeof(log), "%s/apply-%zu.log", s->logs, i);
		if ((st = run_cmd(b, "--apply", s->apply, log, NULL, 0, why, whylen)))
			return st;
	}
	return 0;
}

