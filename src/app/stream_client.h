/* A stream's workflow (wirerate stream): the options' rules, and the
 * client's side of a run, against a server (--client) or through the lab
 * with both ends here (lab mode). The client side opens the DUT the
 * datagrams cross and the watch of its CPUs, runs the senders, repeats
 * the run until the mean is known well enough (netperf's -I), stores each
 * run as it ends, and returns the figures for the caller to print. */
#ifndef WR_APP_STREAM_CLIENT_H
#define WR_APP_STREAM_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>

#include "app/cli_hooks.h"
#include "app/run_store.h"
#include "app/stream_senders.h"
#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "core/units.h"
#include "dut/dut.h"
#include "engine/cpucost.h"
#include "engine/stream.h"
#include "lab/lab.h"

enum app_stream_mode { APP_STREAM_LAB, APP_STREAM_SERVER, APP_STREAM_CLIENT };
/* Which end runs on the DUT (--sender dut, --receiver dut): the host
 * under test sends or receives; neither: both ends are the tester's. */
enum app_stream_end { APP_STREAM_END_NONE, APP_STREAM_END_SENDER, APP_STREAM_END_RECEIVER };

#define APP_STREAM_SIZE_DEFAULT 1025	/* netperf's */
#define APP_STREAM_CONF_WIDTH 10.0	/* % of the mean, netperf's default */
#define APP_STREAM_ITER_DEFAULT_MAX 10
#define APP_STREAM_ITER_DEFAULT_MIN 3

/* What a stream is asked to do: the command's options, as given. */
struct app_stream_opts {
	enum app_stream_mode mode;	/* set by app_stream_client_check */
	bool server, once, have_port, have_size, have_duration, have_prefix;
	bool allow_any;			/* --allow-any-address */
	const char *host;
	uint16_t port;
	uint64_t size, duration_ns;
	struct rate rate;		/* --rate: each sender's (kind RATE_PPS, value 0: none) */
	bool have_rate;
	unsigned int max_sessions;	/* 0: not given */
	unsigned int max_per_peer;	/* 0: not given */
	unsigned int peer_prefix6;	/* 0: not given */
	uint64_t max_duration_ns;	/* 0: not given */
	const char *bind, *token_file, *user;
	char prefix[LAB_PREFIX_MAX + 1];
	/* The DUT the datagrams cross: its CPU time per datagram. */
	struct dut_target dut;		/* --dut; lab mode: the lab's */
	enum app_stream_end dut_end;	/* --sender dut, --receiver dut */
	struct cpuset watch;		/* --watch-cpus */
	struct cpuset irq_cpus;		/* --irq-cpus: the DUT end's ports' IRQs, port i on the i-th (mod) */
	/* --dut-ports on a DUT of its own: the ports its end uses, sender i
	 * by port i mod n (routed there by -H's i-th address) */
	char dut_ports_buf[256];
	const char *dut_ports[DUTSNAP_IF_MAX];
	unsigned int ndut_ports;
	bool soak;
	bool soak_here;			/* --soak-here: this host's end soaked too */
	const char *soak_path;		/* --soak-calibration (lab, local, --soak-here) */
	bool profile;			/* --profile: where the DUT's CPU time goes */
	unsigned int profile_hz, profile_top;
	/* -I LEVEL[,WIDTH] and -i MAX[,MIN]: repeat until the mean's
	 * interval is narrow enough (netperf's confidence iterations) */
	unsigned int conf_level;	/* 95 or 99; 0: one run */
	double conf_width;		/* the interval's whole width, % of the mean */
	unsigned int iter_max, iter_min;	/* 0: not given */
	unsigned int repeat;		/* --repeat N: N runs, each stored (0: one, or -I's) */
	/* netperf's -c, -C and -T */
	bool local_cpu, remote_cpu;	/* show the CPU columns of that end */
	int cpu, server_cpu;		/* pin the sender, the server's session (-1: no) */
	bool have_bind_cpu;
	/* several senders at once: --threads N, --cpus LIST (one per CPU) */
	unsigned int threads;		/* 0: not given */
	struct cpuset cpus;
	unsigned int nsend;		/* senders (1 without either): set by app_stream_client_check */
	int send_cpu[STREAMRUN_MAX];	/* each one's CPU, -1: not pinned: the same */
	/* the store (--db, --label, --tag, --no-store): each run a trial */
	struct run_store store;
	/* While it runs: whether the caller may administer networks (lab
	 * mode needs it), and the client's stop flag, which app_stream_run
	 * sets from the CLI's stop hook. */
	bool root;
	volatile sig_atomic_t *stop;
};

