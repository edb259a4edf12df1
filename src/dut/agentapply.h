/* What the agent changes on a DUT for a matrix axis, and how it puts it
 * back: the IRQ affinity and RPS masks of the named ports (placement
 * bound, split or free over a set of CPUs) and null firewall rules in
 * wirerate's own nft table. The old values are read before the first
 * change and written back by agentapply_restore, whatever happened in
 * between. Runs on the DUT, in the DUT's network namespace, with a /sys
 * of that namespace. */
#ifndef WR_DUT_AGENTAPPLY_H
#define WR_DUT_AGENTAPPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"
#include "dut/dut.h"

#define AGENTAPPLY_SAVED_MAX 512

struct agentapply {
	/* Files whose old content is kept: /proc/irq/N/smp_affinity_list
	 * and /sys/class/net/IF/queues/rx-Q/rps_cpus. */
	struct {
		char path[128];
		char old[256];
	} saved[AGENTAPPLY_SAVED_MAX];
	unsigned int nsaved;
	bool rules_saved;
	int rules_before;		/* rules in the table before: restored */
};

/* Apply a on the ports ifnames[0..n). -errno with a reason; what was
 * changed before a failure is still restored by agentapply_restore. */
int agentapply_apply(struct agentapply *s, char ifnames[][64], unsigned int n, const struct dut_apply *a,
		     char *what, size_t whatlen, char *err, size_t errlen);
/* Put back everything saved; 0 or the first -errno, having tried every
 * file. Idempotent. */
int agentapply_restore(struct agentapply *s, char *err, size_t errlen);

#endif
