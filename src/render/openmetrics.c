#include "render/openmetrics.h"
#include "core/ns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A label value: backslash, double quote and newline escaped; bytes
 * outside printable ASCII dropped, so that nothing a label holds can break
 * the line. */
static void label_value(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, f);
	}
}

static void family(FILE *f, const char *name, const char *type, const char *unit, const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s %s\n", name, help);
}

/* name{label="..",size="..",<extra>} value */
static void sample(FILE *f, const char *name, const char *label, unsigned int size, const char *extra, double v)
{
	fprintf(f, "%s{label=\"", name);
	label_value(f, label);
	fprintf(f, "\",size=\"%u\"%s%s} ", size, extra && *extra ? "," : "", extra ? extra : "");
	if (isnan(v))
		fputs("NaN\n", f);
	else
		fprintf(f, "%.17g\n", v);
}

enum tfig { T_OFFERED, T_FORWARDED, T_SENT, T_RECEIVED, T_LOST, T_LOSS, T_LIMITED, T_NFIG };

static const struct {
	const char *name, *unit, *help;
} tfigs[T_NFIG] = {
	[T_OFFERED] = { "wirerate_trial_offered_frames_per_second", NULL, "frames/s the generator offered" },
	[T_FORWARDED] = { "wirerate_trial_forwarded_frames_per_second", NULL, "frames/s the DUT forwarded" },
	[T_SENT] = { "wirerate_trial_sent_frames", NULL, "test frames sent" },
	[T_RECEIVED] = { "wirerate_trial_received_frames", NULL, "distinct test frames received in time" },
	[T_LOST] = { "wirerate_trial_lost_frames", NULL, "test frames lost" },
	[T_LOSS] = { "wirerate_trial_loss_ratio", "ratio", "lost / sent" },
	[T_LIMITED] = { "wirerate_trial_tester_limited", NULL, "1: the tester, not the DUT, limited the trial" },
};

static double tvalue(const struct trial_dir_result *d, enum tfig k)
{
	switch (k) {
	case T_OFFERED:
		return d->offered_pps;
	case T_FORWARDED:
		return d->tx ? d->offered_pps * (double)d->rx / (double)d->tx : 0;
	case T_SENT:
		return (double)d->tx;
	case T_RECEIVED:
		return (double)d->rx;
	case T_LOST:
		return (double)d->lost;
	case T_LOSS:
		return d->tx ? (double)d->lost / (double)d->tx : 0;
	default:
		return d->tester_limited;
	}
}

void openmetrics_write_trials(FILE *f, const char *label, const struct trial_result *res, unsigned int n,
		     const double *ns_per_frame)
{
	static const double qs[] = { 0.5, 0.99, 0.999 };
	char extra[64];

	for (int k = 0; k < T_NFIG; k++) {
		const char *name = tfigs[k].name;

		/* the unit's suffix is in the name where it has one */
		family(f, name, "gauge", k == T_LOSS ? "ratio" : tfigs[k].unit, tfigs[k].help);
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int d = 0; d < res[i].ndirs; d++) {
				snprintf(extra, sizeof(extra), "direction=\"%u\",repeat=\"%u\"", d, i);
				sample(f, name, label, (unsigned int)(res[i].avg_frame_size + 0.5), extra,
				       tvalue(&res[i].dir[d], (enum tfig)k));
			}
	}
	family(f, "wirerate_trial_latency_seconds", "summary", "seconds",
	       "one-way latency of the timed test frames");
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int d = 0; d < res[i].ndirs; d++) {
			const struct hist *h = &res[i].dir[d].latency;
			unsigned int size = (unsigned int)(res[i].avg_frame_size + 0.5);

			if (!h->count)
				continue;
			for (size_t q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
				snprintf(extra, sizeof(extra), "direction=\"%u\",repeat=\"%u\",quantile=\"%g\"", d, i, qs[q]);
				sample(f, "wirerate_trial_latency_seconds", label, size, extra,
				       ns_to_s(hist_quantile(h, qs[q])));
			}
			snprintf(extra, sizeof(extra), "direction=\"%u\",repeat=\"%u\"", d, i);
			sample(f, "wirerate_trial_latency_seconds_sum", label, size, extra,
			       ns_to_s(hist_mean(h) * (double)h->count));
			sample(f, "wirerate_trial_latency_seconds_count", label, size, extra, (double)h->count);
		}
	family(f, "wirerate_trial_dut_cpu_per_frame_seconds", "gauge", "seconds",
	       "the DUT's CPU time per forwarded frame");
	for (unsigned int i = 0; i < n; i++)
		if (ns_per_frame && ns_per_frame[i] > 0) {
			snprintf(extra, sizeof(extra), "repeat=\"%u\"", i);
			sample(f, "wirerate_trial_dut_cpu_per_frame_seconds", label,
			       (unsigned int)(res[i].avg_frame_size + 0.5), extra, ns_to_s(ns_per_frame[i]));
		}
	fputs("# EOF\n", f);
}

