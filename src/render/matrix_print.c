#include "render/matrix_print.h"

#include <errno.h>

#include "core/units.h"

void matrix_print_json(struct out *o, const struct app_matrix_run *r, FILE *report)
{
	const struct app_matrix *m = r->m;

	out_str(o, "tag", NULL, r->mtag);
	out_str(o, "prefix", NULL, r->prefix);
	out_u64(o, "rounds", NULL, r->rounds);
	out_bool(o, "interleaved", NULL, r->interleave);
	if (r->interleave)
		out_str(o, "order", NULL, r->order == APP_MATRIX_SHUFFLE ? "shuffle" : "alternate");
	if (r->interleave && r->order == APP_MATRIX_SHUFFLE)
		out_u64(o, "seed", NULL, r->seed);
	out_arr_start(o, "configurations");
	for (int c = 0; c < m->nconf; c++) {
		bool first = true;

		out_obj_start(o, NULL);
		out_str(o, "label", NULL, m->labels[c]);
		for (int k = 0; k < r->nsteps && first; k++)
			if (r->steps[k].conf == c && !r->steps[k].drift_check) {
				out_i64(o, "run_id", NULL, r->run_ids[k]);
				first = false;
			}
		out_arr_start(o, "runs");
		for (int k = 0; k < r->nsteps; k++) {
			if (r->steps[k].conf != c || !r->run_ids[k])
				continue;
			out_obj_start(o, NULL);
			out_i64(o, "run_id", NULL, r->run_ids[k]);
			out_u64(o, "round", NULL, r->steps[k].round);
			if (r->steps[k].drift_check)
				out_bool(o, "drift_check", NULL, true);
			out_obj_end(o);
		}
		out_arr_end(o);
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

void matrix_print_begin(const struct app_matrix_run *r)
{
	char t[4 * 64];
	const char *prefix = r->remote ? NULL : r->prefix;

	printf("matrix: %d configuration(s) %s %s, runs tagged %s\n", r->m->nconf, prefix ? "in lab" : "on the test's",
	       prefix ? prefix : "DUT", out_escape_text(t, sizeof(t), r->mtag));
	if (r->interleave && r->order == APP_MATRIX_SHUFFLE)
		printf("matrix: %u rounds, each every configuration once, shuffled (seed %llu)\n", r->rounds,
		       (unsigned long long)r->seed);
	else if (r->interleave)
		printf("matrix: %u rounds, each every configuration once, in alternating order\n", r->rounds);
	else if (r->m->nconf > 1)
		printf("matrix: each configuration once%s, then the first again: the drift check\n",
		       r->back_to_back ? " (its test's repeats back to back)" : "");
}

void matrix_print_planned(int ntests, double test_s, double lab_s)
{
	char when[64];

	units_duration_text(ntests * (test_s + lab_s), when, sizeof(when));
	fprintf(stderr, "matrix: planned: %d test(s) of about %.0f s each%s, %s in all (an estimate: "
		"each test says its own plan as it starts)\n", ntests, test_s, lab_s > 0 ? " and the lab's build" : "",
		when);
}

void matrix_print_config_done(void)
{
	printf("\n");
}

void matrix_print_config(int k, int n, const char *label, unsigned int round, unsigned int rounds,
			 bool drift_check)
{
	char l[4 * sizeof(((struct app_matrix *)0)->labels[0])];

	printf("matrix %d/%d: %s", k + 1, n, out_escape_text(l, sizeof(l), label));
	if (drift_check)
		printf(" (again: the drift check)");
	else if (rounds > 1)
		printf(" (round %u of %u)", round, rounds);
	printf("\n");
	fflush(stdout);
}

static void on_begin(void *ctx, const struct app_matrix_run *r)
{
	(void)ctx;
	if (!r->json)
		matrix_print_begin(r);
	/* the test's own plan, once per test, and the lab's build */
	if (r->planned_s > 0)
		matrix_print_planned(r->nsteps, r->planned_s, r->remote ? 0 : APP_MATRIX_LAB_UP_S);
}

static void on_starting(void *ctx, const struct app_matrix_run *r, int k)
{
	const struct app_matrix_step *s = &r->steps[k];

	(void)ctx;
	if (!r->json)
		matrix_print_config(k, r->nsteps, r->m->labels[s->conf], s->round, r->interleave ? r->rounds : 1,
				    s->drift_check);
}

static void on_done(void *ctx, const struct app_matrix_run *r, int k)
{
	(void)ctx, (void)k;
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
	matrix_print_json(o, r, doc);
	out_destroy(o);
	return 0;
}

const struct app_matrix_hooks matrix_print_hooks = {
	.begin = on_begin, .starting = on_starting, .done = on_done, .report = on_report,
};
