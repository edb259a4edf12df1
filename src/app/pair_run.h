/* wirerate pair: the tests a two-endpoint pair can run, the pair given as
 * the kernel's driver selftests give it (core/topology.h: NETIF on this
 * host, the host under test; the peer in a namespace or over ssh). Each
 * test is wirerate itself run as a child, here or at the peer, its JSON
 * read back:
 *   send      this host sends paced UDP to a server at the peer
 *             (stream --receiver dut --dut PEER): what arrived, the loss,
 *             and this host's CPU per KB and per datagram sent (from
 *             /proc/stat, and with --soak from the soak, which sees the
 *             interrupt time /proc/stat hides);
 *   receive   the peer sends to a server here (stream --sender dut): the
 *             same, for this host as the receiver;
 *   forward   the peer offers frames to NETIF addressed to the peer's own
 *             address, which this host routes back out of NETIF (a
 *             router on one port); rfc2544 throughput searched at the
 *             peer with one port for --tx and --rx: the NDR;
 *   reflect   the same with an XDP program on NETIF sending the test
 *             frames straight back (XDP_TX): the port's and the driver's
 *             own rate, without the stack.
 * A test the pair cannot run (forwarding off on this host, a NETIF
 * that cannot take the XDP program) is skipped
 * with the reason. The results are test points (core/testpoint.h), for
 * KTAP, KCIDB or the text and JSON of render/pair_print.c. */
#ifndef WR_APP_PAIR_RUN_H
#define WR_APP_PAIR_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/cli_hooks.h"
#include "app/gate_run.h"
#include "core/testpoint.h"
#include "core/topology.h"

enum app_pair_test { APP_PAIR_SEND = 1, APP_PAIR_RECEIVE = 2, APP_PAIR_FORWARD = 4, APP_PAIR_REFLECT = 8 };
#define APP_PAIR_ALL (APP_PAIR_SEND | APP_PAIR_RECEIVE | APP_PAIR_FORWARD | APP_PAIR_REFLECT)
#define APP_PAIR_SSH_OPTS_MAX 16

struct app_pair_opts {
	const char *topology;		/* --topology FILE; NULL: the environment */
	const char *const *envp;	/* the environment the variables come from */
	unsigned int tests;		/* a mask of enum app_pair_test */
	uint64_t duration_ns;		/* each stream's length */
	uint64_t rate_pps;		/* each stream's pace */
	unsigned int message_size;	/* each datagram's payload */
	double max_loss_pct;		/* a stream losing more fails */
	bool soak;			/* --soak: this host's end soaked too (stream --soak-here) */
	unsigned int frame_size;	/* forward: the frame size */
	uint64_t trial_ns;		/* forward: each trial's length */
	const char *max_load;		/* forward: the highest load, as given (NULL: none) */
	bool ipv6;			/* the pair's IPv6 addresses (default: IPv4 when given) */
	bool allow_any_address;		/* addresses outside the benchmarking ranges */
	const char *ssh_opts[APP_PAIR_SSH_OPTS_MAX];
	unsigned int nssh;
	const char *remote_wirerate;	/* ssh: wirerate's command at the peer (default wirerate) */
	bool ktap, json;
	struct app_gate_kcidb kcidb;
};

/* The pair and the options, before anything runs: net.config (or the
 * environment) parsed into *t, the tests and their options checked,
 * NETIF an interface here holding the local address, the addresses
 * within the benchmarking ranges (or --allow-any-address), a soak
 * calibration here for --soak. 0, or
 * -EINVAL with a one-line reason. */
int app_pair_run_check(const struct app_pair_opts *op, struct topology *t, char *err, size_t errlen);

/* What the caller prints, each called with its ctx. */
struct app_pair_hooks {
	/* a test starts, or says how it goes */
	void (*progress)(void *ctx, const char *line);
	/* the points on stdout as op asks: 0 or -errno */
	int (*print)(void *ctx, const struct app_pair_opts *op, const struct testpoint_set *s);
	/* the KCIDB document to k->path: 0, or -errno with err */
	int (*kcidb)(void *ctx, const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err,
		     size_t errlen);
};

/* Run the tests of op on the pair t, checked: each test's points added
 * to s (its env filled: this host, the pair), then printed and written.
 * 0 when the tests ran (each may have failed or been skipped: the points
 * say), -EINVAL for a pair the tests cannot use (the peer lacks the
 * remote address), -EINTR when stopped, another -errno; err says why. */
int app_pair_run(const struct app_pair_opts *op, const struct topology *t, const struct app_cli_hooks *cli,
		 const struct app_pair_hooks *h, void *ctx, struct testpoint_set *s, char *err, size_t errlen);

/* The kselftest exit status of the points: 1 when any failed or could
 * not complete, 4 when every one was skipped, else 0. */
int app_pair_run_status(const struct testpoint_set *s);

#endif
