#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"

static uint64_t rng_state = 0xD1B54A32D192ED03ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static double unif(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* 17.5 KiB each: static, not on the stack. */
static struct hist H, H2, H3;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void buckets(void **st)
{
	uint64_t lo, hi, plo = 0, phi = 0;
	unsigned int prev = 0;

	assert_int_equal(hist_bucket(0), 0);
	assert_int_equal(hist_bucket(127), 127);
	assert_int_equal(hist_bucket(HIST_MAX_NS), HIST_BUCKETS - 1);
	assert_int_equal(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1);
	/* Buckets tile [0, HIST_MAX_NS] in order, without gaps. */
	for (unsigned int i = 0; i < HIST_BUCKETS; i++) {
		hist_bucket_range(i, &lo, &hi);
		if (i)
			assert_int_equal(lo, phi + 1);
		assert_true(hi >= lo);
		assert_int_equal(hist_bucket(lo), i);
		assert_int_equal(hist_bucket(hi), i);
		/* Width at most 1/64 of the smallest value it holds. */
		assert_true((hi - lo + 1) * 64 <= (lo ? lo : 1) || hi == lo);
		plo = lo;
		phi = hi;
	}
	assert_int_equal(phi, HIST_MAX_NS);
	(void)plo;
	for (int k = 0; k < 100000; k++) {
		uint64_t v = rnd() >> (rnd() % 64);
		unsigned int b = hist_bucket(v);

		assert_true(b < HIST_BUCKETS);
		if (v <= HIST_MAX_NS) {
			hist_bucket_range(b, &lo, &hi);
			assert_true(lo <= v && v <= hi);
		}
	}
	for (uint64_t v = 0; v < (1 << 20); v++) {
		unsigned int b = hist_bucket(v);

		assert_true(b == prev || b == prev + 1);
		prev = b;
	}
}

static void small_exact(void **st)
{
	hist_reset(&H);
	assert_int_equal(hist_quantile(&H, 0.5), 0);
	assert_int_equal(hist_min(&H), 0);
	assert_int_equal(hist_max(&H), 0);
	assert_true(hist_mean(&H) == 0);
	for (uint64_t v = 100; v >= 1; v--)
		hist_add(&H, v);
	assert_int_equal(H.count, 100);
	assert_int_equal(hist_min(&H), 1);
	assert_int_equal(hist_max(&H), 100);
	assert_int_equal(hist_quantile(&H, 0.5), 50);
	assert_int_equal(hist_quantile(&H, 0.99), 99);
	assert_int_equal(hist_quantile(&H, 0.999), 100);
	assert_int_equal(hist_quantile(&H, 0), 1);
	assert_int_equal(hist_quantile(&H, 1), 100);
	assert_int_equal(hist_quantile(&H, -3), 1);
	assert_int_equal(hist_quantile(&H, 7), 100);
	assert_int_equal(hist_quantile(&H, NAN), 1);
	assert_int_equal(hist_quantile(&H, 0.001), 1);
	assert_int_equal(hist_quantile(&H, 0.011), 2);
	assert_true(hist_mean(&H) == 50.5);
	hist_reset(&H);
	assert_int_equal(H.count, 0);
	assert_int_equal(hist_quantile(&H, 0.99), 0);
}

/* Percentiles against a sorted array of the same values. */
static void check_dist(uint64_t *v, size_t n)
{
	static const double qs[] = { 0, 1e-4, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75,
				     0.9, 0.99, 0.999, 0.9999, 0.99999, 1 };
	long double sum = 0;

	hist_reset(&H);
	for (size_t i = 0; i < n; i++) {
		hist_add(&H, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(v[0]), cmp_u64);
	assert_int_equal(hist_min(&H), v[0]);
	assert_int_equal(hist_max(&H), v[n - 1]);
	assert_true(fabs(hist_mean(&H) - (double)(sum / n)) <= 1e-9 * (double)(sum / n));
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t rank = (size_t)ceil(qs[i] * (double)n);
		uint64_t want = v[rank ? rank - 1 : 0], got = hist_quantile(&H, qs[i]);
		uint64_t d = got > want ? got - want : want - got;

		/* At most 1/128 of the true value (under the stated 1%). */
		if (d * 128 > want)
			fail_msg("q=%g want %llu got %llu", qs[i], (unsigned long long)want,
				 (unsigned long long)got);
	}
	/* Any q, not just the usual ones. */
	for (int k = 0; k < 2000; k++) {
		double q = unif();
		size_t rank = (size_t)ceil(q * (double)n);
		uint64_t want = v[rank ? rank - 1 : 0], got = hist_quantile(&H, q);
		uint64_t d = got > want ? got - want : want - got;

		assert_true(d * 128 <= want);
	}
}

static void random_dists(void **st)
{
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof(*v));

	for (size_t i = 0; i < N; i++)	/* uniform 0 .. 10 ms */
		v[i] = rnd() % 10000000;
	check_dist(v, N);
	for (size_t i = 0; i < N; i++)	/* log-uniform 1 ns .. 100 s */
		v[i] = (uint64_t)exp(unif() * log(1e11));
	check_dist(v, N);
	for (size_t i = 0; i < N; i++)	/* exponential around 20 us, 1% tail at 5 ms */
		v[i] = (uint64_t)(-log(1 - unif()) * (rnd() % 100 ? 20000 : 5e6)) + 3000;
	check_dist(v, N);
	for (size_t i = 0; i < N; i++)	/* few distinct values, small */
		v[i] = 50 + rnd() % 7;
	check_dist(v, N);
	for (size_t i = 0; i < 1001; i++)	/* small n, odd */
		v[i] = rnd() % 1000000000;
	check_dist(v, 1001);
	v[0] = 123456789;
	check_dist(v, 1);
	free(v);
}

