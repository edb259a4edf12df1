#include "render/loss_print.h"

#include <math.h>
#include <stdio.h>

void loss_print_attr(struct out *o, const struct lossattr *a, const char *note)
{
	char line[1024];

	out_obj_start(o, "loss");
	out_str(o, "text", "  loss       %s", lossattr_format(a, line, sizeof(line)));
	if (note && note[0])
		out_str(o, "note", " (%s)", note);
	else
		out_null(o, "note");
	out_text(o, "\n");
	out_u64(o, "lost", NULL, a->lost);
	out_u64(o, "counted", NULL, a->counted);
	out_u64(o, "over", NULL, a->over);
	out_bool(o, "dut_counters", NULL, a->have_dut);
	out_arr_start(o, "places");
	for (unsigned int i = 0; i < a->n; i++) {
		out_obj_start(o, NULL);
		out_str(o, "place", NULL, lossattr_place_name(a->e[i].place));
		/* the tester's, the DUT's or a VM lab's plumbing; null for unaccounted */
		if (a->e[i].place == LOSS_UNACCOUNTED)
			out_null(o, "owner");
		else
			out_str(o, "owner", NULL, lossattr_place_owner(a->e[i].place));
		out_str(o, "detail", NULL, a->e[i].detail);
		out_u64(o, "frames", NULL, a->e[i].frames);
		out_bool(o, "shared", NULL, a->e[i].shared);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

void loss_print_noisefloor(struct out *o, const struct nf_result *nf, const char *where, const char *indent)
{
	char fmt[64];

	out_obj_start(o, "noise_floor");
	out_bool(o, "ndr_limited", NULL, nf->limited);
	if (nf->lossy) {
		char text[512];

		noisefloor_text(nf, text, sizeof(text));
		snprintf(fmt, sizeof(fmt), "%s%%s\n", indent ? indent : "");
		if (text[0])
			out_str(o, "text", indent ? fmt : NULL, text);
		snprintf(fmt, sizeof(fmt), "%sthat loss went most to %%s\n", indent ? indent : "");
		if (nf->limited && where && where[0])
			out_str(o, "where", indent ? fmt : NULL, where);
		out_f64(o, "ppm_lo", NULL, nf->ppm_lo);
		out_f64(o, "ppm_hi", NULL, nf->ppm_hi);
		out_f64(o, "ppm", NULL, nf->ppm);
		out_f64(o, "reference_load", NULL, nf->ref_load);
		out_u64(o, "trials", NULL, nf->trials);
		out_u64(o, "lossy_trials", NULL, nf->lossy);
		out_u64(o, "loads_with_loss", NULL, nf->nloads);
		out_f64(o, "load_lo", NULL, nf->load_lo);
		out_f64(o, "load_hi", NULL, nf->load_hi);
		if (isfinite(nf->elasticity))
			out_f64(o, "elasticity", NULL, nf->elasticity);
		out_arr_start(o, "loads");
		for (unsigned int k = 0; k < nf->nloads && k < NF_MAX_LOADS; k++)
			out_f64(o, NULL, NULL, nf->loads[k]);
		out_arr_end(o);
	}
	out_obj_end(o);
}

void loss_print_limit(struct out *o, enum lossattr_limit_by by, const char *text)
{
	out_obj_start(o, "limit");
	out_str(o, "by", NULL, lossattr_limit_name(by));
	out_str(o, "text", "  limit      %s\n", text);
	out_obj_end(o);
}
