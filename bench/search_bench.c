/* Total trial time of the MLRsearch-style throughput search against plain
 * RFC 2544 bisection (NDR, then PDR, at full duration), over simulated
 * DUTs: no traffic, the trials are computed. The time is the sum of trial
 * durations the search asked for, which is what a real search costs (plus
 * the fixed per-trial waits, counted apart as trials).
 *
 *	search_bench [-v]	-v: print every trial
 *
 * "noisy+confirm" runs the search with cfg.confirm (each final lower bound
 * measured twice) to show what catching the noise costs; "noisy+exceed"
 * with the goal exceed ratio 0.5 over a goal duration sum of two final
 * trials (rfc2544 --exceed-ratio 0.5 --duration-sum 120s), where a load
 * is condemned only by two failures, to show what tolerating it costs.
 *
 * cfg: max_load 1,488,095 frames/s (64 B at 1 Gb/s), precision 0.5% of it,
 * PDR loss ratio 0.5%, final trials 60 s, initial trials 1 s.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/search.h"

#define SEC	1000000000ULL
#define MAXL	1488095.0
#define PREC	(0.005 * MAXL)
#define RATIO	0.005

enum dut_kind { SHARP, SOFT, NOISY };

struct dut {
	const char *name;
	enum dut_kind kind;
	double c;		/* capacity: NDR */
	double k;		/* SOFT: loss ratio k (x - c) / x above c */
	double lo;		/* NOISY: 0.1% loss half the time in [lo, c] */
	uint64_t seed, rng;
};

static uint64_t rnd(struct dut *d)
{
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return d->rng * 2685821657736338717ULL;
}

static void trial(struct dut *d, double x, uint64_t dur, uint64_t *tx, uint64_t *rx)
{
	uint64_t lost = 0;

	*tx = (uint64_t)llround(x * (double)dur / 1e9);
	if (d->kind != SOFT && x > d->c)
		lost = *tx - (uint64_t)llround(d->c * (double)dur / 1e9);
	else if (d->kind == SOFT && x > d->c)
		lost = (uint64_t)llround((double)*tx * d->k * (x - d->c) / x);
	else if (d->kind == NOISY && x >= d->lo && rnd(d) % 2)
		lost = *tx / 1000;
	*rx = *tx - lost;
}

static int run(struct dut *d, bool bisect, bool confirm, bool verbose,
	       struct search_outcome *o)
{
	struct search_cfg cfg = {
		.min_load = 0.01 * MAXL,
		.max_load = MAXL,
		.precision = PREC,
		.pdr_ratio = RATIO,
		.final_ns = 60 * SEC,
		.initial_ns = SEC,
		.max_trials = 200,
		.confirm = confirm,
	};
	struct search *s;
	char err[256];
	double load;
	uint64_t dur, tx, rx;

	if (strstr(d->name, "exceed")) {
		cfg.exceed_ratio = 0.5;
		cfg.duration_sum_ns = 2 * cfg.final_ns;
	}
	s = bisect ? search_create_bisect(&cfg, err, sizeof(err))
		   : search_create(&cfg, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "search_bench: %s\n", err);
		return -1;
	}
	d->rng = d->seed;
	while (search_next(s, &load, &dur)) {
		trial(d, load, dur, &tx, &rx);
		if (verbose)
			printf("  %-6s %-8s %10.0f fps %5.1f s  loss %.5f\n", d->name,
			       bisect ? "bisect" : "mlr", load, dur / 1e9,
			       tx ? (double)(tx - rx) / tx : 0);
		search_feed(s, load, dur, tx, rx, false);
	}
	search_outcome(s, o);
	search_destroy(s);
	return 0;
}

static void fmt_bound(char *buf, size_t len, const struct search_bound *b)
{
	if (!b->lower_valid)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.0f%s", b->lower, b->noisy ? "~" : b->at_max ? "+" : "");
}

/* The mean over n variants of a DUT: capacities spread over the range,
 * noise seeds. */
