#include "render/matrixprint.h"

#include "core/units.h"

void matrixprint_json(struct out *o, const struct app_matrix *m, const int64_t *run_ids, const char *mtag,
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
			const char *val = app_matrix_value(m, c, k);

			if (val)
				out_str(o, m->axes[k].name, NULL, val);
		}
		out_obj_end(o);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_json_doc(o, "report", report);
}

void matrixprint_begin(int nconf, const char *prefix, const char *mtag)
{
	char t[4 * 64];

	printf("matrix: %d configuration(s) %s %s, runs tagged %s\n", nconf, prefix ? "in lab" : "on the test's",
	       prefix ? prefix : "DUT", out_escape_text(t, sizeof(t), mtag));
}

void matrixprint_planned(int nconf, double test_s, double lab_s)
{
	char when[64];

	duration_text(nconf * (test_s + lab_s), when, sizeof(when));
	fprintf(stderr, "matrix: planned: %d configuration(s) of about %.0f s each%s, %s in all (an estimate: "
		"each test says its own plan as it starts)\n", nconf, test_s, lab_s > 0 ? " and the lab's build" : "",
		when);
}

void matrixprint_config_done(void)
{
	printf("\n");
}

void matrixprint_config(int c, int nconf, const char *label)
{
	char l[4 * sizeof(((struct app_matrix *)0)->labels[0])];

	printf("matrix %d/%d: %s\n", c + 1, nconf, out_escape_text(l, sizeof(l), label));
	fflush(stdout);
}
