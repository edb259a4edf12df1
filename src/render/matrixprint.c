#include "render/matrixprint.h"

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
