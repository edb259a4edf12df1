#include "core/noisefloor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool usable(const struct nf_trial *t)
{
	return !t->limited && t->tx > 0 && isfinite(t->load) && t->load > 0;
}

static uint64_t lost(const struct nf_trial *t)
{
	return t->tx > t->rx ? t->tx - t->rx : 0;
}

/* Without a PDR: the highest load whose trials all lost under
 * NF_REF_RATIO, below the lowest load that lost more. "More" takes
 * NF_MIN_EXPECTED frames too: one frame lost of the 150 a trial at the
 * search's least load sends is 0.7%, and says nothing of a rise. */
static double ref_from_trials(const struct nf_trial *t, size_t n)
{
	double over = INFINITY, ref = 0;

	for (size_t i = 0; i < n; i++)
		if (usable(&t[i]) && (double)lost(&t[i]) > NF_REF_RATIO * (double)t[i].tx &&
		    (double)lost(&t[i]) >= NF_MIN_EXPECTED && t[i].load < over)
			over = t[i].load;
	for (size_t i = 0; i < n; i++)
		if (usable(&t[i]) && t[i].load < over && t[i].load > ref)
			ref = t[i].load;
	return ref;
}

/* Pooled loss ratio and frame-weighted load of the usable trials whose
 * load is in [lo, hi]. Pooling counts a short trial for what it is worth:
 * its frames, not a ratio of one lost frame in a few. */
static void pool(const struct nf_trial *t, size_t n, double lo, double hi, double *ratio, double *load,
		 double *frames)
{
	double tx = 0, ls = 0, w = 0;

	for (size_t i = 0; i < n; i++) {
		const struct nf_trial *x = &t[i];

		if (!usable(x) || x->load < lo || x->load > hi)
			continue;
		tx += (double)x->tx;
		ls += (double)lost(x);
		w += x->load * (double)x->tx;
	}
	*ratio = tx > 0 ? ls / tx : 0;
	*load = tx > 0 ? w / tx : 0;
	*frames = tx;
}

/* A 99% interval for a Poisson count k (Wilson and Hilferty's
 * approximation, within a few percent of the exact one from k = 1): 99%,
 * not 95%, since the range is read as where the DUT's loss lies. */
static void poisson99(double k, double *lo, double *hi)
{
	double z = 2.576, a = k, b = k + 1;

	*lo = k > 0 ? a * pow(1 - 1 / (9 * a) - z / (3 * sqrt(a)), 3) : 0;
	*hi = b * pow(1 - 1 / (9 * b) + z / (3 * sqrt(b)), 3);
	if (*lo < 0)
		*lo = 0;
}

struct lt {
	double load, tx;
	bool lossy;
};

static int cmp_load(const void *a, const void *b)
{
	double x = ((const struct lt *)a)->load, y = ((const struct lt *)b)->load;

	return x < y ? -1 : x > y;
}

