/* A trial's configuration checked before anything is opened or sent:
 * what the frames, the rate, the CPUs and the ports' paths allow, and
 * whether the links' MTU takes the largest frame. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "core/pace.h"
#include "engine/trial.h"
#include "os/clock.h"
#include "os/nl.h"

int trial_preflight_check(const struct trial_cfg *cfg, char *err, size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	bool back = false;

	if (cfg->ndirs < 1 || cfg->ndirs > TRIAL_MAX_DIRS || !cfg->nsizes || cfg->nsizes > TRIAL_MAX_SIZES) {
		snprintf(err, errlen, "a trial needs 1..%d directions and 1..%d frame sizes", TRIAL_MAX_DIRS,
			 TRIAL_MAX_SIZES);
		return -EINVAL;
	}
	for (unsigned int d = 0; d < cfg->ndirs; d++) {
		if (cfg->dir[d].path >= TRIAL_MAX_PORTS) {
			snprintf(err, errlen, "direction %u: port pair %u of %d", d, cfg->dir[d].path, TRIAL_MAX_PORTS);
			return -EINVAL;
		}
		back |= cfg->dir[d].back;
	}
	for (unsigned int d = 0; d < cfg->ndirs; d++) {
		enum frame_family fam = cfg->dir[d].spec.family;

		/* A test frame carries the tag: IPv6 frames of 78..83 bytes
		 * (RFC 5180's smallest) have no room for its 18 bytes. */
		unsigned int vl = cfg->dir[d].spec.vlan ? FRAME_VLAN_LEN : 0;
		unsigned int lo = (fam == FRAME_IPV6 ? FRAME_MIN_TAGGED_V6 : FRAME_MIN_V4) + vl;

		for (unsigned int i = 0; i < cfg->nsizes; i++)
			if (cfg->sizes[i] < lo || cfg->sizes[i] > frame_size_max(cfg->dir[d].spec.vlan)) {
				snprintf(err, errlen, "frame size %u: an IPv%d test frame is %u..%u bytes (with FCS)%s",
					 cfg->sizes[i], fam, lo, frame_size_max(cfg->dir[d].spec.vlan),
					 fam == FRAME_IPV6 && cfg->sizes[i] >= FRAME_MIN_V6 && cfg->sizes[i] < lo ?
					 ": below 84 there is no room for the 18-byte tag" : "");
				return -EINVAL;
			}
	}
	if (frame_flows_check(&cfg->flows, err, errlen))
		return -EINVAL;
	if (analyzer_check(trial_analyzer_type(cfg), cfg->rate_pps * (double)cfg->duration_ns / NSEC_PER_SEC,
			   err, errlen) ||
	    gen_check(trial_gen_type(cfg), cfg->sizes, cfg->nsizes, err, errlen))
		return -EINVAL;
	if (!(cfg->rate_pps >= PACE_RATE_MIN && cfg->rate_pps <= PACE_RATE_MAX)) {
		snprintf(err, errlen, "--rate: %g frames/s is outside %g..%g", cfg->rate_pps, PACE_RATE_MIN, PACE_RATE_MAX);
		return -EINVAL;
	}
	if (!cfg->duration_ns) {
		snprintf(err, errlen, "--duration must be above 0");
		return -EINVAL;
	}
	if (cfg->rate_pps * (double)cfg->duration_ns / NSEC_PER_SEC < 1) {
		snprintf(err, errlen, "--rate %g for --duration %gs sends no frame", cfg->rate_pps, (double)cfg->duration_ns / NSEC_PER_SEC);
		return -EINVAL;
	}
	if (cfg->threads > TRIAL_MAX_THREADS) {
		snprintf(err, errlen, "--gen-cpu: %u generator threads a direction at most, not %u",
			 TRIAL_MAX_THREADS, cfg->threads);
		return -EINVAL;
	}
	for (unsigned int k = 0; k < trial_threads(cfg); k++)
		if (cfg->gen_cpu[k] >= 0 && cfg->gen_cpu[k] >= ncpu) {
			snprintf(err, errlen, "--gen-cpu: this host has CPUs 0..%ld", ncpu - 1);
			return -EINVAL;
		}
	if (cfg->rx_cpu >= 0 && cfg->rx_cpu >= ncpu) {
		snprintf(err, errlen, "--rx-cpu: this host has CPUs 0..%ld", ncpu - 1);
		return -EINVAL;
	}
	if (trial_threads(cfg) > 1 && cfg->rate_pps * (double)cfg->duration_ns / NSEC_PER_SEC < trial_threads(cfg)) {
		snprintf(err, errlen, "--rate %g for --duration %gs sends fewer frames than the %u generator threads",
			 cfg->rate_pps, (double)cfg->duration_ns / NSEC_PER_SEC, trial_threads(cfg));
		return -EINVAL;
	}
	/* Thread k > 0 transmits from its own AF_XDP socket on queue k, which
	 * the port receiving the other direction on the same interface holds. */
	if (trial_threads(cfg) > 1 && back && trial_gen_type(cfg) == GEN_PORT && cfg->port_type == PORT_AFXDP) {
		snprintf(err, errlen, "--port-type afxdp sends from one thread a direction with --bidir: "
			 "use --port-type xdp or afpacket for several generator threads");
		return -EINVAL;
	}
	if (!cfg->max_burst) {
		snprintf(err, errlen, "--burst must be at least 1");
		return -EINVAL;
	}
	return 0;
}

int trial_preflight_mtu(const struct trial_cfg *c, char *err, size_t errlen)
{
	unsigned int maxsz = 0;

	for (unsigned int i = 0; i < c->nsizes; i++)
		if (c->sizes[i] > maxsz)
			maxsz = c->sizes[i];
	/* A frame longer than the link takes would be refused one by one
	 * (a socket port) or dropped unseen (the XDP generator). */
	for (unsigned int d = 0; d < c->ndirs; d++) {
		struct link_info li;

		if (!c->dir[d].tx_if || nl_link_get_in(c->dir[d].tx_nsfd, c->dir[d].tx_if, &li) || !li.mtu)
			continue;
		if (maxsz > li.mtu + 18 + (c->dir[d].spec.vlan ? 4 : 0)) {
			snprintf(err, errlen, "%u-byte frames need an MTU of %u on %s, which has %u "
				 "(the lab: 'wirerate lab up --mtu %u')", maxsz, maxsz - 18, c->dir[d].tx_if,
				 li.mtu, maxsz - 18 < 1280 ? 1280 : maxsz - 18);
			return -EMSGSIZE;
		}
	}
	return 0;
}
