#include "render/r2544print.h"

#include <math.h>
#include <stdio.h>

static void size_name(const struct r2544_row *row, char *buf, size_t len)
{
	if (row->size)
		snprintf(buf, len, "%u B", row->size);
	else
		snprintf(buf, len, "imix");
}

static void range_text(const struct r2544_agree_size *z, char *buf, size_t len)
{
	if (isinf(z->hi))
		snprintf(buf, len, "%.0f or more", z->lo);
	else if (z->hi - z->lo < 0.5)
		snprintf(buf, len, "%.0f", z->lo);
	else
		snprintf(buf, len, "%.0f-%.0f", z->lo, z->hi);
}

static void one(struct out *o, const struct r2544_result *res, const struct r2544_agree *a, const char *key)
{
	const char *name = key[0] == 'n' ? "NDR" : "PDR";
	char line[320], sz[16], range[64];

	out_obj_start(o, key);
	out_bool(o, "agree", NULL, a->agree);
	out_bool(o, "explained", NULL, a->agree || a->explained);
	out_u64(o, "at_line_rate", NULL, a->nline);
	out_f64(o, "lo", NULL, a->lo);
	out_f64(o, "hi", NULL, isinf(a->hi) ? NAN : a->hi);
	if (a->agree && isinf(a->hi))
		snprintf(line, sizeof(line), "%s agree: every size's range holds %.0f frames/s (some are \"at least\")",
			 name, a->lo);
	else if (a->agree)
		snprintf(line, sizeof(line), "%s agree: every size forwards %.0f-%.0f frames/s, so the DUT is "
			 "bound by frames, not bytes", name, a->lo, a->hi);
	else
		snprintf(line, sizeof(line), "%s differ: not every size's range reaches %.0f frames/s, where "
			 "another's starts", name, a->hi);
	out_str(o, "text", "  sizes      %s", line);
	if (a->nline)
		out_text(o, " (%u at line rate left out: bound by bytes)", a->nline);
	out_text(o, "\n");
	out_arr_start(o, "rows");
	for (unsigned int k = 0; k < a->n; k++) {
		const struct r2544_agree_size *z = &a->s[k];

		size_name(&res->row[z->row], sz, sizeof(sz));
		range_text(z, range, sizeof(range));
		out_obj_start(o, NULL);
		out_u64(o, "size", NULL, res->row[z->row].size);
		out_f64(o, "figure", NULL, z->figure);
		out_f64(o, "lo", NULL, z->lo);
		out_f64(o, "hi", NULL, isinf(z->hi) ? NAN : z->hi);
		out_bool(o, "below", NULL, z->below);
		if (z->below) {
			out_text(o, "             %s %s:", sz, range);
			if (z->fail_load > 0) {
				out_f64(o, "failed_load", " its failed trial at %.0f frames/s:", z->fail_load);
				out_str(o, "limit", NULL, lossattr_limit_name(z->by));
				out_str(o, "limit_text", " %s\n", z->why[0] ? z->why : "nothing any counter saw");
			} else {
				out_text(o, " no failed trial above it was kept\n");
			}
		}
		out_obj_end(o);
	}
	out_arr_end(o);
	if (!a->agree && !a->explained)
		out_text(o, "             not explained by a counter: '--repeat 5' gives each size an interval\n");
	out_obj_end(o);
}

void r2544_agree_print(struct out *o, const struct r2544_result *res)
{
	if (res->agree[0].n < 2 && res->agree[1].n < 2)
		return;
	out_text(o, "\n");
	out_obj_start(o, "sizes");
	if (res->agree[0].n >= 2)
		one(o, res, &res->agree[0], "ndr");
	if (res->agree[1].n >= 2)
		one(o, res, &res->agree[1], "pdr");
	out_obj_end(o);
}