void noisefloor_detect(const struct nf_trial *t, size_t n, const struct nf_cfg *cfg, struct nf_result *out)
{
	double region, tx = 0, ls = 0, min_tx, lo_r, hi_r, lo_x, hi_x, lo_n, hi_n, split, klo, khi, cum = 0;
	struct lt loads[512];
	unsigned int nl = 0, h;

	memset(out, 0, sizeof(*out));
	out->elasticity = NAN;
	out->ref_load = cfg->ref_load > 0 && isfinite(cfg->ref_load) ? cfg->ref_load : ref_from_trials(t, n);
	if (!(out->ref_load > 0))
		return;
	region = NF_REGION * out->ref_load;
	for (size_t i = 0; i < n; i++) {
		if (!usable(&t[i]) || t[i].load > region)
			continue;
		out->trials++;
		tx += (double)t[i].tx;
		ls += (double)lost(&t[i]);
		if (nl < sizeof(loads) / sizeof(loads[0]))
			loads[nl++] = (struct lt){ t[i].load, (double)t[i].tx, lost(&t[i]) > 0 };
		out->lossy += lost(&t[i]) > 0;
	}
	if (!out->lossy)
		return;
	/* the distinct loads that lost frames, ascending */
	qsort(loads, nl, sizeof(loads[0]), cmp_load);
	for (h = 0; h < nl; h++) {
		if (!loads[h].lossy || (out->nloads && loads[h].load <= out->load_hi * (1 + 1e-9)))
			continue;
		if (out->nloads < NF_MAX_LOADS)
			out->loads[out->nloads] = loads[h].load;
		if (!out->nloads)
			out->load_lo = loads[h].load;
		out->load_hi = loads[h].load;
		out->nloads++;
	}
	out->ppm = ls / tx * 1e6;
	/* The range: the pooled ratio's 99% interval, widened by every trial
	 * long enough to measure the ratio on its own (NF_MIN_EXPECTED frames
	 * lost expected at the pooled ratio): a DUT whose hiccups vary shows
	 * their spread, one that drops at a fixed rate shows that rate. */
	poisson99(ls, &klo, &khi);
	out->ppm_lo = klo / tx * 1e6;
	out->ppm_hi = khi / tx * 1e6;
	min_tx = NF_MIN_EXPECTED / (ls / tx);
	for (size_t i = 0; i < n; i++) {
		const struct nf_trial *x = &t[i];
		double ppm;

		if (!usable(x) || x->load > region || (double)x->tx < min_tx)
			continue;
		ppm = (double)lost(x) * 1e6 / (double)x->tx;
		out->ppm_lo = fmin(out->ppm_lo, ppm);
		out->ppm_hi = fmax(out->ppm_hi, ppm);
		out->measuring++;
	}
	/* e from the lower and the upper half of the region's frames by load,
	 * each pooled: halves by frames, not by trials, so that each half
	 * expects as much loss as the other if the ratio is the same. (Halves
	 * by trials would put the few frames of the search's lowest, clean
	 * trials alone in one, which then "shows" no loss at all.) */
	if (nl < 2)
		return;
	for (h = 0; h < nl; h++)
		cum += loads[h].tx;
	for (h = 0, klo = 0; h + 1 < nl && klo + loads[h].tx < cum / 2; h++)
		klo += loads[h].tx;
	if (h + 1 == nl)
		h--;		/* the top load alone holds half the frames: it is the upper half */
	split = loads[h].load;
	pool(t, n, 0, split, &lo_r, &lo_x, &lo_n);
	pool(t, n, split * (1 + 1e-12), region, &hi_r, &hi_x, &hi_n);
	if (!(lo_x > 0) || !(hi_x > 0) || hi_x < NF_MIN_SPAN * lo_x)
		return;		/* loads too close together to tell */
	/* each half long enough to expect some loss at the pooled ratio */
	if (lo_n * ls / tx < NF_MIN_EXPECTED / 2 || hi_n * ls / tx < NF_MIN_EXPECTED / 2)
		return;
	if (lo_r > 0 && hi_r > 0)
		out->elasticity = log(hi_r / lo_r) / log(hi_x / lo_x);
	else
		out->elasticity = hi_r > 0 ? INFINITY : -INFINITY;
	out->limited = out->lossy >= NF_MIN_LOSSY && out->nloads >= NF_MIN_LOADS &&
		       out->load_lo <= NF_FAR * out->ref_load &&
		       out->elasticity <= NF_MAX_ELASTICITY &&
		       cfg->ndr < region;
}

void noisefloor_text(const struct nf_result *r, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!r->limited)
		return;
	snprintf(buf, len, "NDR limited by sporadic loss of %.0f-%.0f ppm, seen at %u loads from %.0f to %.0f "
		 "frames/s (loss rises with load only above %.0f): use the PDR, or --exceed-ratio",
		 r->ppm_lo, r->ppm_hi, r->nloads, r->load_lo, r->load_hi, r->ref_load);
}
