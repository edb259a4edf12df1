/* htmlgen: writes the HTML report of a synthetic report model, for the
 * test that renders it in a browser (tests/netns/report_html.sh).
 *   htmlgen [--empty | --one | --many | --example | --trials | --garbage] FILE
 * default: 3 runs (one labelled with a script tag), 7 frame sizes 64..1518
 * with repeats, loss curves, latency, CPU, a regression and one missing
 * cell; --example: the same with plain labels (docs/report-example.png);
 * --empty: no runs; --one: the baseline alone; --many: 16 runs with zero,
 * NaN and infinite figures sprinkled in, which must never reach the SVG;
 * --trials: 3 runs of plain trials only (a baseline, one 41% worse, one
 * at another load), 2 sizes, one of them missing in a run;
 * --garbage: 200 models of random bytes written in turn (for the
 * sanitizer build). Exit 0, or 1 with the writer's error. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/html.h"

static const unsigned int sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* % of line rate per size for three kernels, 2.6.26, 2.6.29, 2.6.30 */
static const double kernels3[3][NSIZES] = {
	{ 21, 34, 58, 83, 100, 100, 100 },
	{ 17, 28, 49, 85, 100, 100, 100 },
	{ 19, 32, 54, 85, 100, 100, 100 },
};

static double line_pps(unsigned int size)
{
	return 1e9 / ((size + 20) * 8.0);	/* 1 Gb/s, preamble + IFG */
}

static void fill_cell(struct rm_cell *c, unsigned int size, double pct, unsigned int run)
{
	double line = line_pps(size);

	memset(c, 0, sizeof(*c));
	c->size = size;
	c->have_thr = true;
	c->repeats = 3;
	c->line_pps = line;
	c->ndr_med = line * pct / 100;
	c->ndr_min = c->ndr_med * (pct >= 100 ? 1 : 0.97);
	c->ndr_max = fmin(c->ndr_med * 1.025, line);
	c->pdr_med = fmin(c->ndr_med * 1.04, line);
	c->have_lat = true;
	c->lat_min = 8000 + size * 2 + run * 500;
	c->lat_median = 18000 + size * 6 + run * 2500;
	c->lat_p99 = 61000 + size * 20 + run * 9000;
	c->lat_p999 = 150000 + run * 30000;
	c->lat_max = 900000 + run * 250000;
	c->ns_per_frame = 870 + run * 95 + size * 0.02;
	c->b2b_frames = 1000 + size;
	/* the frame loss test: 100% down to 10% of the maximum load */
	if (pct < 100 || (size == 1024 && run == 0)) {
		for (unsigned int i = 0; i < 10; i++) {
			struct rm_loss_point *l = &c->loss[c->nloss++];

			l->offered_pct = 100 - 10.0 * i;
			l->offered_pps = line * l->offered_pct / 100;
			l->loss_pct = l->offered_pct > pct ? (1 - pct / l->offered_pct) * 100 : 0;
		}
	}
}

/* Verdicts as the store's comparison gives them: within the spread is
 * noise, otherwise better or worse by the median's difference. */
static void compare(struct report_model *m)
{
	for (unsigned int r = 0; r < m->nruns; r++)
		for (unsigned int i = 0; i < m->run[r].ncells; i++) {
			struct rm_cell *c = &m->run[r].cell[i];
			const struct rm_cell *b = report_model_cell_of(&m->run[0], c->size);

			if (r == 0) {
				c->verdict = RM_BASELINE;
				continue;
			}
			if (!b || !c->have_thr || !b->have_thr || !(b->ndr_med > 0)) {
				c->verdict = RM_NONE;
				continue;
			}
			c->diff_pct = (c->ndr_med - b->ndr_med) * 100 / b->ndr_med;
			if (c->ndr_max >= b->ndr_min && c->ndr_min <= b->ndr_max)
				c->verdict = RM_NOISE;
			else
				c->verdict = c->diff_pct > 0 ? RM_BETTER : RM_WORSE;
			if (c->verdict == RM_WORSE && -c->diff_pct > m->fail_pct && m->fail_pct >= 0)
				m->regression = true;
		}
}

