/* Benchmark: the time to store an rfc2544 run, on whichever backend --db
 * names. The run is shaped like a default throughput run of RFC 2544's
 * seven frame sizes: per size 14 search trials with their DUT CPU figures
 * and a loss attribution of two places, one result row per size, and the
 * run's 40 environment keys, each committed as wirerate commits them (one
 * transaction per trial and per size). Prints one JSON line:
 * {"backend", "runs", "trials", "median_ms", "per_trial_ms"}.
 *
 *   store_bench DB [RUNS]     (DB: a file, or a postgresql:// URI) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/db.h"

#define SIZES 7
#define TRIALS_PER_SIZE 14
#define ENV_KEYS 40

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int one_run(struct db *db, char *err, size_t errlen)
{
	static const unsigned int sizes[SIZES] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	char keys[ENV_KEYS][24], vals[ENV_KEYS][48];
	struct db_kv env[ENV_KEYS];
	struct db_run_info ri = { .test = "rfc2544 throughput", .label = "bench", .sizes = "64,128,256,512,1024,1280,1518",
				  .config = "placement=bound rules=0", .where = "bench", .line_bps = 1e10, .repeats = 1,
				  .precision = 0.01, .pdr_ratio = 0 };
	int64_t id;
	int rc;

	for (int i = 0; i < ENV_KEYS; i++) {
		snprintf(keys[i], sizeof(keys[i]), "bench.key%02d", i);
		snprintf(vals[i], sizeof(vals[i]), "value %d of the environment", i);
		env[i] = (struct db_kv){ keys[i], vals[i] };
	}
	if ((rc = db_run_begin(db, &ri, env, ENV_KEYS, &id, err, errlen)))
		return rc;
	for (int s = 0; s < SIZES; s++) {
		for (int t = 0; t < TRIALS_PER_SIZE; t++) {
			struct lossattr la[1];
			struct db_trial tr = { .size = sizes[s], .test = 't', .load = 1e6 / (t + 1), .duration_s = 1,
					       .tx = 1000000, .rx = 999000, .cpu_valid = true, .cpu_busy_pct = 80,
					       .cpu_soak_pct = 79, .ns_per_frame = 800, .cpu_source = "soak",
					       .loss = la, .nloss = 1 };

			memset(la, 0, sizeof(la));
			la[0].lost = 1000;
			lossattr_add(&la[0], LOSS_UNACCOUNTED, "", 1000);
			if ((rc = db_trial_add(db, id, &tr, err, errlen)))
				return rc;
		}
		struct db_result r = { .size = sizes[s], .max_load = 14880952, .ndr_valid = true, .ndr_lower = 500000,
				       .ndr_upper = 505000, .pdr_upper = NAN, .search_done = true,
				       .search_trials = TRIALS_PER_SIZE, .width_pps = 5000, .ns_per_frame = 800,
				       .b2b_avg = NAN, .b2b_min = NAN, .b2b_max = NAN };

		if ((rc = db_result_add(db, id, &r, err, errlen)))
			return rc;
	}
	return db_run_end(db, id, "complete", "bench", err, errlen);
}

int main(int argc, char **argv)
{
	char err[512];
	struct db *db;
	int runs = argc > 2 ? atoi(argv[2]) : 5, rc;
	double ms[64];

	if (argc < 2 || runs < 1 || runs > 64) {
		fprintf(stderr, "usage: store_bench DB [RUNS 1-64]\n");
		return 2;
	}
	if ((rc = db_open(argv[1], true, &db, err, sizeof(err)))) {
		fprintf(stderr, "store_bench: %s\n", err);
		return 2;
	}
	for (int i = 0; i < runs; i++) {
		double t0 = now_ms();

		if ((rc = one_run(db, err, sizeof(err)))) {
			fprintf(stderr, "store_bench: %s\n", err);
			db_close(db);
			return 1;
		}
		ms[i] = now_ms() - t0;
	}
	qsort(ms, (size_t)runs, sizeof(ms[0]), cmp);
	printf("{\"backend\":\"%s\",\"runs\":%d,\"trials\":%d,\"median_ms\":%.1f,\"min_ms\":%.1f,\"max_ms\":%.1f,"
	       "\"per_trial_ms\":%.2f}\n", db_is_pg(db) ? "postgresql" : "sqlite", runs, SIZES * TRIALS_PER_SIZE,
	       ms[runs / 2], ms[0], ms[runs - 1], ms[runs / 2] / (SIZES * TRIALS_PER_SIZE + SIZES + 2));
	db_close(db);
	return 0;
}
