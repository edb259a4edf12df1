/* The figure a bisection follows, read from one stored run: an rfc2544
 * run's NDR or PDR at one frame size (one value per repeat), or a plain
 * trial run's forwarded rate or the DUT's CPU cost per forwarded frame
 * (one value per repeat, as 'report' reads them). */
#ifndef WR_STORE_BISECT_DB_H
#define WR_STORE_BISECT_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

enum bisect_figure {
	BISECT_FIG_NDR,
	BISECT_FIG_PDR,
	BISECT_FIG_FORWARDED,
	BISECT_FIG_CPU,		/* ns of DUT CPU per forwarded frame */
	BISECT_FIG_RECEIVED,	/* a stream's received 10^6 bits/s */
	BISECT_FIG_DEMAND,	/* a stream's DUT service demand, us of its CPU per KB */
};

/* "ndr", "pdr", "forwarded", "cpu-per-frame", "received",
 * "service-demand": 0, or -EINVAL. */
int bisect_db_figure_parse(const char *s, enum bisect_figure *f);
const char *bisect_db_figure_name(enum bisect_figure f);
/* "frames/s" or "ns/frame". */
const char *bisect_db_figure_unit(enum bisect_figure f);
/* Whether the figure comes from an rfc2544 throughput run, a stream's
 * runs, or else a trial. */
bool bisect_db_figure_rfc2544(enum bisect_figure f);
bool bisect_db_figure_stream(enum bisect_figure f);

/* Run id's values of f at frame size size (0: the run's smallest for an
 * rfc2544 figure, every size for a trial's), up to max in v, their count
 * in *n; *bound when one of them is the tester's bound rather than the
 * DUT's figure (an NDR at the maximum load or capped by the tester, a
 * trial the tester limited in which the DUT lost less than
 * TRIAL_SATURATED of what it got). 0, or -EIO with err. */
int bisect_db_values(struct db *db, int64_t run, enum bisect_figure f, unsigned int size, double *v,
		    unsigned int max, unsigned int *n, bool *bound, char *err, size_t errlen);

#endif
