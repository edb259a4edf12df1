#include "core/seqtrack.h"

#include <string.h>

#define SEQ_MOD		(1ULL << SEQTRACK_SEQ_BITS)
#define SEQ_MASK	(SEQ_MOD - 1)
#define SEQ_HALF	(SEQ_MOD >> 1)
#define WIN_MASK	(SEQTRACK_WINDOW - 1)

void seqtrack_init(struct seqtrack *t, uint64_t first)
{
	memset(t, 0, sizeof(*t));
	t->first = first & SEQ_MASK;
}

static inline void bit_set(struct seqtrack *t, uint64_t idx)
{
	idx &= WIN_MASK;
	t->bits[idx / 64] |= 1ULL << (idx % 64);
}

static inline int bit_test(const struct seqtrack *t, uint64_t idx)
{
	idx &= WIN_MASK;
	return (t->bits[idx / 64] >> (idx % 64)) & 1;
}

/* Forget the slots that indexes [from, to) now take over from indexes one
 * window older. Whole words are cleared in one store. */
static void clear_range(struct seqtrack *t, uint64_t from, uint64_t to)
{
	if (to - from >= SEQTRACK_WINDOW) {
		memset(t->bits, 0, sizeof(t->bits));
		return;
	}
	while (from < to && from % 64) {
		t->bits[(from & WIN_MASK) / 64] &= ~(1ULL << (from % 64));
		from++;
	}
	while (to - from >= 64) {
		t->bits[(from & WIN_MASK) / 64] = 0;
		from += 64;
	}
	for (; from < to; from++)
		t->bits[(from & WIN_MASK) / 64] &= ~(1ULL << (from % 64));
}

uint64_t seqtrack_ahead(const struct seqtrack *t, uint64_t seq48)
{
	uint64_t d = (seq48 - t->first - t->next) & SEQ_MASK;

	return d < SEQ_HALF ? t->next + d : 0;
}

bool seqtrack_add(struct seqtrack *t, uint64_t seq48, uint64_t bound)
{
	uint64_t d, idx;

	/* Distance from next, as a signed 48-bit number. */
	d = (seq48 - t->first - t->next) & SEQ_MASK;
	if (d < SEQ_HALF) {
		idx = t->next + d;
		if (idx >= bound) {
			t->foreign++;
			return false;
		}
		t->received++;
		clear_range(t, t->next, idx + 1);
		bit_set(t, idx);
		t->next = idx + 1;
		t->distinct++;
		return true;
	}
	t->received++;
	d = SEQ_MOD - d;	/* how far behind next, >= 1 */
	if (d > t->next || d > SEQTRACK_WINDOW) {
		t->late++;
		return true;
	}
	idx = t->next - d;
	if (bit_test(t, idx)) {
		t->duplicate++;
		return true;
	}
	bit_set(t, idx);
	t->distinct++;
	t->reordered++;
	if (d - 1 > t->max_extent)
		t->max_extent = d - 1;
	return true;
}

uint64_t seqtrack_lost(const struct seqtrack *t, uint64_t sent)
{
	uint64_t expected = sent > t->next ? sent : t->next;

	return expected - t->distinct;
}

void seqtrack_stats(const struct seqtrack *t, uint64_t sent, struct seqtrack_stats *out)
{
	out->received = t->received;
	out->distinct = t->distinct;
	out->lost = seqtrack_lost(t, sent);
	out->reordered = t->reordered;
	out->duplicate = t->duplicate;
	out->late = t->late;
	out->foreign = t->foreign;
	out->max_extent = t->max_extent;
	out->highest = t->next ? t->next - 1 : 0;
}
