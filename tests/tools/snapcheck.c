/* snapcheck NETNS COUNT IF...: COUNT DUT snapshots (dut/snapread.h) in
 * namespace NETNS, timed; prints the median and the worst in ms and the
 * last snapshot's counters, one "key value" a line, for the namespace
 * tests and for measuring the snapshot's cost. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dut/snapread.h"
#include "os/clock.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char path[256], err[256];
	struct dutsnap s;
	double *ms;
	int fd, count;

	if (argc < 3) {
		fprintf(stderr, "usage: snapcheck NETNS COUNT [IF...]\n");
		return 2;
	}
	count = atoi(argv[2]);
	if (count < 1 || count > 10000)
		return 2;
	snprintf(path, sizeof(path), "/run/netns/%s", argv[1]);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "snapcheck: %s: %s\n", path, strerror(errno));
		return 1;
	}
	ms = calloc((size_t)count, sizeof(*ms));
	memset(&s, 0, sizeof(s));
	for (int i = 0; i < count; i++) {
		uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

		dutsnap_clear(&s);
		if (snapread((const char *const *)argv + 3, (unsigned int)(argc - 3), &s, err, sizeof(err))) {
			fprintf(stderr, "snapcheck: %s\n", err);
			return 1;
		}
		ms[i] = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e6;
	}
	qsort(ms, (size_t)count, sizeof(*ms), cmp);
	printf("median_ms %.3f\nmax_ms %.3f\n", ms[count / 2], ms[count - 1]);
	printf("stack %d forw %llu\n", s.stack.present, (unsigned long long)s.stack.ip_forw_datagrams);
	for (unsigned int i = 0; i < s.nif; i++)
		printf("if %s present %d rx %llu tx %llu rx_dropped %llu tx_dropped %llu ring %llu xdp_drops %llu "
		       "xdp_tx_errors %llu have_xdp %d\n", s.ifs[i].name, s.ifs[i].present,
		       (unsigned long long)s.ifs[i].rx_packets, (unsigned long long)s.ifs[i].tx_packets,
		       (unsigned long long)s.ifs[i].rx_dropped, (unsigned long long)s.ifs[i].tx_dropped,
		       (unsigned long long)s.ifs[i].ring_drops, (unsigned long long)s.ifs[i].xdp_drops,
		       (unsigned long long)s.ifs[i].xdp_tx_errors, s.ifs[i].have_xdp);
	for (unsigned int i = 0; i < s.nif; i++)
		for (unsigned int q = 0; q < s.ifs[i].nqueue; q++)
			printf("queue %s %u packets %llu ring %llu xdp_drops %llu\n", s.ifs[i].name, q,
			       (unsigned long long)s.ifs[i].queue[q].packets,
			       (unsigned long long)s.ifs[i].queue[q].ring_drops,
			       (unsigned long long)s.ifs[i].queue[q].xdp_drops);
	for (unsigned int i = 0; i < s.nqdisc; i++)
		printf("qdisc %s %s %x parent %x packets %llu drops %llu\n", s.qdisc[i].dev, s.qdisc[i].kind,
		       s.qdisc[i].handle, s.qdisc[i].parent, (unsigned long long)s.qdisc[i].packets,
		       (unsigned long long)s.qdisc[i].drops);
	for (unsigned int i = 0; i < s.nnft; i++)
		printf("nft %s %s %s %llu packets %llu\n", s.nft[i].family, s.nft[i].table, s.nft[i].chain,
		       (unsigned long long)s.nft[i].handle, (unsigned long long)s.nft[i].packets);
	printf("texts stat %d interrupts %d softirqs %d softnet %d\n", !!s.proc_stat, !!s.proc_interrupts,
	       !!s.proc_softirqs, !!s.proc_softnet);
	dutsnap_clear(&s);
	free(ms);
	return 0;
}
