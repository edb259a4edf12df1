/* Whether an RFC 2544 run's sizes tell one story (rfc2544_agree), in text
 *   "  sizes      PDR agree: every size forwards 650112-662040 frames/s ..."
 * with a line under it for each size below the others, and in JSON an
 * object "sizes": {ndr: {...}, pdr: {...}}. */
#ifndef WR_RENDER_RFC2544_PRINT_H
#define WR_RENDER_RFC2544_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/rfc2544.h"
#include "render/out.h"

/* Nothing when fewer than two sizes have a figure. */
void rfc2544_print_agree(struct out *o, const struct rfc2544_result *res);

/* What the result's rows are printed with. */
struct rfc2544_print_opts {
	unsigned int tests;		/* RFC2544_* */
	bool goals;			/* MLRsearch goals given: conditional throughput shown */
	double line_bps;		/* 0: unknown, percent of the max load instead */
	const unsigned int *sizes;	/* the frame sizes of an IMIX row */
	unsigned int nsizes;
	int64_t run_id;			/* 0: not stored */
	const char *db;			/* where it was stored */
	const struct search_goal *goal;	/* the search's goals (RFC 9971), ngoal of them */
	const unsigned char *goal_set;	/* each one's search (rfc2544_set_outcome), or NULL: all the first */
	const unsigned char *goal_slot;	/* its place there (rfc2544_goal_result), or NULL: by loss ratio */
	unsigned int ngoal;
};

/* The table of an RFC 2544 run after its settings: a row per size (NDR,
 * PDR, the notes and the detail under each: repeats, latency, frame loss,
 * back-to-back), whether the sizes agree, the trials (JSON only), the
 * soak's trust, where it was stored and whether it was interrupted. */
void rfc2544_print_result(struct out *o, const struct rfc2544_result *res, const struct rfc2544_print_opts *p);

/* --json-stream: the object of one trial as it ends ("event": "trial"). */
void rfc2544_print_event(struct out *o, const struct rfc2544_trial *t);

#endif
