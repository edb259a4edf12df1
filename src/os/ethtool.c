#include "os/ethtool.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

static int eth_ioctl(int sock, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = cmd;
	return ioctl(sock, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int get_flag(int sock, const char *ifname, uint32_t cmd, bool *on)
{
	struct ethtool_value v = { .cmd = cmd };
	int rc = eth_ioctl(sock, ifname, &v);

	if (rc == 0)
		*on = v.data != 0;
	return rc;
}

int ethtool_offloads_get(int sock, const char *ifname, struct offloads *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	if ((rc = get_flag(sock, ifname, ETHTOOL_GGRO, &o->gro)) ||
	    (rc = get_flag(sock, ifname, ETHTOOL_GGSO, &o->gso)) ||
	    (rc = get_flag(sock, ifname, ETHTOOL_GTSO, &o->tso)))
		return rc;
	return 0;
}

int ethtool_offloads_off(int sock, const char *ifname)
{
	static const uint32_t cmds[] = { ETHTOOL_SGRO, ETHTOOL_SGSO, ETHTOOL_STSO };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		struct ethtool_value v = { .cmd = cmds[i], .data = 0 };
		int rc = eth_ioctl(sock, ifname, &v);

		/* A fixed feature that is already off answers EOPNOTSUPP. */
		if (rc && rc != -EOPNOTSUPP)
			return rc;
	}
	return 0;
}

int ethtool_speed(int sock, const char *ifname, unsigned int *mbps)
{
	struct ethtool_cmd c = { .cmd = ETHTOOL_GSET };
	uint32_t s;
	int rc = eth_ioctl(sock, ifname, &c);

	*mbps = 0;
	if (rc)
		return rc;
	s = ethtool_cmd_speed(&c);
	if (s != (uint32_t)SPEED_UNKNOWN && s != 0xffff)
		*mbps = s;
	return 0;
}

int ethtool_queues(int sock, const char *ifname, unsigned int *rx, unsigned int *tx)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int rc = eth_ioctl(sock, ifname, &ch);

	if (rc)
		return rc;
	*rx = ch.combined_count + ch.rx_count;
	*tx = ch.combined_count + ch.tx_count;
	return 0;
}

int ethtool_set_queues(int sock, const char *ifname, unsigned int n)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int rc = eth_ioctl(sock, ifname, &ch);

	if (rc)
		return rc;
	if (ch.combined_count == n)
		return 0;
	ch.cmd = ETHTOOL_SCHANNELS;
	ch.combined_count = n;
	return eth_ioctl(sock, ifname, &ch);
}

/* More than any driver reports (mlx5 has a few thousand with many queues). */
#define STATS_MAX 65536

int ethtool_stats(int sock, const char *ifname, ethtool_stat_fn fn, void *ctx)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *vals = NULL;
	uint32_t n;
	int rc;

	if ((rc = eth_ioctl(sock, ifname, &info)))
		return rc;
	if (!(info.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || !info.len)
		return -EOPNOTSUPP;
	if (info.len > STATS_MAX)
		return -E2BIG;
	n = info.len;
	/* The kernel writes as many as the set has when it answers, whatever
	 * len says: room for a set that grew in between (a queue added). */
	names = calloc(1, sizeof(*names) + (size_t)(2 * n + 64) * ETH_GSTRING_LEN);
	vals = calloc(1, sizeof(*vals) + (size_t)(2 * n + 64) * sizeof(uint64_t));
	if (!names || !vals) {
		rc = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = n;
	if ((rc = eth_ioctl(sock, ifname, names)) || (rc = eth_ioctl(sock, ifname, vals)))
		goto out;
	if (names->len < n)
		n = names->len;
	if (vals->n_stats < n)
		n = vals->n_stats;
	for (uint32_t i = 0; i < n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, names->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		fn(ctx, name, vals->data[i]);
	}
out:
	free(names);
	free(vals);
	return rc;
}
