/* The tester's ceiling in the trial's own placement: what the generator
 * can offer, and the analyzer count, with both on the CPUs they will use
 * through the DUT and the DUT's own work beside them. A back-to-back
 * calibration measures neither: through the lab DUT, with the analyzer
 * on the generator's CPU, the generator offered 0.72-0.95 Mpps where its
 * back-to-back ceiling was 6.7 Mpps, so a search that started there
 * began with tester-limited trials. Measured through the trial's own
 * path: flat out, then paced below what that reached, stepping down
 * until a trial is not tester-limited (the trial's own test: offered
 * within 0.5% of the target, nothing dropped by the tester's receive).
 * A DUT that pushes back (its ingress queue full, flat out: a veth or a
 * tap behind AF_PACKET) takes less than the tester offers: what got
 * through is the DUT's rate, not the tester's reach, so the ceiling is
 * not stepped down to it; the max load is set a step above it, where
 * the DUT is overloaded, and the search's trials there count the DUT's
 * refusal as its loss. */
#ifndef WR_APP_CEILING_H
#define WR_APP_CEILING_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ns.h"
#include "engine/trial.h"

/* Each trial of the measurement: 1 s of traffic (the rate the generator
 * reaches settles within its first 100 ms; a second averages out the
 * host's pauses), a 0.5 s drain (frames in flight through a DUT clear in
 * milliseconds). Paced steps start at 90% of the flat-out rate, as
 * 'calibrate' does, and go down by 20% at a time, at most 8 steps (to
 * 19% of flat out: through the lab with the analyzer on the generator's
 * CPU, 53% of flat out was still tester-limited); a step holds when 2
 * trials in a row at it are not tester-limited. */
#define APP_CEIL_TRIAL_NS	NSEC_PER_SEC
#define APP_CEIL_DRAIN_NS	(500 * NSEC_PER_MSEC)
#define APP_CEIL_FIRST		0.9
#define APP_CEIL_STEP		0.8
#define APP_CEIL_STEPS		8
#define APP_CEIL_CONFIRM	2

struct app_ceiling {
	bool found;			/* a paced step was not tester-limited */
	bool dut_held;			/* flat out, the DUT's full ingress held frames back:
					 * pps is a step above what it took (flat_pps) */
	double pps;			/* the highest such step's target */
	double flat_pps;		/* the generator flat out */
	unsigned int steps;		/* paced loads tried */
	unsigned int trials;		/* paced trials run */
	int gen_cpu, rx_cpu;		/* where it was measured */
	char why[200];			/* the last tester-limited trial's reason */
};

/* Measure the ceiling for one frame size through base's path (resolved:
 * the lab's DUT or the cabled ports). *trial_id is used and advanced.
 * -EINTR when stopped; -errno with a reason when a trial fails. */
int app_ceiling_placement(const struct trial_cfg *base, unsigned int size, uint16_t *trial_id,
			  const volatile sig_atomic_t *stop, struct app_ceiling *out, char *err, size_t errlen);

#endif
