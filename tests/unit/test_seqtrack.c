#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/seqtrack.h"

#define MOD48 (1ULL << 48)

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* 8 KiB of bitmap: keep it off the stack of every test. */
static struct seqtrack T;

static void in_order(void **st)
{
	struct seqtrack_stats s;

	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 300000; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_stats(&T, 0, &s);
	assert_int_equal(s.received, 300000);
	assert_int_equal(s.distinct, 300000);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.reordered, 0);
	assert_int_equal(s.duplicate, 0);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.highest, 299999);
	/* The generator sent 5 more that never came. */
	assert_int_equal(seqtrack_lost(&T, 300005), 5);
	/* Empty stream: everything sent is lost. */
	seqtrack_init(&T, 0);
	assert_int_equal(seqtrack_lost(&T, 0), 0);
	assert_int_equal(seqtrack_lost(&T, 42), 42);
}

static void loss(void **st)
{
	seqtrack_init(&T, 1000);
	for (uint64_t i = 0; i < 100000; i++)
		if (i % 10 != 3)
			seqtrack_add(&T, 1000 + i, SEQTRACK_NO_BOUND);
	assert_int_equal(T.distinct, 90000);
	assert_int_equal(seqtrack_lost(&T, 0), 10000);
	assert_int_equal(seqtrack_lost(&T, 100000), 10000);
	assert_int_equal(seqtrack_lost(&T, 100100), 10100);
	assert_int_equal(T.reordered, 0);
	/* Loss at the very start counts from the generator's first number. */
	seqtrack_init(&T, 0);
	seqtrack_add(&T, 5, SEQTRACK_NO_BOUND);
	assert_int_equal(seqtrack_lost(&T, 0), 5);
	/* A lost frame that turns up later is reordered, not lost. */
	seqtrack_add(&T, 2, SEQTRACK_NO_BOUND);
	assert_int_equal(seqtrack_lost(&T, 0), 4);
	assert_int_equal(T.reordered, 1);
	assert_int_equal(T.max_extent, 3);
}

static void reorder_and_dup(void **st)
{
	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 10000; i += 2) {
		seqtrack_add(&T, i + 1, SEQTRACK_NO_BOUND);
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	}
	assert_int_equal(T.reordered, 5000);
	assert_int_equal(T.distinct, 10000);
	assert_int_equal(seqtrack_lost(&T, 10000), 0);
	assert_int_equal(T.max_extent, 1);

	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 10000; i++) {
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	}
	assert_int_equal(T.duplicate, 10000);
	assert_int_equal(T.reordered, 0);
	assert_int_equal(T.distinct, 10000);
	assert_int_equal(T.received, 20000);
	assert_int_equal(seqtrack_lost(&T, 10000), 0);

	/* A duplicate of a reordered frame is a duplicate only. */
	seqtrack_init(&T, 0);
	seqtrack_add(&T, 0, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 10, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 4, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 4, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 10, SEQTRACK_NO_BOUND);
	assert_int_equal(T.reordered, 1);
	assert_int_equal(T.duplicate, 2);
	assert_int_equal(T.max_extent, 6);
	assert_int_equal(seqtrack_lost(&T, 11), 8);
}

