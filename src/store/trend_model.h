/* What 'report --trend' shows (app/trend.h fills it, render/trend_print.c
 * writes it): the series of one figure over stored runs, its groups, and
 * each change with what differed in the runs' environment across it. */
#ifndef WR_STORE_TREND_MODEL_H
#define WR_STORE_TREND_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/changepoint.h"

#define TREND_MIN_RUNS 4	/* fewer cannot show a change: two groups of two */
#define TREND_MAX_DIFFS 8

struct trend_point {
	int64_t id;
	char ref[24];			/* "ID", or "K:ID" over several stores (K from 1) */
	char label[64];
	char when[32];			/* ISO 8601 with its offset, "" unknown */
	double value;			/* frames/s */
	bool bound;			/* an "at least" NDR (the tester's limit) */
	unsigned int group;		/* from 0, in time */
};

/* A key of the environment that differed across a change: before is the
 * last run before it, after its first run ("" when the run has none).
 * steady: the same value in every run of the group before and in every
 * run of the group after, which is what explains a step. */
struct trend_diff {
	char key[64];
	char before[96], after[96];
	bool steady;
};

struct trend_change {
	size_t at;			/* the index of its first run */
	double before, after;		/* the two groups' means */
	double pct;			/* (after - before) * 100 / before */
	bool worse;			/* lower: fewer frames/s */
	struct trend_diff diff[TREND_MAX_DIFFS];
	unsigned int ndiff;		/* steady ones first */
	bool more;			/* more keys differed than diff holds */
};

struct trend {
	char test[32];
	unsigned int size;		/* bytes */
	bool trials;			/* plain trials: the forwarded rate, not the NDR */
	double offered_pps;		/* plain trials: the load each was offered */
	struct trend_point *p;
	size_t n;
	size_t skipped;			/* runs of the test without the figure */
	double sigma;			/* the run-to-run noise, frames/s */
	struct trend_change c[CP_MAX_CHANGES];
	size_t nc;
};

#endif
