/* The driver statistics (ethtool -S) snapread sums into XDP and ring
 * drops, by name: veth's and common NICs'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dut/snapread.h"

static void kinds(void **st)
{
	(void)st;
	/* veth */
	assert_int_equal(snapread_stat_kind("rx_queue_0_xdp_drops"), SNAP_STAT_XDP_DROP);
	assert_int_equal(snapread_stat_kind("rx_queue_3_drops"), SNAP_STAT_RING);
	assert_int_equal(snapread_stat_kind("rx_queue_0_xdp_tx_errors"), SNAP_STAT_XDP_TX_ERR);
	assert_int_equal(snapread_stat_kind("tx_queue_0_xdp_xmit_errors"), SNAP_STAT_XDP_TX_ERR);
	assert_int_equal(snapread_stat_kind("rx_queue_0_xdp_packets"), SNAP_STAT_PACKETS);
	assert_int_equal(snapread_stat_kind("rx_queue_0_xdp_redirect"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind("tx_queue_0_xdp_xmit"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind("peer_ifindex"), SNAP_STAT_NONE);
	/* NICs */
	assert_int_equal(snapread_stat_kind("rx_xdp_drop"), SNAP_STAT_XDP_DROP);
	assert_int_equal(snapread_stat_kind("rx_xdp_tx_err"), SNAP_STAT_XDP_TX_ERR);
	assert_int_equal(snapread_stat_kind("rx_no_buffer_count"), SNAP_STAT_RING);
	assert_int_equal(snapread_stat_kind("rx_out_of_buffer"), SNAP_STAT_RING);
	assert_int_equal(snapread_stat_kind("rx_dropped"), SNAP_STAT_RING);
	/* from rtnetlink already, or not drops */
	assert_int_equal(snapread_stat_kind("rx_missed_errors"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind("rx_fifo_errors"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind("tx_dropped"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind("rx_packets"), SNAP_STAT_PACKETS);	/* a total: not a queue's */
	assert_int_equal(snapread_stat_kind("tx_queue_0_packets"), SNAP_STAT_NONE);
	assert_int_equal(snapread_stat_kind(""), SNAP_STAT_NONE);
}

/* Which receive queue a statistic is of, by the drivers' naming. */
static void queues(void **st)
{
	(void)st;
	assert_int_equal(snapread_stat_queue("rx_queue_0_drops"), 0);		/* veth, virtio, ixgbe */
	assert_int_equal(snapread_stat_queue("rx_queue_12_xdp_packets"), 12);
	assert_int_equal(snapread_stat_queue("rx3_xdp_drop"), 3);		/* mlx5 */
	assert_int_equal(snapread_stat_queue("rx-7.packets"), 7);		/* i40e */
	assert_int_equal(snapread_stat_queue("rxq5_packets"), 5);
	assert_int_equal(snapread_stat_queue("rx_q2_drops"), 2);
	/* totals, transmit queues and size buckets are not queues */
	assert_int_equal(snapread_stat_queue("rx_packets"), -1);
	assert_int_equal(snapread_stat_queue("rx_xdp_drop"), -1);
	assert_int_equal(snapread_stat_queue("tx_queue_0_packets"), -1);
	assert_int_equal(snapread_stat_queue("rx_64_bytes"), -1);
	assert_int_equal(snapread_stat_queue("rx_size_64_packets"), -1);
	assert_int_equal(snapread_stat_queue("rx_queue_"), -1);
	assert_int_equal(snapread_stat_queue("rx_queue_3"), -1);
	assert_int_equal(snapread_stat_queue("rx_queue_99999999999999999999_drops"), -1);
	assert_int_equal(snapread_stat_queue(""), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kinds),
		cmocka_unit_test(queues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