void openmetrics_write_rfc2544(FILE *f, const char *label, const struct rfc2544_result *res)
{
	for (int pdr = 0; pdr < 2; pdr++) {
		const char *name = pdr ? "wirerate_rfc2544_pdr_frames_per_second" : "wirerate_rfc2544_ndr_frames_per_second";

		family(f, name, "gauge", NULL, pdr ? "the highest load the DUT forwarded within the PDR loss goal"
						   : "the highest load the DUT forwarded without loss");
		for (unsigned int i = 0; i < res->nrows; i++) {
			const struct search_bound *b = pdr ? &res->row[i].thr.pdr : &res->row[i].thr.ndr;
			double v = res->row[i].nrep > 1 ? (pdr ? res->row[i].pdr_iv.median : res->row[i].ndr_iv.median)
							: b->lower;

			if (res->row[i].thr_done && b->lower_valid)
				sample(f, name, label, res->row[i].size, NULL, v);
		}
	}
	for (int pdr = 0; pdr < 2; pdr++) {
		const char *name = pdr ? "wirerate_rfc2544_pdr_at_least" : "wirerate_rfc2544_ndr_at_least";

		family(f, name, "gauge", NULL, "1: the figure is a bound the tester or --max-load set, not the DUT");
		for (unsigned int i = 0; i < res->nrows; i++) {
			const struct rfc2544_row *row = &res->row[i];
			const struct search_bound *b = pdr ? &row->thr.pdr : &row->thr.ndr;

			if (row->thr_done && b->lower_valid)
				sample(f, name, label, row->size, NULL,
				       rfc2544_bound_note(row, &row->thr, pdr, NULL, 0) || (pdr ? row->pdr_bound : row->ndr_bound));
		}
	}
	family(f, "wirerate_rfc2544_latency_seconds", "gauge", "seconds", "latency at the throughput rate");
	for (unsigned int i = 0; i < res->nrows; i++) {
		const struct rfc2544_row *row = &res->row[i];

		if (!row->lat_done)
			continue;
		sample(f, "wirerate_rfc2544_latency_seconds", label, row->size, "stat=\"median\"",
		       ns_to_s(row->lat_median));
		sample(f, "wirerate_rfc2544_latency_seconds", label, row->size, "stat=\"p99\"", ns_to_s(row->lat_p99));
		sample(f, "wirerate_rfc2544_latency_seconds", label, row->size, "stat=\"max\"", ns_to_s(row->lat_max));
	}
	fputs("# EOF\n", f);
}

void openmetrics_trials_write(FILE *f, void *arg)
{
	const struct om_trials *t = arg;

	openmetrics_write_trials(f, t->label, t->res, t->n, t->ns);
}

void openmetrics_rfc2544_write(FILE *f, void *arg)
{
	const struct om_rfc2544 *m = arg;

	openmetrics_write_rfc2544(f, m->label, m->res);
}
