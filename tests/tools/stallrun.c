/* stallrun --cpu N --duration S: the stall probe alone on CPU N for S
 * seconds, then its figures on one line; --cost S: its own cost on the
 * CPU as a soaker sees it (see cost()). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/stat.h"
#include "dut/soak.h"
#include "dut/stallprobe.h"

/* --cost: the probe's own cost on the CPU, as the soak sees it. A soaker
 * runs on the CPU throughout; the probe runs in every other 500 ms slice.
 * Each slice's soaker loops per second of wall time, the probe's slices
 * against the mean of the slices either side (so a host that drifts is
 * compared with itself), the median over the pairs: what the soak would
 * read as load taken by the probe. */
static int cost(const struct cpuset *cpus, double seconds, uint64_t period_ns)
{
	unsigned int n = (unsigned int)(seconds / 0.5);
	double rate[2048], ratio[1024];
	struct soak_snap a, b;
	struct soak_calib_busy l;
	struct soak *s = NULL;
	unsigned int np = 0;
	char err[256];

	if (n < 3 || n > 2048) {
		fprintf(stderr, "stallrun: --cost 2..1000 s\n");
		return 2;
	}
	if (soak_create(cpus, NULL, &s, err, sizeof(err)) || soak_start(s, err, sizeof(err))) {
		fprintf(stderr, "stallrun: %s\n", err);
		soak_destroy(s);
		return 1;
	}
	usleep(200000);
	soak_snap(s, &a);
	for (unsigned int k = 0; k < n; k++) {
		struct stallprobe *p = NULL;

		if (k % 2 && (stallprobe_create(cpus, period_ns, 0, &p, err, sizeof(err)) ||
			      stallprobe_start(p, err, sizeof(err)))) {
			fprintf(stderr, "stallrun: %s\n", err);
			stallprobe_destroy(p);
			soak_destroy(s);
			return 1;
		}
		usleep(500000);
		stallprobe_destroy(p);
		soak_snap(s, &b);
		soak_load_between(s, &a, &b, &l);
		rate[k] = l.rate[0];
		a = b;
	}
	soak_destroy(s);
	for (unsigned int k = 1; k + 1 < n; k += 2)
		if (rate[k - 1] + rate[k + 1] > 0)
			ratio[np++] = 1 - 2 * rate[k] / (rate[k - 1] + rate[k + 1]);
	double lo, hi, med = stat_median(ratio, np, &lo, &hi);

	printf("probe cost %.2f%% of the CPU (median of %u pairs of 500 ms slices, %.2f%%..%.2f%%), "
	       "period %.3g ms\n", 100 * med, np, 100 * lo, 100 * hi, period_ns / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	struct stallprobe_result r;
	struct stallprobe *p = NULL;
	struct cpuset cpus;
	double seconds = 1, period_ms = 0, cost_s = 0;
	long cpu = -1;
	char err[256];

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			cpu = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--cost"))
			cost_s = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--period-ms"))
			period_ms = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--duration"))
			seconds = strtod(argv[i + 1], NULL);
	}
	if (cpu < 0 || cpu >= CPUSET_MAX || !(seconds > 0 && seconds <= 3600) || !(period_ms >= 0 && period_ms <= 1000)) {
		fprintf(stderr, "usage: stallrun --cpu N [--duration SECONDS] [--period-ms MS] [--cost SECONDS]\n");
		return 2;
	}
	cpuset_zero(&cpus);
	cpuset_add(&cpus, (unsigned int)cpu);
	if (cost_s > 0)
		return cost(&cpus, cost_s, (uint64_t)(period_ms * 1e6));
	if (stallprobe_create(&cpus, (uint64_t)(period_ms * 1e6), 0, &p, err, sizeof(err)) || stallprobe_start(p, err, sizeof(err))) {
		fprintf(stderr, "stallrun: %s\n", err);
		stallprobe_destroy(p);
		return 1;
	}
	usleep((useconds_t)(seconds * 1e6));
	stallprobe_stop(p);
	stallprobe_read(p, &r);
	printf("cpu %u wakeups %llu longest %.1f us stalls %llu steal %.2f%% fifo %d%s%s\n", r.c[0].cpu,
	       (unsigned long long)r.c[0].wakeups, r.c[0].max_late_ns / 1e3, (unsigned long long)r.c[0].stalls,
	       r.c[0].steal_pct, r.fifo, r.fifo ? "" : " ", r.note);
	stallprobe_destroy(p);
	return 0;
}
