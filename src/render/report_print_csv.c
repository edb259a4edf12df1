/* A report as CSV: one line per run and frame size, and the frame loss
 * test's steps (report_print_csv.h). */
#include "render/report_print_csv.h"
#include "render/out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/report_db.h"

/* A field from the store: escaped as the text tables are (a CSV file is
 * often looked at on a terminal), then quoted when it needs it. The
 * fields are at most a config's 160 bytes. */
static void csv_str(FILE *f, const char *raw)
{
	char buf[4 * sizeof(((struct rm_run *)0)->config)];
	const char *s = out_escape_text(buf, sizeof(buf), raw);

	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Exact, as the JSON is: 15 significant digits when they read back as
 * the same double, else 17. Six (%.6g) printed 1.23457e+06 for a rate
 * above a million frames/s and 19757.2 for a median of 19757.234375. */
static void csv_num(FILE *f, double v, bool have)
{
	char b[32];

	if (!have || !isfinite(v)) {
		fputs(",", f);
		return;
	}
	snprintf(b, sizeof(b), "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof(b), "%.17g", v);
	fprintf(f, ",%s", b);
}

/* The columns that say which run a line is from. */
#define CSV_RUN_HEADER "run_id,label,when,test,kernel,config,interrupted,store"

static void csv_run(FILE *f, const struct rm_run *run)
{
	fprintf(f, "%lld,", (long long)run->id);
	csv_str(f, run->label);
	fprintf(f, ",%s,", run->when);
	csv_str(f, run->test);
	fputc(',', f);
	csv_str(f, run->kernel);
	fputc(',', f);
	csv_str(f, run->config);
	fprintf(f, ",%d,", run->interrupted);
	csv_str(f, run->store);
}

void report_print_csv(const struct report_model *m, FILE *f)
{
	fputs(CSV_RUN_HEADER ",size,repeats,ndr_median_pps,ndr_min_pps,"
	      "ndr_max_pps,width_pps,pdr_median_pps,line_pps,ndr_pct_line_rate,at_least,lat_min_ns,"
	      "lat_median_ns,lat_p99_ns,lat_p99_9_ns,lat_max_ns,ns_per_frame,b2b_frames,verdict,diff_pct,"
	      "trials,trial_offered_pps,trial_forwarded_pps,trial_forwarded_min_pps,trial_forwarded_max_pps,"
	      "trial_loss_pct,ndr_interval_lo_pps,ndr_interval_hi_pps,ndr_interval_coverage,pdr_at_least,"
	      "ndr_noise_limited,noise_ppm_lo,noise_ppm_hi,stream_runs,stream_received_mbps,"
	      "stream_received_min_mbps,stream_received_max_mbps,stream_sent_mbps,stream_loss_pct,"
	      "stream_send_sd_us_per_kb,stream_receive_sd_us_per_kb,stream_dut_sd_us_per_kb\n", f);
	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		for (unsigned int k = 0; k < run->ncells; k++) {
			const struct rm_cell *c = &run->cell[k];

			csv_run(f, run);
			fprintf(f, ",%u,%u", c->size, c->repeats);
			csv_num(f, c->ndr_med, c->have_thr);
			csv_num(f, c->ndr_min, c->have_thr);
			csv_num(f, c->ndr_max, c->have_thr);
			csv_num(f, c->width_pps, c->have_thr);
			csv_num(f, c->pdr_med, c->pdr_med > 0);
			csv_num(f, c->line_pps, c->line_pps > 0);
			csv_num(f, c->line_pps > 0 ? c->ndr_med * 100 / c->line_pps : 0, c->have_thr && c->line_pps > 0);
			fprintf(f, ",%d", c->tester_limited);
			csv_num(f, c->lat_min, c->have_lat);
			csv_num(f, c->lat_median, c->have_lat);
			csv_num(f, c->lat_p99, c->have_lat);
			csv_num(f, c->lat_p999, c->have_lat);
			csv_num(f, c->lat_max, c->have_lat);
			csv_num(f, c->ns_per_frame, c->ns_per_frame > 0);
			csv_num(f, c->b2b_frames, c->b2b_frames > 0);
			fprintf(f, ",%s", report_db_verdict_name(c->verdict));
			csv_num(f, c->diff_pct, c->verdict >= RM_NOISE && !c->diff_at_least && c->verdict != RM_NOT_COMPARABLE);
			csv_num(f, c->trials, c->have_trial);
			csv_num(f, c->trial_offered_pps, c->have_trial);
			csv_num(f, c->trial_fwd_pps, c->have_trial);
			csv_num(f, c->trial_fwd_min, c->have_trial);
			csv_num(f, c->trial_fwd_max, c->have_trial);
			csv_num(f, c->trial_loss_pct, c->have_trial);
			csv_num(f, c->ndr_iv.lo, c->ndr_iv.n > 0);
			csv_num(f, c->ndr_iv.hi, c->ndr_iv.n > 0);
			csv_num(f, c->ndr_iv.coverage, c->ndr_iv.n > 0);
			fprintf(f, ",%d,%d", c->pdr_bound, c->nf.limited);
			csv_num(f, c->nf.ppm_lo, c->nf.limited);
			csv_num(f, c->nf.ppm_hi, c->nf.limited);
			csv_num(f, c->stream_runs, c->have_stream);
			csv_num(f, c->st_recv_mbps, c->have_stream);
			csv_num(f, c->st_recv_min, c->have_stream);
			csv_num(f, c->st_recv_max, c->have_stream);
			csv_num(f, c->st_send_mbps, c->have_stream);
			csv_num(f, c->st_loss_pct, c->have_stream);
			csv_num(f, c->st_send_sd, c->have_stream && c->st_send_sd >= 0);
			csv_num(f, c->st_recv_sd, c->have_stream && c->st_recv_sd >= 0);
			csv_num(f, c->st_dut_sd, c->have_stream && c->st_dut_sd >= 0);
			fputc('\n', f);
		}
	}
}

void report_print_csv_loss(const struct report_model *m, FILE *f)
{
	fputs(CSV_RUN_HEADER ",size,step,offered_pct,offered_pps,loss_pct\n", f);
	for (unsigned int r = 0; r < m->nruns; r++) {
		const struct rm_run *run = &m->run[r];

		for (unsigned int k = 0; k < run->ncells; k++) {
			const struct rm_cell *c = &run->cell[k];

			for (unsigned int i = 0; i < c->nloss; i++) {
				csv_run(f, run);
				fprintf(f, ",%u,%u", c->size, i + 1);
				csv_num(f, c->loss[i].offered_pct, true);
				csv_num(f, c->loss[i].offered_pps, true);
				csv_num(f, c->loss[i].loss_pct, true);
				fputc('\n', f);
			}
		}
	}
}