static void merge_reset(void **st)
{
	hist_reset(&H);
	hist_reset(&H2);
	hist_reset(&H3);
	hist_merge(&H3, &H2);	/* empty into empty */
	assert_int_equal(H3.count, 0);
	assert_int_equal(hist_min(&H3), 0);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rnd() >> (20 + rnd() % 44);

		hist_add(&H, v);
		hist_add(i & 1 ? &H2 : &H3, v);
	}
	hist_merge(&H2, &H3);
	assert_memory_equal(&H, &H2, sizeof(H));
	hist_reset(&H3);
	hist_merge(&H3, &H);
	assert_memory_equal(&H, &H3, sizeof(H));
	hist_reset(&H);
	assert_int_equal(H.count, 0);
	for (unsigned int i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(H.b[i], 0);
}

static void big_values(void **st)
{
	hist_reset(&H);
	hist_add(&H, 1000);
	hist_add(&H, HIST_MAX_NS + 5);
	hist_add(&H, UINT64_MAX);
	assert_int_equal(H.clamped, 2);
	assert_int_equal(hist_max(&H), UINT64_MAX);
	assert_int_equal(hist_quantile(&H, 1), UINT64_MAX);
	assert_true(hist_quantile(&H, 0.1) - 1000 <= 1000 / 128);
	/* The 128-bit sum keeps the mean exact past 2^64. */
	assert_true(fabs(hist_mean(&H) - (1000.0 + (double)(HIST_MAX_NS + 5) + 18446744073709551615.0) / 3) < 1e4);
	hist_reset(&H);
	hist_add_n(&H, 1ULL << 40, 1ULL << 40);
	assert_int_equal(H.sum_hi, 1ULL << 16);
	assert_int_equal(H.sum_lo, 0);
	assert_true(hist_mean(&H) == (double)(1ULL << 40));
	/* Merging carries into the high word of the sum. */
	hist_reset(&H);
	hist_reset(&H2);
	hist_add(&H, 1ULL << 63);
	hist_add(&H2, 1ULL << 63);
	hist_add(&H2, 6);
	hist_merge(&H, &H2);
	assert_int_equal(H.sum_hi, 1);
	assert_int_equal(H.sum_lo, 6);
	assert_true(hist_mean(&H) == (18446744073709551616.0 + 6) / 3);
	/* add_n is n adds. */
	hist_reset(&H);
	hist_reset(&H2);
	for (int i = 0; i < 1000; i++) {
		uint64_t v = rnd() >> (rnd() % 64), n = 1 + rnd() % 5;

		hist_add_n(&H, v, n);
		for (uint64_t k = 0; k < n; k++)
			hist_add(&H2, v);
	}
	hist_add_n(&H, 5, 0);
	assert_memory_equal(&H, &H2, sizeof(H));
}

/* Pre-binned counts (the XDP analyzer's) give the same quantiles as the
 * values added one by one, and the exact min, max and mean given. */
static void prebinned(void **state)
{
	static struct hist a, b;
	uint64_t x = 88172645463325252ULL, sum = 0, mn = UINT64_MAX, mx = 0;

	(void)state;
	hist_reset(&a);
	hist_reset(&b);
	for (int i = 0; i < 100000; i++) {
		uint64_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = 1000 + x % 4000000;		/* 1 us .. 4 ms */
		hist_add(&a, v);
		hist_add_bucket(&b, hist_bucket(v), 1);
		sum += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
	}
	hist_set_exact(&b, mn, mx, sum);
	assert_int_equal(b.count, a.count);
	for (double q = 0; q <= 1.0; q += 0.125)
		assert_int_equal(hist_quantile(&b, q), hist_quantile(&a, q));
	assert_int_equal(hist_min(&b), hist_min(&a));
	assert_int_equal(hist_max(&b), hist_max(&a));
	assert_true(hist_mean(&b) == hist_mean(&a));
	/* out of range bucket indexes are ignored */
	hist_add_bucket(&b, HIST_BUCKETS, 5);
	assert_int_equal(b.count, a.count);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),	cmocka_unit_test(small_exact),
		cmocka_unit_test(random_dists), cmocka_unit_test(merge_reset),
		cmocka_unit_test(big_values),	cmocka_unit_test(prebinned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
