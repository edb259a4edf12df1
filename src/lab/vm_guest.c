/* The VM lab's guest side: the DUT's half of the lab, built in the
 * guest's root namespace by `wirerate vm-guest`; see vm_lab.h. */
#include "lab/vm_lab.h"
#include "lab/lab_impl.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/ns.h"
#include "os/ethtool.h"
#include "os/fs.h"

#define NIC_WAIT_MS 8000	/* the drivers probe while init goes on: a second or two under TCG */

/* The link whose MAC is mac, into name; 0 or -ENOENT. */
static int find_by_mac(const uint8_t mac[6], char *name, size_t len)
{
	char want[18], path[300], buf[64];
	struct dirent *e;
	DIR *d = opendir("/sys/class/net");
	int rc = -ENOENT;

	snprintf(want, sizeof(want), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	while (d && rc && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/address", e->d_name);
		if (fs_read(NULL, path, buf, sizeof(buf)) > 0 && !strncmp(buf, want, 17)) {
			snprintf(name, len, "%.*s", (int)len - 1, e->d_name);
			rc = 0;
		}
	}
	if (d)
		closedir(d);
	return rc;
}

/* Name the NIC of MAC a->mac as a->ifname (it is down until configured). */
static int name_nic(struct nl *nl, const struct lab_addr *a, char *err, size_t errlen)
{
	char now[64];
	struct link_info li;
	int rc = -ENOENT;

	for (unsigned int t = 0; t < NIC_WAIT_MS && (rc = find_by_mac(a->mac, now, sizeof(now))); t += 50) {
		struct timespec ts = { 0, 50 * NSEC_PER_MSEC };

		nanosleep(&ts, NULL);
	}
	if (rc) {
		snprintf(err, errlen, "no NIC with MAC %02x:%02x:%02x:%02x:%02x:%02x for %s within %d s: does the kernel "
			 "have virtio_net and virtio_pci (built in, or its modules given with --modules)?",
			 a->mac[0], a->mac[1], a->mac[2], a->mac[3], a->mac[4], a->mac[5], a->ifname, NIC_WAIT_MS / 1000);
		return -ENODEV;
	}
	if (!strcmp(now, a->ifname))
		return 0;
	if ((rc = nl_link_get(nl, now, &li)) || (rc = nl_link_up(nl, li.ifindex, false)) ||
	    (rc = nl_link_rename(nl, li.ifindex, a->ifname)))
		return lab_nl_err(rc, "cannot name the NIC", a->ifname, err, errlen);
	return 0;
}

/* The IRQs of ifname's virtio device (its queues' and its config's, as
 * /proc/interrupts names them "virtioN-input.0", ...) on cpus. */
static int place_irqs(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	char link[300], target[300], dev[320], list[256], line[1024];
	ssize_t n;
	FILE *f;
	int rc = 0;

	snprintf(link, sizeof(link), "/sys/class/net/%s/device", ifname);
	if ((n = readlink(link, target, sizeof(target) - 1)) <= 0)
		return 0;	/* not a virtio device: nothing to place */
	target[n] = '\0';
	snprintf(dev, sizeof(dev), "%s-", strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	cpuset_format_list(cpus, list, sizeof(list));
	if (!(f = fopen("/proc/interrupts", "r")))
		return 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		char path[64];
		int irq;

		if (!strstr(line, dev) || sscanf(line, " %d:", &irq) != 1)
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
		rc = fs_write_err(path, list, err, errlen);
	}
	fclose(f);
	return rc;
}

int vm_guest_setup(const struct lab_spec *s, char *err, size_t errlen)
{
	struct lab_ctx c = { .spec = s, .ports = s->ports ? s->ports : 1, .roles = LAB_ROLE(LAB_DUT) };
	struct cpuset none;
	int rc = 0, sock;

	for (int r = 0; r < LAB_NROLES; r++)
		c.nsfd[r] = -1;
	if (!(c.nl[LAB_DUT] = nl_create(-1, err, errlen)))
		return -EIO;
	for (unsigned int p = 0; p < c.ports && !rc; p++)
		for (int i = LAB_DUT0; i <= LAB_DUT1 && !rc; i++)
			rc = name_nic(c.nl[LAB_DUT], lab_path_if(p, (enum lab_ifx)i), err, errlen);
	/* virtio-net's queue pairs: as many as --queues */
	if (!rc && s->queues > 1 && (sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0) {
		for (unsigned int p = 0; p < c.ports && !rc; p++)
			for (int i = LAB_DUT0; i <= LAB_DUT1 && !rc; i++)
				if ((rc = ethtool_set_queues(sock, lab_path_if(p, (enum lab_ifx)i)->ifname, s->queues)))
					rc = lab_nl_err(rc, "cannot set the queues of", lab_path_if(p, (enum lab_ifx)i)->ifname,
							err, errlen);
		close(sock);
	}
	if (!rc)
		rc = lab_configure(&c, err, errlen);
	/* The placement is the NICs' IRQs, as on a real box: a port whose
	 * IRQs go to one CPU needs no RPS (it would only add a hop through
	 * the backlog); free spreads them and RPS over all the DUT's CPUs. */
	cpuset_zero(&none);
	for (unsigned int p = 0; p < c.ports && !rc; p++)
		for (int i = LAB_DUT0; i <= LAB_DUT1 && !rc; i++) {
			const struct cpuset *cpus = &c.rps[p * LAB_NIFS + i];
			const char *ifname = lab_path_if(p, (enum lab_ifx)i)->ifname;

			if (!(rc = place_irqs(ifname, cpus, err, errlen)) && cpuset_count(cpus) == 1)
				rc = lab_write_cpus(ifname, &none, err, errlen);
		}
	nl_destroy(c.nl[LAB_DUT]);
	return rc;
}
