/* wirerate calibrate: the tester measured against itself, back to back
 * with no DUT in the path, so that results above its ceiling say so. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/trialopt.h"
#include "core/timeconst.h"
#include "app/trialres.h"
#include "store/calib.h"
#include "os/cpulat.h"

static const struct opt *const calibrate_tables[] = { trialopt_opts, NULL };

const struct opt_cmd calibrate_cmd = {
	.name = "calibrate",
	.synopsis = "[OPTIONS]",
	.about = "Measures the tester's own ceiling in frames/s for a frame size, back to back:\n"
		 "in the lab over a veth pair straight from gen to sink (no DUT), or over\n"
		 "--tx and --rx cabled to each other. Then checks, at 90% of that, that pacing\n"
		 "holds and the analyzer counts every frame. The ceiling is stored and later\n"
		 "trials above it are marked tester-limited.\n"
		 "\n"
		 "Takes the options of 'wirerate trial', with other defaults: --rate as fast as\n"
		 "possible, --duration 5s (not 10s), --learn-frames 0.\n",
	.tables = calibrate_tables,
};

static double min_offered(const struct trial_result *r)
{
	double m = r->dir[0].offered_pps;

	for (unsigned int d = 1; d < r->ndirs; d++)
		m = fmin(m, r->dir[d].offered_pps);
	return m;
}

static bool rx_clean(const struct trial_result *r)
{
	for (unsigned int d = 0; d < r->ndirs; d++)
		if (r->dir[d].lost || r->dir[d].tester_rx_drops || r->dir[d].tester_if_drops || r->dir[d].tx_errors)
			return false;
	return true;
}

static void print_step(struct out *o, const char *key, const char *label, const struct trial_result *r)
{
	uint64_t tx = 0, rx = 0, lost = 0, drops = 0, waits = 0;
	bool flow = false;

	for (unsigned int d = 0; d < r->ndirs; d++) {
		tx += r->dir[d].tx;
		rx += r->dir[d].rx;
		lost += r->dir[d].lost;
		drops += r->dir[d].tester_rx_drops + r->dir[d].tester_if_drops;
		flow |= r->dir[d].flow_control;
		waits += r->dir[d].flow_waits;
	}
	out_obj_start(o, key);
	out_text(o, "  %-10s ", label);
	out_f64(o, "target_pps", "%.0f frames/s target", r->dir[0].target_pps);
	out_f64(o, "offered_pps", ", %.1f offered", min_offered(r));
	out_u64(o, "tx", " (%llu frames)", tx);
	out_u64(o, "rx", ", %llu received", rx);
	out_u64(o, "lost", ", lost %llu", lost);
	out_u64(o, "rx_drops", ", receive drops %llu", drops);
	out_u64(o, "largest_burst", ", largest burst %llu", r->dir[0].largest_burst);
	out_bool(o, "flow_control", NULL, flow);
	out_u64(o, "flow_waits", flow ? ", held for the analyzer %llu times" : NULL, waits);
	out_u64(o, "xdp_batch", NULL, r->dir[0].xdp_batch);
	out_text(o, "\n");
	out_obj_end(o);
}

int cmd_calibrate(struct cli *cli, int argc, char **argv)
{
	struct trialopt to;
	struct trial_result *flat = NULL, *paced = NULL;
	struct cli_stop stop = { 0 };
	void *ctx[] = { &to };
	char *args[1];
	int nargs;
	struct calib_entry e = { 0 };
	struct utsname u;
	char err[512], e2[256];
	bool direct_made = false;
	struct out *o;
	int rc, ret = EXIT_RUNTIME;

	trialopt_init(&to);
	if ((rc = opt_parse(&calibrate_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (trialopt_check(&to, "1Gpps", err, sizeof(err))) {
		cli_error("calibrate: %s", err);
		return EXIT_USAGE;
	}
	to.direct = true;
	if (!to.duration_set)
		to.cfg.duration_ns = 5 * NSEC_PER_SEC;
	if (!to.learn_set)
		to.cfg.learn_frames = 0;
	if ((rc = app_trial_resolve(&to, err, sizeof(err)))) {
		cli_error("calibrate: %s", err);
		app_trial_release(&to);
		return cli_status(rc);
	}
	flat = calloc(1, sizeof(*flat));
	paced = calloc(1, sizeof(*paced));
	if (!flat || !paced)
		goto out;

	cli_stop_catch(&stop);
	if (to.lab) {
		struct trial_cfg *c = &to.cfg;

		if ((rc = lab_direct_add(to.prefix, c->dir[0].spec.src_mac, c->dir[0].spec.dst_mac, err, sizeof(err)))) {
			cli_error("calibrate: %s", err);
			goto out;
		}
		direct_made = true;
		c->dir[0].tx_if = LAB_DIRECT_TX;
		c->dir[0].rx_if = LAB_DIRECT_RX;
		c->dir[1].tx_if = LAB_DIRECT_RX;
		c->dir[1].rx_if = LAB_DIRECT_TX;
		/* cabled straight: the far end's ring is the tester's own */
		for (int d = 0; d < 2; d++) {
			c->dir[d].direct = true;
			c->dir[d].rx_peer_if = NULL;
		}
		memcpy(c->dir[1].spec.src_mac, c->dir[0].spec.dst_mac, 6);
		memcpy(c->dir[1].spec.dst_mac, c->dir[0].spec.src_mac, 6);
		snprintf(to.where, sizeof(to.where), "back to back in lab %s (gen cal0 -> sink cal1, no DUT)", to.prefix);
	} else {
		snprintf(to.where, sizeof(to.where), "back to back on %s -> %s (cabled, no DUT)", to.tx_if, to.rx_if);
	}

	/* 1: flat out. */
	if ((rc = trial_run(&to.cfg, flat, cli_stop_flag(), NULL, NULL, err, sizeof(err)))) {
		cli_error("calibrate: %s", err);
		goto out;
	}
	/* 2: paced at 90% of what the generator reached. */
	if (!flat->interrupted) {
		to.cfg.rate_pps = floor(min_offered(flat) * 0.9);
		to.cfg.trial_id = (uint16_t)((to.cfg.trial_id + 1) & 0x7fff);
		if (to.cfg.rate_pps < 1 ||
		    (rc = trial_run(&to.cfg, paced, cli_stop_flag(), NULL, NULL, err, sizeof(err)))) {
			cli_error("calibrate: %s", rc ? err : "the generator sent nothing");
			goto out;
		}
	}
	if (flat->interrupted || paced->interrupted) {
		cli_error("calibrate: interrupted; nothing stored");
		ret = 130;
		goto out;
	}

	/* The ceiling: flat out when the analyzer counted all of it and the
	 * generator held 90% of it paced; else what the paced run reached. */
	double pace_err = fabs(min_offered(paced) - paced->dir[0].target_pps) * 100.0 / paced->dir[0].target_pps;

	/* Where the host had the generator's and the analyzer's CPUs: before
	 * each step (the trial measures it) and now. A ceiling measured while
	 * the host moved them holds for neither placement. */
	double line_after = 0, lo = 0, hi = 0;
	bool line = flat->cpu_line_ns > 0;

	if (line && cpulat_measure(to.cfg.gen_cpu[0], to.cfg.rx_cpu, &line_after, e2, sizeof(e2)))
		line_after = 0;
	const double lines[] = { flat->cpu_line_ns, paced->cpu_line_ns, line_after };

	for (int i = 0; i < 3; i++)
		if (lines[i] > 0) {
			lo = lo > 0 && lo < lines[i] ? lo : lines[i];
			hi = hi > lines[i] ? hi : lines[i];
		}
	bool moved = cpulat_moved(lo, hi);

	e.size = to.cfg.sizes[0];
	if (line && !moved) {
		cpulat_pair_name(to.cfg.gen_cpu[0], to.cfg.rx_cpu, e.line_cpus, sizeof(e.line_cpus));
		e.line_ns = flat->cpu_line_ns;
	}
	app_trial_calib_key(&to, e.port_type, sizeof(e.port_type));
	e.rx_ok = rx_clean(flat) || rx_clean(paced);
	e.pps = rx_clean(flat) && pace_err <= 0.5 ? min_offered(flat) : min_offered(paced);
	e.when = (int64_t)time(NULL);
	uname(&u);
	snprintf(e.kernel, sizeof(e.kernel), "%s", u.release);
	bool store = to.cfg.nsizes == 1;

	if (store && (rc = calib_store(to.calib_path, &e, err, sizeof(err)))) {
		cli_error("calibrate: %s", err);
		goto out;
	}

	o = cli_out_create(cli, "calibrate");
	trialopt_print_header(o, &to, flat);
	print_step(o, "flat_out", "flat out", flat);
	print_step(o, "paced", "at 90%", paced);
	if (line) {
		out_obj_start(o, "cpu_line");
		out_text(o, "  cpu line  ");
		out_f64(o, "before_ns", " %.0f ns from CPU", flat->cpu_line_ns);
		out_i64(o, "gen_cpu", " %lld", to.cfg.gen_cpu[0]);
		out_i64(o, "rx_cpu", " to CPU %lld before", to.cfg.rx_cpu);
		if (paced->cpu_line_ns > 0)
			out_f64(o, "between_ns", ", %.0f ns between the steps", paced->cpu_line_ns);
		else
			out_null(o, "between_ns");
		if (line_after > 0)
			out_f64(o, "after_ns", ", %.0f ns after", line_after);
		else
			out_null(o, "after_ns");
		out_bool(o, "moved", NULL, moved);
		out_text(o, moved ? ": THE HOST MOVED THESE CPUS during the calibration, and the ceiling holds "
				    "for neither placement: run it again\n" : "\n");
		out_obj_end(o);
	} else {
		out_null(o, "cpu_line");
	}
	out_f64(o, "pacing_error_pct", "  pacing     %.3f%% off target at 90%%", pace_err);
	out_text(o, "%s\n", pace_err <= 0.5 ? " (within 0.5%)" : " (MORE THAN 0.5%: the tester cannot pace this rate; "
							 "the ceiling is what it reached)");
	out_f64(o, "ceiling_pps", "  ceiling    %.0f frames/s", e.pps);
	out_u64(o, "size", " for %llu-byte frames", e.size);
	/* port_type and gen_threads are in the header above */
	out_text(o, " on %s ports", app_trial_path(&to));
	if (trial_threads(&to.cfg) > 1)
		out_text(o, ", %u generator threads", trial_threads(&to.cfg));
	out_str(o, "key", NULL, e.port_type);
	out_bool(o, "receiver_ok", NULL, e.rx_ok);
	out_text(o, e.rx_ok ? "; the analyzer counted every frame\n"
			    : "; the analyzer LOST frames even at 90%%: results near this rate are tester-limited\n");
	/* what this figure is for, and what it is not */
	if (to.lab)
		out_text(o, "  note       back to back: 'trial' checks against it; 'rfc2544' through the lab "
			 "measures its own ceiling through the DUT, in the placement of its trials\n");
	if (store)
		out_str(o, "stored", "  stored in  %s\n", to.calib_path);
	else
		out_null(o, "stored");
	out_destroy(o);
	ret = 0;
out:
	if (direct_made)
		lab_direct_del(to.prefix, e2, sizeof(e2));
	cli_stop_restore(&stop);
	free(flat);
	free(paced);
	app_trial_release(&to);
	return ret;
}
