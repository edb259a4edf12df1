/* Per-stream sequence tracking: received, lost, reordered, duplicated and
 * late frames, in fixed memory (one struct per stream, no allocation).
 *
 * Sequence numbers are 48 bits on the wire and wrap at 2^48. The tracker
 * unwraps them against the highest number seen so far (a frame is taken to
 * be within +-2^47 of it), counting from the generator's first sequence
 * number, so internally every frame has a 64-bit index 0, 1, 2... that
 * never wraps.
 *
 * The definitions follow RFC 4737 loosely. "Next" is the index after the
 * highest one seen (RFC 4737's NextExp). Each frame handed to
 * seqtrack_add falls in exactly one class:
 *   in order   index >= next: a new highest (any gap is not loss yet; its
 *              frames may still arrive).
 *   reordered  index < next (lower than one already seen), within the
 *              window, and not seen before (RFC 4737 section 3.3).
 *   duplicate  index seen before, within the window. A duplicate is not
 *              also counted as reordered.
 *   late       index < next - SEQTRACK_WINDOW (or before the first
 *              number): too old to tell a reordered frame from a duplicate,
 *              so it is counted apart and not as distinct.
 *   foreign    index >= the caller's bound (what the generator has sent so
 *              far, plus slack): not a frame of this stream, whatever its
 *              tag says. Without the bound, one frame carrying next + 2^47
 *              would move next there, every real frame after it would be
 *              late, and some 1.4e14 frames would be reported lost. A
 *              foreign frame moves nothing and is not received.
 * distinct = in order + reordered: the frames that count as delivered.
 * lost = expected - distinct, where expected is the larger of next
 * (highest seen + 1) and the number the generator says it sent; during a
 * trial pass sent = 0 for a running estimate, at the end the real count so
 * that frames lost after the last one received are counted. Late frames
 * therefore count as lost: an analyzer that wants otherwise has the late
 * counter to subtract.
 */
#ifndef WR_CORE_SEQTRACK_H
#define WR_CORE_SEQTRACK_H

#include <stdbool.h>
#include <stdint.h>

#define SEQTRACK_WINDOW	65536	/* indexes remembered behind next */
#define SEQTRACK_SEQ_BITS 48
#define SEQTRACK_NO_BOUND UINT64_MAX	/* seqtrack_add: any index is plausible */

struct seqtrack {
	uint64_t first;		/* generator's first sequence number (48 bits) */
	uint64_t next;		/* highest index seen + 1; 0 before any frame */
	uint64_t received;	/* every frame handed in but the foreign ones */
	uint64_t distinct;
	uint64_t reordered;
	uint64_t duplicate;
	uint64_t late;
	uint64_t foreign;	/* at or beyond the bound: not counted as received */
	uint64_t max_extent;	/* largest next - 1 - index of a reordered frame */
	uint64_t bits[SEQTRACK_WINDOW / 64];	/* index % WINDOW seen */
};

struct seqtrack_stats {
	uint64_t received;
	uint64_t distinct;
	uint64_t lost;
	uint64_t reordered;
	uint64_t duplicate;
	uint64_t late;
	uint64_t foreign;
	uint64_t max_extent;
	uint64_t highest;	/* highest index seen (0-based from first) */
};

/* Start a stream whose generator numbers its frames from first (usually
 * 0), so loss counts from there and not from the first frame to arrive. */
void seqtrack_init(struct seqtrack *t, uint64_t first);

/* Account one received frame with the 48-bit sequence number from its
 * tag. bound: indexes at or beyond it cannot have been sent yet (the
 * generator's count so far plus slack, or SEQTRACK_NO_BOUND). Returns
 * false for such a foreign frame, which only the foreign counter sees.
 * O(1) amortized: a jump ahead clears at most the window once. */
bool seqtrack_add(struct seqtrack *t, uint64_t seq48, uint64_t bound);

/* The index seq48 would take if it is ahead of every frame seen so far
 * (>= next), else 0: for a caller that refreshes its bound only when a
 * frame reaches it. */
uint64_t seqtrack_ahead(const struct seqtrack *t, uint64_t seq48);

/* Frames lost; sent is the generator's count (0 during the trial). */
uint64_t seqtrack_lost(const struct seqtrack *t, uint64_t sent);

/* All counters at once, with lost computed for sent as above. */
void seqtrack_stats(const struct seqtrack *t, uint64_t sent, struct seqtrack_stats *out);

#endif
