/* What a traffic command (trial, calibrate, rfc2544) was asked for and
 * what it resolved it to: the trial's configuration, the ports (the lab or
 * cabled interfaces), addresses, rate, line rate, the DUT CPUs to watch.
 * src/cli/trial_opts.c fills it from argv; src/app/trial_plan.c resolves it
 * against the host. */
#ifndef WR_APP_TRIAL_CFG_H
#define WR_APP_TRIAL_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "core/duttarget.h"
#include "core/units.h"
#include "engine/trial.h"
#include "lab/lab.h"

enum { TRIALOPT_AUTO, TRIALOPT_XDP, TRIALOPT_AFXDP, TRIALOPT_AFPACKET, TRIALOPT_MMSG };

struct trialopt {
	struct trial_cfg cfg;
	int path;			/* --port-type: TRIALOPT_* */
	bool lab_napi;			/* the lab DUT's ports run XDP (NAPI mode) */
	bool lab_vm;			/* the lab's DUT is a VM (lab up --kernel): its ports are taps */
	unsigned int lab_queues;	/* queues of the lab's ports */
	struct rate rate;
	bool rate_set;
	char prefix[LAB_PREFIX_MAX + 1];
	bool prefix_set;
	bool lab;
	const char *tx_if, *rx_if;	/* pair 0's as given: IF or IF@NETNS */
	const char *tx_given, *rx_given;	/* --tx and --rx as given: lists of pairs */
	char tx_name[96], rx_name[96];
	bool dst_mac_set, rx_dst_mac_set;
	uint8_t dst_mac[6], rx_dst_mac[6];
	bool ipv6, size_set;
	uint8_t src_ip[16], dst_ip[16];	/* IPv4 in the first 4 bytes */
	bool src_set, dst_set;
	bool allow_any;			/* --allow-any-address */
	bool src_v6, dst_v6;		/* the family --src-ip/--dst-ip were given in */
	bool ipv6_flag;			/* --ipv6 itself */
	bool imix_set;
	bool learn_set, duration_set;
	bool direct;			/* tx cabled straight to rx: no DUT (calibrate) */
	double line_bps;		/* 0: unknown */
	bool line_set;
	int nsfd[3];			/* lab: gen, sink, DUT */
	int lab_lock;		/* lab: its lock (lab_status_lock), -1 when not held here */
	char dir_label[TRIAL_MAX_DIRS][96];
	char where[256];		/* "through lab wr- (DUT CPU 1)" */
	char calib_path[4096];		/* the tester's ceilings */
	struct cpuset watch;		/* CPUs whose cost is recorded (lab: the DUT's) */
	bool soak;			/* soak them too */
	char soak_path[4096];		/* the soak's calibration */
	/* The DUT whose side is measured (--dut; the lab's by default when
	 * its ports are used, this host with --watch-cpus alone). */
	struct dut_target dut_t;
	char dut_ports_buf[256];	/* --dut-ports, split in place */
	const char *dut_ports[DUTSNAP_IF_MAX];
	unsigned int ndut_ports;
	int dut_place;			/* --dut-placement: enum dut_placement */
	bool dut_rules_set;
	unsigned int dut_rules;
	struct dut *dut;		/* open from app_trial_dut_open to app_trial_plan_release */
	char dut_applied[256];		/* what the agent changed for the run */
	/* Next hop resolution: [0] --next-hop (on --tx), [1] --rx-next-hop
	 * (on --rx, with --bidir); resolved by app_trial_plan_resolve. */
	struct trial_nexthop {
		bool set, v6;
		uint8_t ip[16];
		bool resolved;
		uint8_t mac[6];
		double ms;		/* request to answer */
		unsigned int tries;
	} nh[2];
	/* Port pairs: --tx A,B --rx C,D (pair p sends on the p-th --tx and
	 * counts on the p-th --rx), or the lab's paths (lab up --ports N).
	 * Pair 0 is also tx_name, rx_name, nsfd[0..1], dst_mac, rx_dst_mac,
	 * src_ip and dst_ip above, which the single-port code reads. */
	unsigned int nports;		/* 1..TRIAL_MAX_PORTS */
	bool bidir;
	struct trialport {
		char tx_if[96], rx_if[96];	/* as given (IF or IF@NETNS) */
		char tx_name[96], rx_name[96];
		int tx_nsfd, rx_nsfd;		/* -1: this namespace */
		uint8_t tx_mac[6], rx_mac[6];	/* the tester ports' own */
		uint8_t dst_mac[6], rx_dst_mac[6];
		uint8_t src_ip[16], dst_ip[16];
	} port[TRIAL_MAX_PORTS];
	/* how many values --dst-mac, --rx-dst-mac, --src-ip, --dst-ip gave */
	unsigned int ndst_mac, nrx_dst_mac, nsrc_ip, ndst_ip;
	char path_why[640];		/* why this port path (auto: what the probe found) */
	int xdp_hold_fd;		/* a pass-through XDP program kept on --tx, -1: none */
	bool stall_probe;		/* and run the stall probe on them */
	bool profile;			/* and sample where their time goes */
	unsigned int profile_hz;	/* 0: PROFILE_HZ_DEFAULT */
	unsigned int profile_top;	/* entries kept */
};

#endif