static void basic(struct report_model *m, unsigned int nruns, bool hostile)
{
	static const char *const label[] = { "2.6.26", "<script>alert(1)</script>",
					     "2.6.30 & \"quoted\" 'label'" };
	static const char *const plain[] = { "2.6.26", "2.6.29", "2.6.30" };
	static const char *const config[] = { "placement=bound rules=0 dut-cpus=1",
					      "placement=free rules=0 dut-cpus=1",
					      "placement=split rules=1000 dut-cpus=2" };

	snprintf(m->title, sizeof(m->title), "Kernel forwarding: 2.6.26 vs 2.6.29 vs 2.6.30");
	m->nruns = nruns;
	m->fail_pct = 5;
	for (unsigned int r = 0; r < nruns; r++) {
		struct rm_run *run = &m->run[r];

		run->id = 12 + r * 3;
		snprintf(run->label, sizeof(run->label), "%s", hostile ? label[r] : plain[r]);
		snprintf(run->when, sizeof(run->when), "2026-03-0%uT10:1%u:00", r + 1, r);
		snprintf(run->test, sizeof(run->test), "rfc2544 all");
		snprintf(run->kernel, sizeof(run->kernel), "6.1.0-%u-amd64", 18 + r);
		snprintf(run->config, sizeof(run->config), "%s", config[r]);
		run->interrupted = r == 1;
		/* the host moved the CPUs for the last run (a hostile note) */
		if (r == 2) {
			run->placement_moved = true;
			snprintf(run->placement_note, sizeof(run->placement_note), "%s",
				 hostile ? "CPUs 0 and 1 <b>172</b> ns & \"apart\" (42 in the baseline)"
					 : "CPUs 0 and 1 172 ns a cache line apart (42 in the baseline)");
		}
		for (unsigned int s = 0; s < NSIZES; s++) {
			if (r == 2 && sizes[s] == 1280)
				continue;	/* the missing cell */
			fill_cell(&run->cell[run->ncells], sizes[s], kernels3[r][s], r);
			/* at 1518 B the tester was the limit in the baseline */
			run->cell[run->ncells].tester_limited = r == 0 && sizes[s] == 1518;
			run->ncells++;
		}
	}
	m->nsizes = NSIZES;
	memcpy(m->sizes, sizes, sizeof(sizes));
	compare(m);
}

/* 16 runs, some without line rate (pps cells), zeros and NaN. */
static void many(struct report_model *m)
{
	snprintf(m->title, sizeof(m->title), "Sixteen runs, odd figures");
	m->nruns = RM_MAX_RUNS;
	m->fail_pct = -1;
	for (unsigned int r = 0; r < RM_MAX_RUNS; r++) {
		struct rm_run *run = &m->run[r];

		run->id = 100 + r;
		if (r % 3)
			snprintf(run->label, sizeof(run->label),
				 "a rather long label for run %u that goes on and on and on", r);
		snprintf(run->kernel, sizeof(run->kernel), "6.%u.0", r);
		snprintf(run->config, sizeof(run->config), "rules=%u", r * 10);
		for (unsigned int s = 0; s < NSIZES; s++) {
			struct rm_cell *c = &run->cell[run->ncells++];

			fill_cell(c, sizes[s], 15 + r * 5 + s * 10 > 100 ? 100 : 15 + r * 5 + s * 10, r);
			c->line_pps = r == 5 ? 0 : c->line_pps;
			if (r == 7 && s == 2) {
				c->ndr_med = NAN;
				c->lat_median = NAN;
				c->ns_per_frame = INFINITY;
				c->loss[0].loss_pct = NAN;
			}
			if (r == 8 && s == 3) {
				c->ndr_med = c->ndr_min = c->ndr_max = 0;
				c->lat_min = 0;
				c->ns_per_frame = 0;
			}
			if (r == 9)
				c->repeats = 1;
		}
	}
	m->nsizes = NSIZES;
	memcpy(m->sizes, sizes, sizeof(sizes));
	compare(m);
}