static void window_edges(void **st)
{
	/* Exactly one window behind is still known; one more is late. */
	seqtrack_init(&T, 0);
	for (uint64_t i = 1; i <= SEQTRACK_WINDOW - 1; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 0, SEQTRACK_NO_BOUND);			/* 65536 behind next */
	assert_int_equal(T.reordered, 1);
	assert_int_equal(T.late, 0);
	assert_int_equal(T.max_extent, SEQTRACK_WINDOW - 1);
	seqtrack_add(&T, 0, SEQTRACK_NO_BOUND);
	assert_int_equal(T.duplicate, 1);
	seqtrack_add(&T, SEQTRACK_WINDOW, SEQTRACK_NO_BOUND);	/* next moves on */
	seqtrack_add(&T, 0, SEQTRACK_NO_BOUND);			/* now 65537 behind */
	assert_int_equal(T.late, 1);
	assert_int_equal(T.duplicate, 1);
	seqtrack_add(&T, 1, SEQTRACK_NO_BOUND);
	assert_int_equal(T.duplicate, 2);

	/* A jump ahead forgets stale bits: index 100 + 2W is new even though
	 * 100 was seen and shares its slot. */
	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 1000; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 2 * SEQTRACK_WINDOW + 500, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 2 * SEQTRACK_WINDOW + 100, SEQTRACK_NO_BOUND);
	assert_int_equal(T.reordered, 1);
	assert_int_equal(T.duplicate, 0);
	seqtrack_add(&T, 2 * SEQTRACK_WINDOW + 501, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, SEQTRACK_WINDOW + 600, SEQTRACK_NO_BOUND);	/* in window, never seen */
	assert_int_equal(T.reordered, 2);
	seqtrack_add(&T, 900, SEQTRACK_NO_BOUND);				/* far behind */
	assert_int_equal(T.late, 1);
	/* Jumps by less than a window, word-unaligned, also clear. */
	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < SEQTRACK_WINDOW; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, SEQTRACK_WINDOW + 1000 + 37, SEQTRACK_NO_BOUND);
	for (uint64_t i = SEQTRACK_WINDOW; i < SEQTRACK_WINDOW + 1037; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	assert_int_equal(T.duplicate, 0);
	assert_int_equal(T.reordered, 1037);
	/* Before the generator's first number: not part of this stream. */
	seqtrack_init(&T, 100);
	seqtrack_add(&T, 99, SEQTRACK_NO_BOUND);
	assert_int_equal(T.late, 1);
	assert_int_equal(T.distinct, 0);
	assert_int_equal(seqtrack_lost(&T, 0), 0);
}

static void wrap48(void **st)
{
	uint64_t first = MOD48 - 1000;
	struct seqtrack_stats s;

	seqtrack_init(&T, first);
	for (uint64_t i = 0; i < 5000; i++) {
		if (i == 999)	/* MOD48-1 and 0 swapped across the wrap */
			seqtrack_add(&T, 0, SEQTRACK_NO_BOUND);
		else if (i == 1000)
			seqtrack_add(&T, MOD48 - 1, SEQTRACK_NO_BOUND);
		else
			seqtrack_add(&T, (first + i) % MOD48, SEQTRACK_NO_BOUND);
	}
	seqtrack_stats(&T, 5000, &s);
	assert_int_equal(s.distinct, 5000);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.reordered, 1);
	assert_int_equal(s.duplicate, 0);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.highest, 4999);
	seqtrack_add(&T, MOD48 - 2, SEQTRACK_NO_BOUND);	/* duplicate from before the wrap */
	assert_int_equal(T.duplicate, 1);
	/* Bits above 48 are ignored. */
	seqtrack_add(&T, (1ULL << 50) | 5000, SEQTRACK_NO_BOUND);
	assert_int_equal(T.next, 5001 + 1000);
	/* A stream whose numbers wrap more than once. */
	seqtrack_init(&T, 7);
	T.next = 3 * MOD48 - 10;	/* as if 3 * 2^48 - 10 frames came */
	for (uint64_t i = 0; i < 20; i++)
		seqtrack_add(&T, (7 + 3 * MOD48 - 10 + i) % MOD48, SEQTRACK_NO_BOUND);
	assert_int_equal(T.next, 3 * MOD48 + 10);
	assert_int_equal(T.distinct, 20);
}

/* A reference with a full array of seen flags, against random traffic:
 * loss, reorder within a short distance, duplicates. */
