/* A noise floor under the NDR: sporadic loss. When the DUT loses a few
 * frames per million now and then whatever the load (its CPU is away for
 * a moment, as a VM's often is), every trial long enough to meet such a
 * moment fails the zero-loss goal, and the NDR lands wherever the search
 * happened to meet a clean trial: it says how often the DUT hiccups, not
 * what it can forward. This module reads that from the trials the search
 * already ran, with no trial of its own: a pure function.
 *
 * The reading: loss is "sporadic" when, at loads well below where loss
 * starts rising with load (the PDR's lower bound, or the highest load
 * losing under 0.5%),
 *   - trials lost frames at two loads or more, down to half that load or
 *     less;
 *   - the loss ratio does not grow with the load: between the lower and
 *     the upper half of those trials' frames by load, each half pooled,
 *     loss ratio ~ load^e with e <= 1.5 (loss that rises with load, as a
 *     queue filling up, has e of 2 or more; a ratio that falls with load
 *     is no capacity either, and hiccups vary from trial to trial);
 *   - and the NDR lies in that region, i.e. that loss is what bounds it.
 * The range it reports is the pooled loss ratio's 99% interval (Poisson),
 * widened to the ratio of every trial long enough to measure it alone (at
 * least NF_MIN_EXPECTED frames lost expected): a short trial that lost
 * one frame in a thousand measures nothing but its own length. */
#ifndef WR_CORE_NOISEFLOOR_H
#define WR_CORE_NOISEFLOOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NF_REGION		0.8	/* "well below": loads up to this share of the reference */
#define NF_FAR			0.5	/* loss seen at or below this share of it */
#define NF_MIN_LOSSY		2	/* trials that lost frames in the region */
#define NF_MIN_LOADS		2	/* at this many loads */
#define NF_MIN_EXPECTED		10.0	/* frames a trial must be expected to lose to measure the ratio */
#define NF_MAX_ELASTICITY	1.5	/* the most e in loss ratio ~ load^e */
#define NF_MIN_SPAN		1.5	/* the halves' loads apart by this factor to judge e */
#define NF_REF_RATIO		0.005	/* without a PDR: the reference is the highest load losing less */
#define NF_MAX_LOADS		8	/* loads listed */

/* One trial as the search saw it. */
struct nf_trial {
	double load;		/* frames/s asked for */
	uint64_t duration_ns;
	uint64_t tx, rx;
	bool limited;		/* tester-limited: says nothing about the DUT */
};

struct nf_cfg {
	double ref_load;	/* where loss starts rising with load: the PDR's lower
				 * bound; 0 = from the trials (NF_REF_RATIO) */
	double ndr;		/* the NDR found (its lower bound); 0 = none passed */
};

struct nf_result {
	bool limited;		/* the NDR is limited by sporadic loss */
	double ref_load;	/* the reference used; 0 when none was found */
	double ppm_lo, ppm_hi;	/* loss of the trials that measured it, per million */
	double ppm;		/* pooled over every trial in the region */
	double elasticity;	/* e, when judged (else NAN) */
	unsigned int trials;	/* usable trials in the region */
	unsigned int lossy;	/* of which lost frames */
	unsigned int measuring;	/* trials long enough to measure the ratio alone */
	unsigned int nloads;	/* distinct loads with loss (of the first 512 trials in the region) */
	double load_lo, load_hi;	/* the lowest and highest of them */
	double loads[NF_MAX_LOADS];	/* the first of them, ascending */
};

/* Read the trials t[0..n) (any durations, any order; several searches of
 * one size may be pooled). Fills out; out->limited says whether the NDR
 * is limited by sporadic loss. Never fails: too few trials read as "not
 * limited". */
void noisefloor_detect(const struct nf_trial *t, size_t n, const struct nf_cfg *cfg, struct nf_result *out);

/* "NDR limited by sporadic loss of 120-340 ppm, seen at 7 loads from 2100
 * to 310000 frames/s (below 400000, where loss rises with load): use the
 * PDR, or --exceed-ratio", in buf. Empty when not limited. */
void noisefloor_text(const struct nf_result *r, char *buf, size_t len);

#endif
