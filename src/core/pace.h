/* Pacing arithmetic for the generator. The caller owns the clock: it reads
 * it once per batch, never per frame (a clock read costs more than
 * rewriting a frame's tag, and would cap the rate), and asks how many
 * frames are due.
 *
 * Frame k (1-based) is due at start + k / rate, so by a time now
 *	due(now) = floor((now - start) * rate / NSEC_PER_SEC)
 * frames should have gone out. That is computed from the elapsed time with
 * integer arithmetic (the rate is held in micro-frames per second, 128-bit
 * intermediates), never by adding up floating increments, so the count is
 * exact after hours: rate * elapsed, to the rate's 1e-6 pps resolution.
 *
 * A batch is capped at max_burst frames. If the caller falls behind it
 * catches up in capped batches; the largest batch actually sent and the
 * achieved rate are recorded for the trial's tester-limited check.
 */
#ifndef WR_CORE_PACE_H
#define WR_CORE_PACE_H

#include <stddef.h>
#include <stdint.h>

#define PACE_RATE_MIN	1e-3	/* frames/s */
#define PACE_RATE_MAX	1e9

struct pace {
	uint64_t start_ns;
	uint64_t rate_upps;	/* frames per 1e6 s */
	unsigned int max_burst;
	uint64_t limit;		/* total frames to send; 0 = no limit */
	uint64_t sent;
	uint64_t last_ns;	/* time of the last pace_sent with frames */
	unsigned int largest_burst;
	uint64_t max_backlog;	/* most frames due but unsent at a pace_due */
};

struct pace_stats {
	uint64_t sent;
	unsigned int largest_burst;
	uint64_t max_backlog;
	double achieved_pps;	/* sent / (last send - start); 0 before any */
};

/* Set up pacing at rate_pps from start_ns with batches of at most
 * max_burst frames; limit > 0 stops after that many frames in all.
 * -EINVAL (with a reason) for a rate outside PACE_RATE_MIN..MAX or a zero
 * burst. */
int pace_init(struct pace *p, double rate_pps, uint64_t start_ns,
	      unsigned int max_burst, uint64_t limit, char *err, size_t errlen);

/* Frames that should have been sent by now_ns, in all (not capped). */
uint64_t pace_due_total(const struct pace *p, uint64_t now_ns);

/* How many frames to send now: due minus sent, at most max_burst, 0 before
 * the first is due or after the limit. Also records the backlog. */
unsigned int pace_due(struct pace *p, uint64_t now_ns);

/* Record that n frames went out at now_ns (n may be less than pace_due
 * said, e.g. a full ring; the rest stays due). */
void pace_sent(struct pace *p, unsigned int n, uint64_t now_ns);

/* Take back the last n frames recorded as sent (they never left: the
 * port took them back). The achieved rate is then of what did leave. */
void pace_unsend(struct pace *p, uint64_t n);

/* When the next unsent frame is due, so the caller can sleep or spin until
 * then; UINT64_MAX after the limit. */
uint64_t pace_next_ns(const struct pace *p);

/* What was offered so far. */
void pace_stats(const struct pace *p, struct pace_stats *out);

#endif
