/* The gate's verdict printed (render/gate_print.h). */
#include "render/gate_print.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/kcidb_print.h"
#include "render/ktap_print.h"

const char *gate_print_verdict_name(enum app_gate_verdict v)
{
	switch (v) {
	case APP_GATE_OK: return "no regression";
	case APP_GATE_REGRESSION: return "regression";
	default: return "cannot tell";
	}
}

static const char *status_name(enum testpoint_status st)
{
	switch (st) {
	case TESTPOINT_PASS: return "pass";
	case TESTPOINT_FAIL: return "FAIL";
	case TESTPOINT_SKIP: return "skip";
	case TESTPOINT_DONE: return "done";
	case TESTPOINT_UNSURE: return "cannot tell";
	default: return "error";
	}
}

void gate_print_points(struct out *o, const struct testpoint_set *s)
{
	out_arr_start(o, "points");
	for (unsigned int i = 0; i < s->n; i++) {
		const struct testpoint *t = &s->p[i];

		out_obj_start(o, NULL);
		out_str(o, "path", "  %-40s", t->path);
		out_str(o, "status", " %-11s", status_name(t->status));
		if (t->have_value && isfinite(t->value)) {
			double a = fabs(t->value);

			/* whole frames/s in full, as the KTAP lines have them */
			out_f64(o, "value", a >= 1e5 && a < 1e15 ? " %.0f" : " %.6g", t->value);
			out_str(o, "unit", " %s:", t->unit);
		} else {
			out_null(o, "value");
			out_str(o, "unit", NULL, t->unit);
		}
		out_str(o, "line", " %s\n", t->line);
		out_obj_end(o);
	}
	out_arr_end(o);
}

static void run_of(struct out *o, const char *key, const struct rm_run *r)
{
	out_obj_start(o, key);
	out_i64(o, "id", NULL, r->id);
	out_str(o, "ref", "%s", r->ref);
	if (r->label[0])
		out_str(o, "label", " (%s)", r->label);
	else
		out_str(o, "label", NULL, r->label);
	out_str(o, "uuid", NULL, r->uuid);
	out_str(o, "test", NULL, r->test);
	out_str(o, "when", NULL, r->when);
	out_str(o, "kernel", NULL, r->kernel);
	out_str(o, "config", NULL, r->config);
	out_str(o, "dut", NULL, r->dut);
	out_obj_end(o);
}

static int print(void *ctx, const struct app_gate_opts *op, const struct report_model *m,
		 const struct testpoint_set *s, enum app_gate_verdict v)
{
	const struct gate_print *p = ctx;
	struct testpoint_counts c = testpoint_count(s);
	struct out *o;

	if (op->ktap)
		return ktap_print_stdout(s);
	o = p->create(op->json, "gate");
	out_text(o, "gate: %s run ", m->run[1].test);
	run_of(o, "run", &m->run[1]);
	out_text(o, " against the baseline ");
	run_of(o, "baseline", &m->run[0]);
	out_f64(o, "threshold_pct", ", threshold %.4g%%\n", op->threshold_pct);
	gate_print_points(o, s);
	out_str(o, "verdict", "verdict: %s", gate_print_verdict_name(v));
	out_text(o, " (%u passed, %u failed, %u cannot tell)\n", c.pass + c.done, c.fail, c.unsure + c.error);
	if (op->kcidb.path)
		out_str(o, "kcidb", "KernelCI results: %s\n", op->kcidb.path);
	out_destroy(o);
	return fflush(stdout) ? -errno : 0;
}

int gate_print_kcidb_file(const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err, size_t errlen)
{
	const struct kcidb_ids ids = { .origin = k->origin, .checkout_id = k->checkout_id, .build_id = k->build_id };

	return kcidb_print_file(k->path, s, &ids, err, errlen);
}

static int kcidb(void *ctx, const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err, size_t errlen)
{
	(void)ctx;
	return gate_print_kcidb_file(k, s, err, errlen);
}

const struct app_gate_hooks gate_print_hooks = { .print = print, .kcidb = kcidb };
