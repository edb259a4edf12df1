/* The calibration pair: a veth pair straight from the lab's gen namespace
 * to its sink (cal0 -> cal1), no DUT between. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "os/ethtool.h"
#include "lab/lab.h"
#include "lab/lab_impl.h"
#include "os/netns.h"
#include "os/nl.h"

static const uint8_t direct_mac[2][6] = {
	{ 0x02, 0x77, 0x72, 0, 2, 1 }, { 0x02, 0x77, 0x72, 0, 2, 2 },
};

struct direct_job {
	struct cpuset rps;
};

static int direct_configure(void *arg, char *err, size_t errlen)
{
	static const struct sysctl_kv per_if[] = {
		{ "ipv6/conf/IF/disable_ipv6", "1", true },
		{ "ipv4/conf/IF/rp_filter", "0", false },
	};
	struct direct_job *j = arg;
	int rc = lab_write_sysctls(per_if, sizeof(per_if) / sizeof(per_if[0]), LAB_DIRECT_RX, err, errlen);

	return rc ? rc : lab_write_cpus(LAB_DIRECT_RX, &j->rps, err, errlen);
}

int lab_direct_add(const char *prefix, uint8_t tx_mac[6], uint8_t rx_mac[6], char *err, size_t errlen)
{
	struct lab_ctx c;
	struct lab_status st;
	struct direct_job j;
	struct link_info a, b;
	char name[NETNS_NAME_MAX];
	sigset_t old;
	int rc;

	if ((rc = lab_status(prefix, &st, err, errlen)))
		return rc;
	if (!st.complete) {
		snprintf(err, errlen, "the lab %s is not up: run 'wirerate lab up'", prefix);
		return -ENOENT;
	}
	j.rps = st.ifs[LAB_SINK0].rps;
	stop_hold(&old);
	if ((rc = lab_ctx_open(&c, prefix, true, err, errlen)))
		goto out;
	if (nl_link_get(c.nl[LAB_GEN], LAB_DIRECT_TX, &a) == 0)
		nl_link_del(c.nl[LAB_GEN], a.ifindex);
	if (nl_link_get(c.nl[LAB_SINK], LAB_DIRECT_RX, &b) == 0)
		nl_link_del(c.nl[LAB_SINK], b.ifindex);
	rc = nl_veth_add(c.nl[LAB_GEN], LAB_DIRECT_TX, direct_mac[0], LAB_DIRECT_RX, direct_mac[1],
			 c.nsfd[LAB_SINK], st.queues);
	if (rc) {
		lab_nl_err(rc, "cannot create veth pair", LAB_DIRECT_TX, err, errlen);
		goto out;
	}
	lab_ns_name(prefix, LAB_SINK, name, sizeof(name));
	if ((rc = netns_run(name, direct_configure, &j, err, errlen)))
		goto out;
	for (int k = 0; k < 2 && !rc; k++) {
		enum lab_role r = k ? LAB_SINK : LAB_GEN;
		const char *ifn = k ? LAB_DIRECT_RX : LAB_DIRECT_TX;
		int saved, sock;

		if ((rc = nl_link_get(c.nl[r], ifn, &a)))
			break;
		if (!netns_enter(c.nsfd[r], &saved)) {
			sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
			netns_leave(&saved);
			if (sock >= 0) {
				ethtool_offloads_off(sock, ifn);
				close(sock);
			}
		}
		rc = nl_link_up(c.nl[r], a.ifindex, true);
	}
	if (rc)
		lab_nl_err(rc, "cannot bring up", "the direct pair", err, errlen);
	else {
		memcpy(tx_mac, direct_mac[0], 6);
		memcpy(rx_mac, direct_mac[1], 6);
	}
out:
	lab_ctx_close(&c);
	if (rc)
		lab_direct_del(prefix, name, sizeof(name));
	stop_let_go(&old);
	return rc;
}

int lab_direct_del(const char *prefix, char *err, size_t errlen)
{
	struct lab_ctx c;
	struct link_info a;

	lab_ctx_open(&c, prefix, false, err, errlen);
	if (c.nl[LAB_GEN] && nl_link_get(c.nl[LAB_GEN], LAB_DIRECT_TX, &a) == 0)
		nl_link_del(c.nl[LAB_GEN], a.ifindex);
	lab_ctx_close(&c);
	return 0;
}
