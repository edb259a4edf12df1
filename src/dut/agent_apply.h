/* What the agent changes on a DUT for a matrix axis, and how it puts it
 * back: the IRQ affinity and RPS masks of the named ports (placement
 * bound, split or free over a set of CPUs) and null firewall rules in
 * wirerate's own nft table. The old values are read before the first
 * change and written back by agent_apply_restore, whatever happened in
 * between. Runs on the DUT, in the DUT's network namespace, with a /sys
 * of that namespace. */
#ifndef WR_DUT_AGENT_APPLY_H
#define WR_DUT_AGENT_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"
#include "dut/dut.h"

#define AGENTAPPLY_SAVED_MAX 512

struct agent_apply {
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
 * changed before a failure is still restored by agent_apply_restore. */
int agent_apply(struct agent_apply *s, char ifnames[][64], unsigned int n, const struct dut_apply *a,
		     char *what, size_t whatlen, char *err, size_t errlen);
/* Put back everything saved; 0 or the first -errno, having tried every
 * file. Idempotent. */
int agent_apply_restore(struct agent_apply *s, char *err, size_t errlen);

#endif