static void sweep(const struct dut *base, unsigned int n, bool confirm)
{
	double tm = 0, tb = 0, tr = 0, nm = 0, nb = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct search_outcome m, b;
		struct dut d = *base;
		double f = 0.1 + 0.85 * i / n;

		d.c = f * MAXL;
		d.lo = d.c - 6 * PREC;
		d.seed = 0x9E3779B97F4A7C15ULL * (i + 1);
		if (d.kind == SOFT)	/* PDR 8% of max above NDR */
			d.k = RATIO * (f + 0.08) / 0.08;
		if (run(&d, false, confirm, false, &m) || run(&d, true, false, false, &b))
			return;
		tm += m.total_ns / 1e9;
		tb += b.total_ns / 1e9;
		tr += (double)m.total_ns / b.total_ns;
		nm += m.trials;
		nb += b.trials;
	}
	printf("%-14s %8.1f %8.1f %6.3f %7.1f %7.1f\n", base->name, tm / n, tb / n, tr / n,
	       nm / n, nb / n);
}

int main(int argc, char **argv)
{
	struct dut duts[] = {
		{ .name = "sharp", .kind = SHARP, .c = 0.612345 * MAXL },
		{ .name = "soft", .kind = SOFT, .c = 0.45 * MAXL,
		  .k = RATIO * 0.53 / (0.53 - 0.45) },
		{ .name = "noisy", .kind = NOISY, .c = 0.7 * MAXL, .lo = 0.7 * MAXL - 6 * PREC,
		  .seed = 0x9E3779B97F4A7C15ULL },
		{ .name = "noisy+confirm", .kind = NOISY, .c = 0.7 * MAXL,
		  .lo = 0.7 * MAXL - 6 * PREC, .seed = 0x9E3779B97F4A7C15ULL },
		{ .name = "noisy+exceed", .kind = NOISY, .c = 0.7 * MAXL,
		  .lo = 0.7 * MAXL - 6 * PREC, .seed = 0x9E3779B97F4A7C15ULL },
	};
	bool verbose = argc > 1 && !strcmp(argv[1], "-v");
	double sum_m = 0, sum_b = 0;

	printf("search: MLRsearch-style vs plain bisection; max %.0f fps, precision %.0f fps,\n"
	       "PDR loss ratio %.3f, trials 1 s .. 60 s (bisection: 60 s only)\n\n",
	       MAXL, PREC, RATIO);
	printf("%-14s %8s %8s %6s %7s %7s  %-9s %-9s %-9s %-9s\n", "DUT", "mlr s", "bisect s",
	       "ratio", "trials", "trials", "mlr NDR", "mlr PDR", "bis NDR", "bis PDR");
	printf("%-14s %8s %8s %6s %7s %7s\n", "", "", "", "", "mlr", "bisect");
	for (size_t i = 0; i < sizeof(duts) / sizeof(duts[0]); i++) {
		bool confirm = strstr(duts[i].name, "confirm") != NULL;
		struct search_outcome m, b;
		char mn[32], mp[32], bn[32], bp[32];

		if (run(&duts[i], false, confirm, verbose, &m) ||
		    run(&duts[i], true, false, verbose, &b))
			return 1;
		fmt_bound(mn, sizeof(mn), &m.ndr);
		fmt_bound(mp, sizeof(mp), &m.pdr);
		fmt_bound(bn, sizeof(bn), &b.ndr);
		fmt_bound(bp, sizeof(bp), &b.pdr);
		printf("%-14s %8.1f %8.1f %6.3f %7u %7u  %-9s %-9s %-9s %-9s\n", duts[i].name,
		       m.total_ns / 1e9, b.total_ns / 1e9, (double)m.total_ns / b.total_ns,
		       m.trials, b.trials, mn, mp, bn, bp);
		if (i < 3) {
			sum_m += m.total_ns / 1e9;
			sum_b += b.total_ns / 1e9;
		}
	}
	printf("%-14s %8.1f %8.1f %6.3f   (sharp + soft + noisy)\n", "all", sum_m, sum_b,
	       sum_m / sum_b);
	printf("\nNDR/PDR: lower bound at 60 s, frames/s; ~ = noisy (a pass at or above a\n"
	       "failure was seen), + = at max.\n");

	printf("\nMeans over 20 variants each (capacity 10%%..95%% of max; noise seeds):\n");
	printf("%-14s %8s %8s %6s %7s %7s\n", "DUT", "mlr s", "bisect s", "ratio", "trials",
	       "trials");
	for (size_t i = 0; i < sizeof(duts) / sizeof(duts[0]); i++)
		sweep(&duts[i], 20, strstr(duts[i].name, "confirm") != NULL);
	return 0;
}