/* Plain trials only: what `wirerate trial --label` runs compare by. */
static void trials(struct report_model *m)
{
	static const unsigned int tsz[2] = { 64, 1518 };
	/* offered, forwarded per run and size; 0: no trial of that size */
	static const double tr[3][2][2] = {
		{ { 100000, 100000 }, { 50000, 50000 } },
		{ { 100000, 59000 }, { 0, 0 } },
		{ { 200000, 150000 }, { 50000, 50000 } },
	};

	m->nruns = 3;
	for (unsigned int r = 0; r < 3; r++) {
		struct rm_run *run = &m->run[r];

		run->id = 20 + r;
		snprintf(run->label, sizeof(run->label), "k%u", r);
		snprintf(run->test, sizeof(run->test), "trial");
		snprintf(run->config, sizeof(run->config), "placement=bound rules=%u", r * 1000);
		for (unsigned int s = 0; s < 2; s++) {
			struct rm_cell *c;

			if (!tr[r][s][0])
				continue;
			c = &run->cell[run->ncells++];
			c->size = tsz[s];
			c->have_trial = true;
			c->trial_offered_pps = tr[r][s][0];
			c->trial_fwd_pps = c->trial_fwd_min = c->trial_fwd_max = tr[r][s][1];
			c->trials = 1;
			c->trial_loss_pct = (tr[r][s][0] - tr[r][s][1]) * 100 / tr[r][s][0];
			c->ns_per_frame = 3000 + 100 * r;
		}
	}
	m->run[0].cell[0].trials = 3;
	m->run[0].cell[0].trial_fwd_min = 99000;
	m->run[0].cell[0].trial_fwd_max = 100000;
	m->nsizes = 2;
	memcpy(m->sizes, tsz, sizeof(tsz));
	/* the verdicts store/report_db.c gives these (tests/unit/test_report.c checks
	 * that): run 2's 64-byte trial is at another load, so it has none */
	m->run[0].cell[0].verdict = m->run[0].cell[1].verdict = RM_BASELINE;
	m->run[1].cell[0].verdict = RM_WORSE;
	m->run[1].cell[0].diff_pct = -41;
	m->run[2].cell[1].verdict = RM_NOISE;
	m->fail_pct = 5;
	m->regression = true;
}

/* Random bytes where the model's figures and strings are (strings not
 * terminated, counts past the arrays, NaN, denormals), with valid bools
 * since a bool's bytes are the filler's promise. */
static void garbage(struct report_model *m, unsigned int seed)
{
	unsigned char *b = (unsigned char *)m;

	srand(seed);
	for (size_t i = 0; i < sizeof(*m); i++)
		b[i] = (unsigned char)rand();
	m->regression = rand() & 1;
	for (unsigned int r = 0; r < RM_MAX_RUNS; r++) {
		m->run[r].interrupted = rand() & 1;
		m->run[r].placement_moved = rand() & 1;
		for (unsigned int c = 0; c < RM_MAX_SIZES; c++) {
			struct rm_cell *x = &m->run[r].cell[c];

			x->have_thr = rand() & 1;
			x->have_lat = rand() & 1;
			x->have_trial = rand() & 1;
			x->tester_limited = rand() & 1;
			x->pdr_bound = rand() & 1;
			x->ndr_iv.goal_met = rand() & 1;
			x->pdr_iv.goal_met = rand() & 1;
			x->nf.limited = rand() & 1;
			x->have_loss = rand() & 1;
			x->have_stream = rand() & 1;
			x->have_prof = rand() & 1;
			x->diff_at_least = rand() & 1;
			if (seed % 2) {	/* sizes that match, so cells are drawn */
				x->size = m->sizes[c] = 64u << (c % 5);
				m->run[r].ncells = RM_MAX_SIZES;
			}
		}
	}
	if (seed % 3 == 0) {
		m->nruns %= RM_MAX_RUNS + 1;
		m->nsizes %= RM_MAX_SIZES + 1;
	}
}

static int write_one(const struct report_model *m, const char *path)
{
	char err[256] = "";
	FILE *f = fopen(path, "w");
	int rc;

	if (!f) {
		perror(path);
		return 1;
	}
	rc = html_report_write(m, f, err, sizeof(err));
	if (fclose(f) && !rc) {
		perror(path);
		return 1;
	}
	if (rc) {
		fprintf(stderr, "htmlgen: %s (%d)\n", err, rc);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct report_model m;
	const char *path = argv[argc - 1];

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: htmlgen [--empty | --one | --many | --example | --trials | --garbage] FILE\n");
		return 2;
	}
	m.fail_pct = -1;
	if (argc == 3 && !strcmp(argv[1], "--empty"))
		snprintf(m.title, sizeof(m.title), "Nothing to compare");
	else if (argc == 3 && !strcmp(argv[1], "--garbage")) {
		for (unsigned int seed = 0; seed < 200; seed++) {
			garbage(&m, seed);
			if (write_one(&m, path))
				return 1;
		}
		return 0;
	} else if (argc == 3 && !strcmp(argv[1], "--many"))
		many(&m);
	else if (argc == 3 && !strcmp(argv[1], "--one"))
		basic(&m, 1, true);
	else if (argc == 3 && !strcmp(argv[1], "--trials"))
		trials(&m);
	else if (argc == 3 && !strcmp(argv[1], "--example"))
		basic(&m, 3, false);
	else if (argc == 2)
		basic(&m, 3, true);
	else {
		fprintf(stderr, "htmlgen: unknown option %s\n", argv[1]);
		return 2;
	}
	return write_one(&m, path);
}
