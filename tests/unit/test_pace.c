#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/pace.h"

#define SEC 1000000000ULL

static char err[256];
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static void init_bad(void **st)
{
	struct pace p;
	const double bad[] = { 0, -1, NAN, INFINITY, 1e-4, 2e9 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(pace_init(&p, bad[i], 0, 32, 0, err, sizeof(err)), -EINVAL);
		assert_true(strlen(err) > 10);
	}
	assert_int_equal(pace_init(&p, 1000, 0, 0, 0, err, sizeof(err)), -EINVAL);
	assert_int_equal(pace_init(&p, 1000, 0, 1, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_init(&p, 1e9, 0, 1, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_init(&p, 1e-3, 0, 1, 0, err, sizeof(err)), 0);
}

/* One simulated hour at an integer rate with irregular clock reads: after
 * every read the caller drains what is due (in capped batches) and the
 * count must equal floor(elapsed * rate / 1e9) exactly; never a batch above
 * the cap. maxstep is the longest gap between clock reads. */
static void hour(uint64_t rate, uint64_t maxstep, unsigned int cap)
{
	uint64_t start = 123456789012345ULL, now = start, end = start + 3600 * SEC;
	unsigned int largest = 0;
	struct pace_stats s;
	struct pace p;
	int reads = 0;

	assert_int_equal(pace_init(&p, (double)rate, start, cap, 0, err, sizeof(err)), 0);
	while (now < end) {
		unsigned int n;

		/* Mostly short gaps, sometimes a stall of up to 20 steps. */
		now += rnd() % (rnd() % 64 ? maxstep : 20 * maxstep);
		if (now > end)
			now = end;
		while ((n = pace_due(&p, now))) {
			assert_true(n <= cap);
			if (n > largest)
				largest = n;
			pace_sent(&p, n, now);
		}
		/* Independent: fits 64 bits for an hour at these rates. */
		assert_int_equal(p.sent, (now - start) * rate / SEC);
		if (++reads % 1024 == 0) {
			uint64_t nx = pace_next_ns(&p);

			assert_true(nx > now);
			assert_int_equal(pace_due_total(&p, nx), p.sent + 1);
			assert_int_equal(pace_due_total(&p, nx - 1), p.sent);
		}
	}
	pace_stats(&p, &s);
	assert_int_equal(s.sent, 3600 * rate);
	assert_int_equal(s.largest_burst, largest);
	assert_true(s.largest_burst <= cap);
	assert_true(fabs(s.achieved_pps - (double)rate) <= 1e-9 * (double)rate ||
		    /* the last batch may have been sent before the end */
		    s.achieved_pps >= (double)rate);
}

static void hour_1pps(void **st)
{
	hour(1, 3 * SEC, 4);
}

static void hour_1kpps(void **st)
{
	hour(1000, 5000000, 16);
}

static void hour_1488kpps(void **st)
{
	hour(1488100, 2000000, 256);
}

/* A rate that is not a whole number of frames per second: line rate for
 * 64-byte frames at 1 Gb/s, 1488095.238... pps. */
static void hour_linerate(void **st)
{
	double rate = 1e9 / (84 * 8);
	uint64_t start = 5 * SEC, now = start;
	struct pace p;

	assert_int_equal(pace_init(&p, rate, start, 1u << 22, 0, err, sizeof(err)), 0);
	for (int i = 0; i < 3600; i++) {
		now += SEC - 1 - rnd() % 100000;	/* stays short of the hour */
		pace_sent(&p, pace_due(&p, now), now);
		assert_true(fabs((double)p.sent - floor((double)(now - start) * rate / 1e9)) <= 1);
	}
	now = start + 3600 * SEC;
	pace_sent(&p, pace_due(&p, now), now);
	/* 3600 * 1488095.238095... = 5357142857.14 */
	assert_int_equal(p.sent, 5357142857ULL);
}

/* Waking exactly when the next frame is due gives batches of 1. */
static void low_rate_batches_of_one(void **st)
{
	struct pace_stats s;
	struct pace p;
	uint64_t now = 0;

	assert_int_equal(pace_init(&p, 1000, 0, 64, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_due(&p, 0), 0);
	assert_int_equal(pace_next_ns(&p), 1000000);
	assert_int_equal(pace_due(&p, 999999), 0);
	for (int i = 0; i < 100000; i++) {
		now = pace_next_ns(&p);
		assert_int_equal(pace_due(&p, now - 1), 0);
		assert_int_equal(pace_due(&p, now), 1);
		pace_sent(&p, 1, now);
	}
	pace_stats(&p, &s);
	assert_int_equal(s.largest_burst, 1);
	assert_int_equal(s.max_backlog, 1);
	assert_int_equal(now, 100 * SEC);
	assert_true(s.achieved_pps == 1000.0);
	/* Non-integer period: 3 pps, frames at ceil(k * 1e9 / 3). */
	assert_int_equal(pace_init(&p, 3, 10, 64, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_next_ns(&p), 10 + 333333334);
	pace_sent(&p, 1, 0);
	assert_int_equal(pace_next_ns(&p), 10 + 666666667);
	pace_sent(&p, 1, 0);
	assert_int_equal(pace_next_ns(&p), 10 + SEC);
}

/* A stall: catching up never exceeds the cap, and the backlog and largest
 * burst are recorded. Sending fewer than due keeps the rest due. */
static void burst_cap(void **st)
{
	struct pace_stats s;
	struct pace p;
	uint64_t now = SEC;
	unsigned int n, batches = 0;

	assert_int_equal(pace_init(&p, 1488100, SEC, 32, 0, err, sizeof(err)), 0);
	now += 10000000;	/* 10 ms: 14881 frames due */
	while ((n = pace_due(&p, now))) {
		assert_true(n <= 32);
		pace_sent(&p, n, now);
		batches++;
	}
	assert_int_equal(p.sent, 14881);
	assert_int_equal(batches, (14881 + 31) / 32);
	pace_stats(&p, &s);
	assert_int_equal(s.largest_burst, 32);
	assert_int_equal(s.max_backlog, 14881);
	/* A partial send. */
	now += 10000;		/* 14.881 more */
	n = pace_due(&p, now);
	assert_int_equal(n, 14);
	pace_sent(&p, 4, now);
	assert_int_equal(pace_due(&p, now), 10);
	pace_sent(&p, 0, now + 5);
	assert_int_equal(p.last_ns, now);
	/* Before the start nothing is due. */
	assert_int_equal(pace_init(&p, 1e6, 5 * SEC, 32, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_due(&p, 0), 0);
	assert_int_equal(pace_due(&p, 5 * SEC), 0);
	pace_stats(&p, &s);
	assert_true(s.achieved_pps == 0);
}

static void limit(void **st)
{
	struct pace p;
	unsigned int n;

	assert_int_equal(pace_init(&p, 1e6, 0, 64, 1000, err, sizeof(err)), 0);
	while ((n = pace_due(&p, 2 * SEC)))
		pace_sent(&p, n, 2 * SEC);
	assert_int_equal(p.sent, 1000);
	assert_int_equal(pace_next_ns(&p), UINT64_MAX);
	assert_int_equal(pace_due(&p, 100 * SEC), 0);
	/* Far in the future the totals saturate instead of wrapping. */
	assert_int_equal(pace_init(&p, 1e9, 0, 64, 0, err, sizeof(err)), 0);
	assert_int_equal(pace_due_total(&p, UINT64_MAX), UINT64_MAX);
	assert_int_equal(pace_due(&p, UINT64_MAX), 64);
}

/* Frames taken back (never left the port) are not sent: the count and
 * the achieved rate are of what did leave; never below zero. */
static void unsend(void **st)
{
	struct pace p;
	struct pace_stats ps;
	char why[128];
	(void)st;

	assert_int_equal(pace_init(&p, 1000, 0, 64, 0, why, sizeof(why)), 0);
	pace_sent(&p, 64, 100000000ULL);
	pace_sent(&p, 36, 100000000ULL);
	pace_unsend(&p, 40);
	pace_stats(&p, &ps);
	assert_int_equal(ps.sent, 60);
	assert_true(ps.achieved_pps > 599.9 && ps.achieved_pps < 600.1);
	/* what is due again: the 40 are owed */
	assert_int_equal(pace_due(&p, 100000000ULL), 40);
	pace_unsend(&p, 1000);
	pace_stats(&p, &ps);
	assert_int_equal(ps.sent, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_bad),
		cmocka_unit_test(hour_1pps),
		cmocka_unit_test(hour_1kpps),
		cmocka_unit_test(hour_1488kpps),
		cmocka_unit_test(hour_linerate),
		cmocka_unit_test(low_rate_batches_of_one),
		cmocka_unit_test(burst_cap),
		cmocka_unit_test(limit),
		cmocka_unit_test(unsend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
