/* A traffic command's trial (trial, calibrate, rfc2544) in three parts,
 * each with one owner:
 * - the request: what the user asked for, written only by the option
 *   tables (src/cli/trial_opts.c) over app_trial_check_defaults;
 * - the plan: what will run, made from the request by app_trial_check
 *   (its rules: port lists, default addresses, the lab or cabled ports)
 *   and a command's own defaults (app_calibrate_defaults), then
 *   app_trial_plan_resolve (the lab's or the interfaces' names, MACs,
 *   link speed, frames/s, the port path and why, the DUT's CPUs); every
 *   step after those reads the plan, never the request's copy;
 * - the session: what the run holds open (the lab's lock and namespaces,
 *   the DUT's agent, an XDP program kept on a port), taken by
 *   app_trial_plan_resolve and app_trial_dut_open and let go by
 *   app_trial_plan_release, which closes everything in it and the
 *   namespaces of cabled ports given as IF@NETNS (the plan's ports hold
 *   those descriptors beside their names). */
#ifndef WR_APP_TRIAL_SETUP_H
#define WR_APP_TRIAL_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "core/duttarget.h"
#include "core/units.h"
#include "engine/trial.h"
#include "lab/lab.h"

/* --port-type */
enum { TRIAL_PATH_AUTO, TRIAL_PATH_XDP, TRIAL_PATH_AFXDP, TRIAL_PATH_AFPACKET, TRIAL_PATH_MMSG };

/* --next-hop (on --tx) and --rx-next-hop (on --rx, with --bidir): the
 * address asked, then what the asking found (the plan's copy). */
struct trial_nexthop {
	bool set, v6;
	uint8_t ip[16];
	bool resolved;
	uint8_t mac[6];
	double ms;		/* request to answer */
	unsigned int tries;
};

/* A port pair: pair p sends on the p-th --tx and counts on the p-th
 * --rx, or is the lab's path p (lab up --ports N). */
struct trial_port {
	char tx_if[96], rx_if[96];	/* as given (IF or IF@NETNS) */
	char tx_name[96], rx_name[96];
	int tx_nsfd, rx_nsfd;		/* -1: this namespace */
	uint8_t tx_mac[6], rx_mac[6];	/* the tester ports' own */
	uint8_t dst_mac[6], rx_dst_mac[6];
	uint8_t src_ip[16], dst_ip[16];
};

/* What the plan starts from: the values that the rules and the
 * resolution complete. The request holds them as the options gave them;
 * app_trial_check copies them into the plan (plan.g = req.g) before
 * anything else. Both hold them as members of their own too (req.cfg,
 * plan.cfg), the way the kernel's struct_group() does. */
#define TRIAL_GIVEN_MEMBERS \
	struct trial_cfg cfg;		/* sizes, flows, timing, CPUs, rate_pps... */ \
	int path;			/* --port-type: TRIAL_PATH_* */ \
	struct rate rate; \
	char prefix[LAB_PREFIX_MAX + 1]; \
	const char *tx_if, *rx_if;	/* pair 0's: IF or IF@NETNS */ \
	uint8_t dst_mac[6], rx_dst_mac[6]; \
	bool ipv6;			/* IPv6 test frames, asked or implied */ \
	uint8_t src_ip[16], dst_ip[16];	/* IPv4 in the first 4 bytes */ \
	bool direct;			/* tx cabled straight to rx: no DUT (calibrate) */ \
	double line_bps;		/* 0: unknown */ \
	char calib_path[4096];		/* the tester's ceilings */ \
	struct cpuset watch;		/* CPUs whose cost is recorded (lab: the DUT's) */ \
	bool soak;			/* soak them too */ \
	char soak_path[4096];		/* the soak's calibration */ \
	/* The DUT whose side is measured (--dut; the lab's by default when \
	 * its ports are used, this host with --watch-cpus alone). */ \
	struct dut_target dut_t; \
	struct trial_nexthop nh[2]; \
	struct trial_port port[TRIAL_MAX_PORTS];	/* the lists' values */ \
	bool stall_probe;		/* and run the stall probe on them */ \
	bool profile;			/* and sample where their time goes */ \
	unsigned int profile_hz;	/* 0: PROFILE_HZ_DEFAULT */ \
	unsigned int profile_top;	/* entries kept */

struct trial_given {
	TRIAL_GIVEN_MEMBERS
};

struct trial_request {
	union {
		struct trial_given g;
		struct { TRIAL_GIVEN_MEMBERS };
	};
	bool rate_set, prefix_set;
	bool dst_mac_set, rx_dst_mac_set;
	bool size_set, imix_set, learn_set, duration_set, line_set;
	bool src_set, dst_set;
	bool src_v6, dst_v6;		/* the family --src-ip/--dst-ip were given in */
	bool ipv6_flag;			/* --ipv6 itself */
	bool allow_any;			/* --allow-any-address */
	bool bidir;
	/* how many values --dst-mac, --rx-dst-mac, --src-ip, --dst-ip gave */
	unsigned int ndst_mac, nrx_dst_mac, nsrc_ip, ndst_ip;
	char dut_ports_buf[256];	/* --dut-ports, split in place */
	const char *dut_ports[DUTSNAP_IF_MAX];
	unsigned int ndut_ports;
	int dut_place;			/* --dut-placement: enum dut_placement */
	bool dut_rules_set;
	unsigned int dut_rules;
};

struct trial_plan {
	/* the request's, checked and completed */
	union {
		struct trial_given g;
		struct { TRIAL_GIVEN_MEMBERS };
	};
	bool lab;			/* the lab's ports, not cabled ones */
	bool lab_napi;			/* the lab DUT's ports run XDP (NAPI mode) */
	bool lab_vm;			/* the lab's DUT is a VM (lab up --kernel): its ports are taps */
	unsigned int lab_queues;	/* queues of the lab's ports */
	const char *tx_given, *rx_given;	/* --tx and --rx as given: lists of pairs */
	char tx_name[96], rx_name[96];	/* pair 0's */
	/* Pair 0 is also tx_name, rx_name, dst_mac, rx_dst_mac,
	 * src_ip and dst_ip, which the single-port code reads. */
	unsigned int nports;		/* 1..TRIAL_MAX_PORTS */
	char dir_label[TRIAL_MAX_DIRS][96];
	char where[256];		/* "through lab wr- (DUT CPU 1)" */
	char path_why[640];		/* why this port path (auto: what the probe found) */
};

struct trial_session {
	int nsfd[3];			/* lab: gen, sink, DUT */
	int lab_lock;			/* lab: its lock (lab_status_lock), -1 when not held here */
	struct dut *dut;		/* open from app_trial_dut_open to app_trial_plan_release */
	char dut_applied[256];		/* what the agent changed for the run */
	int xdp_hold_fd;		/* a pass-through XDP program kept on --tx, -1: none */
};

struct trial_setup {
	struct trial_request req;
	struct trial_plan plan;
	struct trial_session ses;
};

#endif
