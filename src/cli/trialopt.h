/* The options every traffic command shares (trial, calibrate, rfc2544):
 * ports (the lab or cabled interfaces), sizes, flows, rate, timing, CPUs. */
#ifndef WR_CLI_TRIALOPT_H
#define WR_CLI_TRIALOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <net/if.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/units.h"
#include "engine/cpucost.h"
#include "engine/trial.h"
#include "render/out.h"
#include "lab/lab.h"
#include "app/trialcfg.h"

#define TRIALOPT_HELP \
	"ports (default: the lab):\n" \
	"  --prefix P          use the lab with namespace prefix P (default wr-)\n" \
	"  --tx IF --rx IF     cabled interfaces of a tester box instead (may be the same);\n" \
	"                      IF@NETNS names an interface in a named network namespace\n" \
	"  --dst-mac MAC       next hop (the DUT's port) for frames sent on --tx\n" \
	"  --rx-dst-mac MAC    next hop for frames sent back on --rx (with --bidir)\n" \
	"  --src-ip A --dst-ip B   test addresses (default 198.18.0.1 -> 198.19.0.2, or\n" \
	"                      2001:2:0:1::1 -> 2001:2:0:2::2 with --ipv6)\n" \
	"  --ipv6              IPv6 test frames (84..9018 bytes: 78 plus the 18-byte tag's room)\n" \
	"  --allow-any-address send to addresses outside 198.18.0.0/15 and 2001:2::/48, or\n" \
	"                      out of an interface that holds a default route\n" \
	"traffic:\n" \
	"  --rate RATE         per direction: 100kpps, 1Gbit, or 40% of --line-rate\n" \
	"  --size N            frame size with FCS, 64..9018 (default 64; above 1518 the\n" \
	"                      link needs the MTU: 'lab up --mtu')\n" \
	"  --imix[=LIST]       mixed sizes: SIZE:WEIGHT,... (default 64:7,570:4,1518:1)\n" \
	"  --flows N           distinct flows by UDP source port, 1..65535 (default 1)\n" \
	"  --bidir             both directions at once, each at RATE\n" \
	"  --line-rate RATE    link speed for % rates and % of line rate (default: the link's)\n" \
	"timing (RFC 2544 section 23):\n" \
	"  --duration T        traffic time (default 10s)\n" \
	"  --learn-frames N    learning frames before the trial (default: one per flow; 0: none)\n" \
	"  --learn-wait T      wait after learning (default 1s)\n" \
	"  --drain T           wait for residual frames after the traffic (default 2s)\n" \
	"tester:\n" \
	"  --gen-cpu N --rx-cpu N   pin the generator and analyzer (default: off the DUT's CPUs)\n" \
	"  --gen-cpu LIST      one generator thread per CPU (\"0,2\", \"0-3\"; at most 8) per\n" \
	"                      direction, each its own stream and transmit queue\n" \
	"  --port-type TYPE    auto (default): xdp where it works, else afpacket;\n" \
	"                      xdp: generator and analyzer in XDP (live frames, no skb);\n" \
	"                      afxdp: AF_XDP sockets both ends;\n" \
	"                      afpacket: TX ring + TPACKET_V3; mmsg: sendmmsg fallback\n" \
	"  --burst N           frames per batch at most (default 64)\n" \
	"  --latency-every N   the XDP analyzer times 1 frame in N (a power of two; 1: every\n" \
	"                      frame); auto (default): every frame up to 1 Mpps a stream,\n" \
	"                      above that the power of two that brings it below\n" \
	"  --no-flow-control   back to back on the XDP path, do not hold the generator\n" \
	"                      when the analyzer falls behind (its ring overflows instead)\n" \
	"  --calibration FILE  the tester's ceilings (default ~/.local/state/wirerate/calibration)\n" \
	"DUT CPU cost (lab: the DUT's CPUs are always watched through /proc/stat):\n" \
	"  --watch-cpus LIST   CPUs to watch when the DUT is this host but not the lab\n" \
	"  --soak              also soak them (needs 'wirerate soak --calibrate'): sees the\n" \
	"                      interrupt time /proc/stat hides\n" \
	"  --soak-calibration FILE   (default ~/.local/state/wirerate/soak-calibration)\n"

#define TRIALOPT_IMIX_DEFAULT "64:7,570:4,1518:1"

/* The traffic options (ports, traffic, timing, tester, DUT CPU cost): a
 * table for opt_parse whose ctx is a struct trialopt. */
extern const struct opt trialopt_opts[];
/* The defaults, before parsing. */
void trialopt_init(struct trialopt *o);
/* After parsing: the checks across options, the defaults that depend on
 * others; --rate is required unless default_rate is given. 0, or -EINVAL
 * with a one-line reason in err. */
int trialopt_check(struct trialopt *o, const char *default_rate, char *err, size_t errlen);

/* Parse argv into o; --rate is required unless default_rate is given. Returns 0, 1 after --help was printed, or -EINVAL
 * after a one-line error was printed. */
int trialopt_parse(struct trialopt *o, struct cli *cli, int argc, char **argv,
		   const char *usage, const char *default_rate, char *err, size_t errlen);
/* The DUT's CPU watch for a trial, or NULL when there is nothing to watch;
 * -errno with a reason (soak asked for but not calibrated, ...). */
int trialopt_cpucost(const struct trialopt *o, struct cpucost **cost, char *err, size_t errlen);
/* The DUT CPU block of a result. */
void cpucost_print(struct out *out, const struct cpucost_result *r);
/* Flag directions whose target is above the tester's calibrated ceiling
 * for this port type and size; returns the ceiling (0: none known). */
double trialopt_check_ceiling(const struct trialopt *o, struct trial_result *res);
void trialopt_print_header(struct out *out, const struct trialopt *o, const struct trial_result *res);

void trial_print_dir(struct out *o, const struct trial_dir_result *d, double frame_size,
		     double line_bps, const char *label);

#endif
