#include "app/ceiling.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double min_offered(const struct trial_result *r)
{
	double m = r->ndirs ? r->dir[0].offered_pps : 0;

	for (unsigned int d = 1; d < r->ndirs; d++)
		m = fmin(m, r->dir[d].offered_pps);
	return m;
}

/* Flat out, every direction's shortfall the DUT's full ingress (no
 * direction tester-limited). */
static bool dut_held(const struct trial_result *r)
{
	bool any = false;

	for (unsigned int d = 0; d < r->ndirs; d++) {
		if (r->dir[d].tester_limited)
			return false;
		any |= r->dir[d].dut_refused > 0;
	}
	return any;
}

static uint16_t next_id(uint16_t *id)
{
	uint16_t v = *id;

	*id = (uint16_t)((*id + 1) & 0x7fff);
	if (!*id)
		*id = 1;
	return v;
}

int app_ceiling_placement(const struct trial_cfg *base, unsigned int size, uint16_t *trial_id,
			  const volatile sig_atomic_t *stop, struct app_ceiling *out, char *err, size_t errlen)
{
	struct trial_result *r = calloc(1, sizeof(*r));
	struct trial_cfg c = *base;
	double rate;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	out->gen_cpu = base->gen_cpu[0];
	out->rx_cpu = base->rx_cpu;
	c.sizes[0] = size;
	c.nsizes = 1;
	c.duration_ns = APP_CEIL_TRIAL_NS;
	c.drain_ns = APP_CEIL_DRAIN_NS;
	c.cost = NULL;
	/* flat out: as fast as the generator goes (calibrate's 1 Gpps) */
	c.rate_pps = 1e9;
	c.trial_id = next_id(trial_id);
	if ((rc = trial_run(&c, r, stop, NULL, NULL, err, errlen)))
		goto out;
	if (r->interrupted) {
		rc = -EINTR;
		snprintf(err, errlen, "interrupted");
		goto out;
	}
	out->flat_pps = min_offered(r);
	if (dut_held(r) && out->flat_pps >= 1) {
		out->dut_held = out->found = true;
		out->pps = floor(out->flat_pps / APP_CEIL_FIRST);
		goto out;
	}
	for (rate = floor(out->flat_pps * APP_CEIL_FIRST); out->steps < APP_CEIL_STEPS && rate >= 1;
	     rate = floor(rate * APP_CEIL_STEP)) {
		bool held = true;

		/* A step holds when APP_CEIL_CONFIRM trials in a row are not
		 * tester-limited: one 1 s trial near the edge passed and the
		 * next at the same load did not, on a host whose pauses come
		 * and go. */
		for (unsigned int k = 0; k < APP_CEIL_CONFIRM && held; k++) {
			c.rate_pps = rate;
			c.trial_id = next_id(trial_id);
			memset(r, 0, sizeof(*r));
			if ((rc = trial_run(&c, r, stop, NULL, NULL, err, errlen)))
				goto out;
			out->trials++;
			if (r->interrupted) {
				rc = -EINTR;
				snprintf(err, errlen, "interrupted");
				goto out;
			}
			held = !r->tester_limited;
			for (unsigned int d = 0; !held && d < r->ndirs; d++)
				if (r->dir[d].tester_limited) {
					snprintf(out->why, sizeof(out->why), "%s", r->dir[d].tester_reason);
					break;
				}
		}
		out->steps++;
		if (held) {
			out->found = true;
			out->pps = rate;
			break;
		}
	}
	/* None held: the lowest step tried is still nearer than a
	 * back-to-back figure the tester cannot reach here; said so. */
	if (!out->found)
		out->pps = floor(rate / APP_CEIL_STEP);
out:
	free(r);
	return rc;
}
