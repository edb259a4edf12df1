#include "dut/agent_apply.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dut/envcap.h"
#include "os/fs.h"
#include "os/nft.h"

/* A sysfs value to restore: path's content without its trailing blanks. */
static int read_value(const char *path, char *buf, size_t len)
{
	long n = fs_read(NULL, path, buf, len);

	if (n < 0)
		return (int)n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* Keep path's content (once: the first value is the one to restore),
 * then write val into it. */
static int save_and_write(struct agent_apply *s, const char *path, const char *val, char *err, size_t errlen)
{
	unsigned int i;
	int rc;

	for (i = 0; i < s->nsaved; i++)
		if (!strcmp(s->saved[i].path, path))
			break;
	if (i == s->nsaved) {
		if (s->nsaved == AGENTAPPLY_SAVED_MAX) {
			snprintf(err, errlen, "more than %d IRQs and queues to place", AGENTAPPLY_SAVED_MAX);
			return -E2BIG;
		}
		snprintf(s->saved[i].path, sizeof(s->saved[i].path), "%s", path);
		if ((rc = read_value(path, s->saved[i].old, sizeof(s->saved[i].old)))) {
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			return rc;
		}
		s->nsaved++;
	}
	if ((rc = fs_write(NULL, path, val)))
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

/* The RPS masks of ifname's receive queues. */
static int place_rps(struct agent_apply *s, const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	char dir[128], path[400], mask[CPUSET_MAX / 4 + CPUSET_MAX / 32 + 2];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", ifname);
	if (!(d = opendir(dir))) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	cpuset_format_mask(cpus, mask, sizeof(mask));
	while (!rc && (de = readdir(d))) {
		if (strncmp(de->d_name, "rx-", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/rps_cpus", dir, de->d_name);
		rc = save_and_write(s, path, mask, err, errlen);
	}
	closedir(d);
	return rc;
}

/* ifname's IRQs, each to the CPUs in cpus. */
static int place_irqs(struct agent_apply *s, const char *ifname, const struct cpuset *cpus, unsigned int *nirq,
		      char *err, size_t errlen)
{
	long irqs[64];
	char path[128], list[1024];
	int n = envcap_irqs_of(NULL, ifname, irqs, 64), rc = 0;

	if (n < 0) {
		snprintf(err, errlen, "/proc/interrupts: %s", strerror(-n));
		return n;
	}
	cpuset_format_list(cpus, list, sizeof(list));
	for (int i = 0; i < n && !rc; i++) {
		snprintf(path, sizeof(path), "/proc/irq/%ld/smp_affinity_list", irqs[i]);
		rc = save_and_write(s, path, list, err, errlen);
	}
	*nirq += (unsigned int)n;
	return rc;
}

int agent_apply(struct agent_apply *s, char ifnames[][64], unsigned int n, const struct dut_apply *a,
		     char *what, size_t whatlen, char *err, size_t errlen)
{
	unsigned int ncpu = cpuset_count(&a->cpus), nirq = 0;
	size_t off = 0;
	int rc;

	what[0] = 0;
	if (a->placement != DUT_PLACE_KEEP) {
		static const char *const names[] = { "keep", "bound", "split", "free" };

		if (!n) {
			snprintf(err, errlen, "placement needs the DUT's ports (--dut-ports)");
			return -EINVAL;
		}
		if (!ncpu) {
			snprintf(err, errlen, "placement needs the DUT's CPUs");
			return -EINVAL;
		}
		for (unsigned int i = 0; i < n; i++) {
			struct cpuset one;

			/* bound: every port on the first CPU; split: port i on
			 * CPU i (mod the count), each direction's receive on a
			 * CPU of its own; free: every port over all CPUs, the
			 * flow hash choosing. */
			cpuset_zero(&one);
			if (a->placement == DUT_PLACE_FREE)
				one = a->cpus;
			else
				cpuset_add(&one, (unsigned int)cpuset_nth(&a->cpus,
									  a->placement == DUT_PLACE_BOUND ? 0 : i % ncpu));
			if ((rc = place_irqs(s, ifnames[i], &one, &nirq, err, errlen)) ||
			    (rc = place_rps(s, ifnames[i], &one, err, errlen)))
				return rc;
		}
		if (a->need_irqs && !nirq) {
			snprintf(err, errlen, "the ports %s%s have no IRQ to place (veth: their receive work is the "
				 "lab's --placement)", ifnames[0], n > 1 ? " ..." : "");
			return -ENOENT;
		}
		off += (size_t)snprintf(what, whatlen, "placement %s (%u IRQs, RPS of %u ports)",
					names[a->placement], nirq, n);
	}
	if (a->rules_set) {
		if (!s->rules_saved) {
			if ((rc = nft_null_rules_count(err, errlen)) < 0)
				return rc;
			s->rules_before = rc;
			s->rules_saved = true;
		}
		if ((rc = nft_null_rules_set(a->rules, err, errlen)))
			return rc;
		if (off < whatlen)
			snprintf(what + off, whatlen - off, "%s%u null rules", off ? ", " : "", a->rules);
	}
	return 0;
}

int agent_apply_restore(struct agent_apply *s, char *err, size_t errlen)
{
	int first = 0, rc;

	/* Last saved first: the same file is never saved twice, so the order
	 * only matters for messages. */
	for (unsigned int i = s->nsaved; i-- > 0;) {
		/* An empty RPS mask is written as 0, which the kernel takes. */
		if ((rc = fs_write(NULL, s->saved[i].path, s->saved[i].old[0] ? s->saved[i].old : "0")) && !first) {
			first = rc;
			snprintf(err, errlen, "%s: %s", s->saved[i].path, strerror(-rc));
		}
	}
	s->nsaved = 0;
	if (s->rules_saved) {
		char e2[256];

		if ((rc = nft_null_rules_set((unsigned int)s->rules_before, e2, sizeof(e2))) && !first) {
			first = rc;
			snprintf(err, errlen, "%s", e2);
		}
		s->rules_saved = false;
	}
	return first;
}