/* Nothing given: the defaults (netperf's port, message size and run). */
void app_stream_client_defaults(struct app_stream_opts *op);

/* netperf's values of three options into op: -I LEVEL[,WIDTH] (95 or
 * 99, 0.1..50 % of the mean, default 10), -i MAX[,MIN] (1..30 runs,
 * at least MIN, default 3 or MAX), -T LOCAL[,REMOTE] ("N" both ends on
 * CPU N, "N," the sender only, ",N" the server only). 0, or -EINVAL with
 * the reason. */
int app_stream_client_confidence(struct app_stream_opts *op, const char *v, char *err, size_t errlen);
int app_stream_client_iterations(struct app_stream_opts *op, const char *v, char *err, size_t errlen);
int app_stream_client_bind_cpu(struct app_stream_opts *op, const char *v, char *err, size_t errlen);

/* The options' rules, with what follows from them: the mode, -i's default
 * with -I, and the senders and their CPUs. A CPU that -T or --cpus names
 * must be online here. 0, or -EINVAL with the reason in err. */
int app_stream_client_check(struct app_stream_opts *op, char *err, size_t errlen);

/* The runs asked for: -I's most, --repeat's, or one. */
unsigned int app_stream_client_runs(const struct app_stream_opts *op);

/* --rate in datagrams/s (bits/s count the payload, as the throughput
 * does); 0 without --rate. */
double app_stream_client_rate_pps(const struct app_stream_opts *op);

/* A client's figures. */
struct app_stream_res {
	char addr[INET6_ADDRSTRLEN];	/* the server's, numeric */
	uint16_t port;			/* its control port (lab mode: the first sender's) */
	struct stream_result r;		/* the last run's, its senders' total */
	struct stream_conf cf;		/* the runs' throughputs and their mean's interval */
	struct stream_sender s[STREAMRUN_MAX];	/* the last run's senders */
	bool have_cost;			/* the DUT's CPU was watched over the last run */
	struct cpucost_result cr;
	/* --soak-here: this host's CPUs (its end: the senders, or the
	 * server with --sender dut) over the same window, soaked */
	bool have_here;
	struct cpucost_result here_cr;
	char dut[160];			/* the DUT's name, with have_cost */
	enum app_stream_end dut_end;	/* the end that ran on the DUT */
	char dut_kernel[80];		/* with dut_end: the DUT's kernel release */
	/* With dut_end in a lab: each path's DUT port the datagrams left
	 * (--sender dut: its egress) or reached (its ingress), what the
	 * senders of that path sent okay over the last run, and what the
	 * port counted (packets, and with --sender dut its drops) */
	double control_mbps;		/* --soak with dut_end: the control run's received rate (0: none) */
	char irq_placed[256];		/* --irq-cpus: what the DUT's agent placed ("" none) */
	unsigned int nport;
	struct app_stream_port {
		char ifname[16];
		unsigned int senders;
		uint64_t datagrams, counted;
	} dport[LAB_PORTS_MAX];
};

/* Run the client's side (mode CLIENT or LAB: root and a lab that is up)
 * until the runs are done, one fails or op->stop is set; a line for the
 * user said through cli as it goes (each -I run's figure, a note; a run
 * the store refused, a warning). op->host is the server; in lab mode,
 * the lab's sink address is set there. 0, or -EINVAL (bad input: a token
 * file, a host, an address outside the benchmarking ranges), -ECANCELED
 * (a run was stopped by op->stop before its figures came), or another
 * -errno; err says why. */
int app_stream_client(struct app_stream_opts *op, const struct app_cli_hooks *cli, struct app_stream_res *res,
		      char *err, size_t errlen);

/* The server's side up to serving (--server): the token read, the
 * listening socket made (on --bind's address, --port), and root given up
 * for --user (default nobody) once listening. s is the caller's server
 * with its quit flag and hooks set; this sets its socket, token (in tok,
 * which the caller wipes), the session limits and runs' longest. 0, or
 * -EINVAL (a bad token file, address or user, a port in use or not ours
 * to take), another -errno; err says why. */
int app_stream_client_listen(const struct app_stream_opts *op, struct stream_server *s, char *tok, size_t toklen,
		      char *err, size_t errlen);

/* The user --server runs as, once listening: only root changes user. */
const char *app_stream_client_user(const struct app_stream_opts *op);
/* Whether the server serves anyone who reaches it: no token, and a
 * --bind that is not loopback (or none). */
bool app_stream_client_open(const struct app_stream_opts *op, const struct stream_server *s);

/* The stored run's headline, as 'runs' shows it. */
void app_stream_client_headline(const struct app_stream_opts *op, const struct app_stream_res *res, char *buf,
			 size_t len);

#endif
