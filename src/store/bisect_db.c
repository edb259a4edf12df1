#include "store/bisect_db.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/report_db.h"
#include "store/sql.h"

static const char *const fig_names[] = { "ndr", "pdr", "forwarded", "cpu-per-frame", "received",
					 "service-demand" };

int bisect_db_figure_parse(const char *s, enum bisect_figure *f)
{
	for (unsigned int i = 0; i < sizeof(fig_names) / sizeof(fig_names[0]); i++)
		if (!strcmp(s, fig_names[i])) {
			*f = (enum bisect_figure)i;
			return 0;
		}
	return -EINVAL;
}

const char *bisect_db_figure_name(enum bisect_figure f)
{
	return (unsigned int)f < sizeof(fig_names) / sizeof(fig_names[0]) ? fig_names[f] : "?";
}

const char *bisect_db_figure_unit(enum bisect_figure f)
{
	return f == BISECT_FIG_CPU ? "ns/frame" : f == BISECT_FIG_RECEIVED ? "10^6bits/s" :
	       f == BISECT_FIG_DEMAND ? "us/KB" : "frames/s";
}

bool bisect_db_figure_stream(enum bisect_figure f)
{
	return f == BISECT_FIG_RECEIVED || f == BISECT_FIG_DEMAND;
}

bool bisect_db_figure_rfc2544(enum bisect_figure f)
{
	return f == BISECT_FIG_NDR || f == BISECT_FIG_PDR;
}

static double col_d(struct sql_st *st, int i)
{
	return sql_col_type(st, i) == SQL_NULL ? NAN : sql_col_double(st, i);
}

static int fail(struct sql *h, char *err, size_t errlen)
{
	snprintf(err, errlen, "reading a bisection step's figures: %s", sql_errmsg(h));
	return -EIO;
}

int bisect_db_values(struct db *db, int64_t run, enum bisect_figure f, unsigned int size, double *v,
		    unsigned int max, unsigned int *n, bool *bound, char *err, size_t errlen)
{
	struct sql *h = db_sql(db);
	struct sql_st *st;
	int s;

	*n = 0;
	*bound = false;
	if (bisect_db_figure_rfc2544(f)) {
		/* the run's smallest size unless one is named */
		if (sql_prepare(h, f == BISECT_FIG_NDR ?
				"SELECT ndr_lower, at_max + tester_capped FROM results WHERE run_id = ?1 AND size ="
				" CASE WHEN ?2 > 0 THEN ?2 ELSE (SELECT MIN(size) FROM results WHERE run_id = ?1) END"
				" AND ndr_lower IS NOT NULL ORDER BY repeat" :
				"SELECT pdr_lower, at_max + tester_capped FROM results WHERE run_id = ?1 AND size ="
				" CASE WHEN ?2 > 0 THEN ?2 ELSE (SELECT MIN(size) FROM results WHERE run_id = ?1) END"
				" AND pdr_lower IS NOT NULL ORDER BY repeat", &st))
			return fail(h, err, errlen);
	} else if (bisect_db_figure_stream(f)) {
		/* each of the stream's runs: received bits over the receiver's
		 * time, and the DUT's CPU per datagram over the KB in one */
		if (sql_prepare(h, "SELECT s.recv_bytes, s.recv_ns, c.ns_per_frame, t.size FROM trials t"
				" JOIN stream_trial s ON s.trial_id = t.id LEFT JOIN trial_cpu c ON c.trial_id = t.id"
				" WHERE t.run_id = ?1 AND (?2 = 0 OR t.size = ?2) ORDER BY t.id", &st))
			return fail(h, err, errlen);
	} else if (sql_prepare(h, "SELECT load, tx, rx, duration_s, tester_limited,"
				  " (SELECT ns_per_frame FROM trial_cpu WHERE trial_id = trials.id)"
				  " FROM trials WHERE run_id = ?1 AND test = 'x' AND tx > 0 AND (?2 = 0 OR size = ?2)"
				  " AND NOT EXISTS (SELECT 1 FROM stream_trial s WHERE s.trial_id = trials.id)"
				  " ORDER BY id", &st))
		return fail(h, err, errlen);
	sql_bind_int(st, 1, run);
	sql_bind_int(st, 2, size);
	while ((s = sql_step(st)) == 1 && *n < max) {
		double x;

		if (bisect_db_figure_rfc2544(f)) {
			x = col_d(st, 0);
			*bound |= sql_col_int(st, 1) != 0;
		} else if (f == BISECT_FIG_RECEIVED) {
			x = col_d(st, 1) > 0 ? col_d(st, 0) * 8 / (col_d(st, 1) / 1e9) / 1e6 : NAN;
		} else if (f == BISECT_FIG_DEMAND) {
			x = col_d(st, 3) > 0 ? col_d(st, 2) / 1e3 * 1024 / col_d(st, 3) : NAN;
		} else {
			x = f == BISECT_FIG_CPU ? col_d(st, 5) :
			    report_db_trial_forwarded(col_d(st, 0), col_d(st, 1), col_d(st, 2), col_d(st, 3));
			/* the tester fell short: a bound, unless the DUT still
			 * lost a share of what it got (full: its own figure), as
			 * 'report' reads a trial (report_db.h, TRIAL_SATURATED) */
			*bound |= f == BISECT_FIG_FORWARDED && sql_col_int(st, 4) != 0 &&
				  col_d(st, 1) - col_d(st, 2) < TRIAL_SATURATED * col_d(st, 1);
		}
		if (isfinite(x) && x > 0)
			v[(*n)++] = x;
	}
	sql_finalize(st);
	if (s < 0)
		return fail(h, err, errlen);
	return 0;
}
