#include "render/matrix_print.h"

#include <errno.h>

#include "core/units.h"

void matrix_print_json(struct out *o, const struct app_matrix *m, const int64_t *run_ids, const char *mtag,
		      const char *prefix, FILE *report)
{
	out_str(o, "tag", NULL, mtag);
	out_str(o, "prefix", NULL, prefix);
	out_arr_start(o, "configurations");
	for (int c = 0; c < m->nconf; c++) {
		out_obj_start(o, NULL);
		out_str(o, "label", NULL, m->labels[c]);
		out_i64(o, "run_id", NULL, run_ids[c]);
		out_obj_start(o, "lab");
		for (int k = 0; k < APP_MATRIX_NAXES; k++) {
			const char *val = app_matrix_plan_value(m, c, k);

			if (val)
				out_str(o, m->axes[k].name, NULL, val);
		}
		out_obj_end(o);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_json_doc(o, "report", report);
}

void matrix_print_begin(int nconf, const char *prefix, const char *mtag)
{
	char t[4 * 64];

	printf("matrix: %d configuration(s) %s %s, runs tagged %s\n", nconf, prefix ? "in lab" : "on the test's",
	       prefix ? prefix : "DUT", out_escape_text(t, sizeof(t), mtag));
}

void matrix_print_planned(int nconf, double test_s, double lab_s)
{
	char when[64];

	units_duration_text(nconf * (test_s + lab_s), when, sizeof(when));
	fprintf(stderr, "matrix: planned: %d configuration(s) of about %.0f s each%s, %s in all (an estimate: "
		"each test says its own plan as it starts)\n", nconf, test_s, lab_s > 0 ? " and the lab's build" : "",
		when);
}

void matrix_print_config_done(void)
{
	printf("\n");
}

void matrix_print_config(int c, int nconf, const char *label)
{
	char l[4 * sizeof(((struct app_matrix *)0)->labels[0])];

	printf("matrix %d/%d: %s\n", c + 1, nconf, out_escape_text(l, sizeof(l), label));
	fflush(stdout);
}

static void on_begin(void *ctx, const struct app_matrix_run *r)
{
	(void)ctx;
	if (!r->json)
		matrix_print_begin(r->m->nconf, r->remote ? NULL : r->prefix, r->mtag);
	/* the test's own plan, once per configuration, and the lab's build */
	if (r->planned_s > 0)
		matrix_print_planned(r->m->nconf, r->planned_s, r->remote ? 0 : APP_MATRIX_LAB_UP_S);
}

static void on_starting(void *ctx, const struct app_matrix_run *r, int c)
{
	(void)ctx;
	if (!r->json)
		matrix_print_config(c, r->m->nconf, r->m->labels[c]);
}

static void on_done(void *ctx, const struct app_matrix_run *r, int c)
{
	(void)ctx, (void)c;
	if (!r->json)
		matrix_print_config_done();
}

/* With json, the matrix's one document, the report's inside it. */
static int on_report(void *ctx, const struct app_matrix_run *r, FILE *doc)
{
	const struct matrix_print_run *p = ctx;
	struct out *o = p->create(true, "matrix");

	if (!o)
		return -ENOMEM;
	matrix_print_json(o, r->m, r->run_ids, r->mtag, r->prefix, doc);
	out_destroy(o);
	return 0;
}

const struct app_matrix_hooks matrix_print_hooks = {
	.begin = on_begin, .starting = on_starting, .done = on_done, .report = on_report,
};