static void random_vs_reference(void **st)
{
	enum { N = 400000 };
	uint8_t *seen = calloc(N + 64, 1);
	uint64_t *order = malloc(sizeof(uint64_t) * 2 * N), n = 0;
	uint64_t next = 0, distinct = 0, reord = 0, dup = 0;

	for (uint64_t i = 0; i < N; i++) {
		if (rnd() % 100 < 2)
			continue;		/* lost */
		order[n++] = i;
		if (rnd() % 100 < 1)
			order[n++] = i;		/* duplicated */
	}
	for (uint64_t i = 0; i + 1 < n; i++) {
		if (rnd() % 100 < 5) {		/* displaced by up to 40 */
			uint64_t j = i + 1 + rnd() % 40, t;

			if (j >= n)
				j = n - 1;
			t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
	}
	seqtrack_init(&T, 12345);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t i = order[k];

		seqtrack_add(&T, 12345 + i, SEQTRACK_NO_BOUND);
		if (seen[i]) {
			dup++;
		} else {
			seen[i] = 1;
			distinct++;
			if (i < next)
				reord++;
			else
				next = i + 1;
		}
	}
	assert_int_equal(T.received, n);
	assert_int_equal(T.distinct, distinct);
	assert_int_equal(T.reordered, reord);
	assert_int_equal(T.duplicate, dup);
	assert_int_equal(T.late, 0);
	assert_int_equal(seqtrack_lost(&T, N), N - distinct);
	assert_true(reord > 1000 && dup > 1000);
	free(seen);
	free(order);
}

/* A forged frame far ahead of what was sent (next + 2^47 - 1, the most
 * the 48-bit unwrap takes as ahead) must not move next: bounded by the
 * generator's count plus slack, it is foreign and every real frame after
 * it still counts. Unbounded, the same frame makes the rest late and
 * about 1.4e14 frames lost: the failure the bound is there for. */
static void forged_far_ahead(void **st)
{
	const uint64_t slack = 256;
	struct seqtrack_stats s;

	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 1000; i++)
		assert_true(seqtrack_add(&T, i, i + 1 + slack));
	assert_false(seqtrack_add(&T, 1000 + (1ULL << 47) - 1, 1000 + slack));
	assert_false(seqtrack_add(&T, 1000 + slack, 1000 + slack));	/* the bound itself */
	assert_int_equal(seqtrack_ahead(&T, 1000 + (1ULL << 47) - 1), 1000 + (1ULL << 47) - 1);
	assert_int_equal(seqtrack_ahead(&T, 999), 0);
	for (uint64_t i = 1000; i < 2000; i++)
		assert_true(seqtrack_add(&T, i, i + 1 + slack));
	seqtrack_stats(&T, 2000, &s);
	assert_int_equal(s.foreign, 2);
	assert_int_equal(s.received, 2000);
	assert_int_equal(s.distinct, 2000);
	assert_int_equal(s.lost, 0);
	assert_int_equal(s.late, 0);
	assert_int_equal(s.reordered, 0);
	assert_int_equal(s.highest, 1999);
	/* Within the slack a frame is taken (it may be in flight). */
	assert_true(seqtrack_add(&T, 2100, 2000 + slack));
	assert_int_equal(T.next, 2101);

	/* The same frames without a bound: the explosion. */
	seqtrack_init(&T, 0);
	for (uint64_t i = 0; i < 1000; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_add(&T, 1000 + (1ULL << 47) - 1, SEQTRACK_NO_BOUND);
	for (uint64_t i = 1000; i < 2000; i++)
		seqtrack_add(&T, i, SEQTRACK_NO_BOUND);
	seqtrack_stats(&T, 2000, &s);
	assert_int_equal(s.late, 1000);
	assert_true(s.lost > (1ULL << 47) - 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order),	   cmocka_unit_test(loss),
		cmocka_unit_test(reorder_and_dup), cmocka_unit_test(window_edges),
		cmocka_unit_test(wrap48),	   cmocka_unit_test(random_vs_reference),
		cmocka_unit_test(forged_far_ahead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
