#include "render/hist_csv.h"

#include <inttypes.h>

void hist_csv_header(FILE *f)
{
	fprintf(f, "repeat,direction,lo_ns,hi_ns,count,cumulative\n");
}

void hist_csv_rows(FILE *f, const struct hist *h, unsigned int repeat, unsigned int dir)
{
	uint64_t seen = 0, total = 0;

	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		total += h->b[i];
	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->b[i])
			continue;
		seen += h->b[i];
		hist_bucket_range(i, &lo, &hi);
		fprintf(f, "%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.9f\n", repeat, dir, lo, hi, h->b[i],
			(double)seen / (double)total);
	}
}
