/* A DUT's counters (core/dutsnap.h) read where the caller is: in the
 * current network namespace and through /proc/thread-self, so a thread
 * that entered the DUT's namespace with setns() reads the DUT's stack,
 * links, qdiscs and firewall. `wirerate agent` runs it on the DUT to
 * answer "snapshot"; the lab's trial runs it in a thread inside the DUT
 * namespace. Cheap enough for before and after every trial. */
#ifndef WR_DUT_SNAPREAD_H
#define WR_DUT_SNAPREAD_H

#include <stddef.h>

#include "core/dutsnap.h"

/* Fill *s (zeroed first; free with dutsnap_clear): the time, the /proc
 * texts, the stack's counters, per named interface (n at most
 * DUTSNAP_IF_MAX are kept) its link and driver counters, every qdisc on
 * them and the nft rules that count and drop. An interface that is not
 * there is kept with present false; a missing /proc file, a driver
 * without statistics, no nftables: those parts stay empty. -errno with a
 * reason only when /proc/stat or rtnetlink cannot be read. */
int snapread(const char *const *ifnames, unsigned int n, struct dutsnap *s, char *err, size_t errlen);

/* What one driver statistic (ethtool -S) adds to an interface's
 * xdp_drops, xdp_tx_errors or ring_drops, by its name; per-queue names
 * (with a digit) and totals are summed apart and the larger kept by
 * snapread, so a driver that reports both is counted once. Exposed for
 * tests. */
enum snapread_stat { SNAP_STAT_NONE, SNAP_STAT_XDP_DROP, SNAP_STAT_XDP_TX_ERR, SNAP_STAT_RING, SNAP_STAT_PACKETS,
		     SNAP_STAT_KINDS };
enum snapread_stat snapread_stat_kind(const char *name);

/* The receive queue a driver statistic is of: N of rx_queue_N_*,
 * rxN_*, rx-N.*, rxqN_*, rx_qN_*; -1 for a total or another name (a
 * size bucket such as rx_64_bytes is not a queue). */
int snapread_stat_queue(const char *name);

#endif
