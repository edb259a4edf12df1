#include "core/pace.h"

#include "core/ns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef __SIZEOF_INT128__
#error "pace.c needs a compiler with unsigned __int128 (gcc or clang, 64-bit)"
#endif

typedef unsigned __int128 u128;

/* micro-frames per second -> frames per ns: divide by 1e6 * NSEC_PER_SEC. */
#define UPPS_PER_FPNS	(1000000ULL * NSEC_PER_SEC)

int pace_init(struct pace *p, double rate_pps, uint64_t start_ns,
	      unsigned int max_burst, uint64_t limit, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (!(rate_pps >= PACE_RATE_MIN && rate_pps <= PACE_RATE_MAX)) {
		snprintf(err, errlen, "pacing rate %g frames/s out of range: must be %g..%g",
			 rate_pps, PACE_RATE_MIN, PACE_RATE_MAX);
		return -EINVAL;
	}
	if (!max_burst) {
		snprintf(err, errlen, "burst size must be at least 1 frame");
		return -EINVAL;
	}
	p->start_ns = start_ns;
	p->rate_upps = (uint64_t)llround(rate_pps * 1e6);
	p->max_burst = max_burst;
	p->limit = limit;
	return 0;
}

uint64_t pace_due_total(const struct pace *p, uint64_t now_ns)
{
	u128 d;

	if (now_ns <= p->start_ns)
		return 0;
	d = (u128)(now_ns - p->start_ns) * p->rate_upps / UPPS_PER_FPNS;
	return d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

unsigned int pace_due(struct pace *p, uint64_t now_ns)
{
	uint64_t due = pace_due_total(p, now_ns), backlog;

	if (p->limit && due > p->limit)
		due = p->limit;
	if (due <= p->sent)
		return 0;
	backlog = due - p->sent;
	if (backlog > p->max_backlog)
		p->max_backlog = backlog;
	return backlog < p->max_burst ? (unsigned int)backlog : p->max_burst;
}

void pace_sent(struct pace *p, unsigned int n, uint64_t now_ns)
{
	if (!n)
		return;
	p->sent += n;
	p->last_ns = now_ns;
	if (n > p->largest_burst)
		p->largest_burst = n;
}

void pace_unsend(struct pace *p, uint64_t n)
{
	p->sent -= n < p->sent ? n : p->sent;
}

uint64_t pace_next_ns(const struct pace *p)
{
	u128 k = (u128)p->sent + 1, t;

	if (p->limit && p->sent >= p->limit)
		return UINT64_MAX;
	/* The first time t with floor(t * rate) >= k: ceil(k / rate). */
	t = (k * UPPS_PER_FPNS + p->rate_upps - 1) / p->rate_upps;
	if (t > UINT64_MAX - p->start_ns)
		return UINT64_MAX;
	return p->start_ns + (uint64_t)t;
}

void pace_stats(const struct pace *p, struct pace_stats *out)
{
	out->sent = p->sent;
	out->largest_burst = p->largest_burst;
	out->max_backlog = p->max_backlog;
	out->achieved_pps = 0;
	if (p->sent && p->last_ns > p->start_ns)
		out->achieved_pps = (double)p->sent * NSEC_PER_SEC / (double)(p->last_ns - p->start_ns);
}
