#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "core/units.h"

static char err[256];

static void rate_forms(void **st)
{
	struct rate r;

	assert_int_equal(units_rate_parse("100kpps", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RATE_PPS);
	assert_true(r.value == 100000.0);
	assert_int_equal(units_rate_parse("1.5Mpps", &r, err, sizeof(err)), 0);
	assert_true(r.value == 1500000.0);
	assert_int_equal(units_rate_parse("250000", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RATE_PPS);
	assert_int_equal(units_rate_parse("20k", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RATE_PPS);
	assert_true(r.value == 20000.0);
	assert_int_equal(units_rate_parse("1Gbit", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RATE_BPS);
	assert_true(r.value == 1e9);
	assert_int_equal(units_rate_parse("100mbps", &r, err, sizeof(err)), 0);
	assert_true(r.value == 1e8);
	assert_int_equal(units_rate_parse("40%", &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, RATE_PCT);
	assert_true(r.value == 40.0);
}

static void rate_bad(void **st)
{
	struct rate r;
	const char *bad[] = { "", "0", "-5kpps", "abc", "10 kpps", "nan", "inf",
			      "1e400", "0x10", "101%", "0%", "5furlongs", " 5" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_true(units_rate_parse(bad[i], &r, err, sizeof(err)) < 0);
		assert_true(strlen(err) > 10);
		assert_null(strchr(err, '\n'));
	}
	assert_true(units_rate_parse(NULL, &r, err, sizeof(err)) < 0);
}

static void rate_print(void **st)
{
	char buf[64];
	struct rate r = { RATE_PPS, 1488095 };

	units_rate_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "1.48809 Mpps");
	r = (struct rate){ RATE_BPS, 1e9 };
	units_rate_format(&r, buf, sizeof(buf));
	assert_string_equal(buf, "1 Gbit/s");
}

static void ints(void **st)
{
	uint64_t v;

	assert_int_equal(units_u64_parse("1000", 0, 65535, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1000);
	/* Decimal only: a leading zero is not octal, and no hex. */
	assert_int_equal(units_u64_parse("010", 0, 65535, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 10);
	assert_int_equal(units_u64_parse("0", 0, 65535, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 0);
	for (const char *const *b = (const char *const[]){ "0x10", "0X10", "+1", " 1", "1 ", "1e3", "1.0",
							   "0b1", "\t1", NULL }; *b; b++) {
		err[0] = 0;
		assert_int_equal(units_u64_parse(*b, 0, 65535, &v, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "decimal"));
	}
	assert_int_equal(units_u64_parse("65536", 0, 65535, &v, err, sizeof(err)), -ERANGE);
	assert_int_equal(units_u64_parse("-1", 0, 65535, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_u64_parse("1x", 0, 65535, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_u64_parse("", 0, 65535, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_u64_parse("18446744073709551616", 0, UINT64_MAX, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_u64_parse("18446744073709551615", 0, UINT64_MAX, &v, err, sizeof(err)), 0);
	assert_true(v == UINT64_MAX);
}

static void sizes(void **st)
{
	uint64_t v;

	assert_int_equal(units_size_parse("64", 64, 9018, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 64);
	assert_int_equal(units_size_parse("8k", 64, 9018, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 8192);
	assert_int_equal(units_size_parse("1MiB", 0, UINT64_MAX, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 1048576);
	assert_int_equal(units_size_parse("63", 64, 9018, &v, err, sizeof(err)), -ERANGE);
	assert_int_equal(units_size_parse("64.5", 64, 9018, &v, err, sizeof(err)), -EINVAL);
	assert_int_equal(units_size_parse("big", 64, 9018, &v, err, sizeof(err)), -EINVAL);
}

static void durations(void **st)
{
	uint64_t ns;

	assert_int_equal(units_duration_parse("10s", 1, UINT64_MAX, &ns, err, sizeof(err)), 0);
	assert_true(ns == 10000000000ULL);
	assert_int_equal(units_duration_parse("500ms", 1, UINT64_MAX, &ns, err, sizeof(err)), 0);
	assert_true(ns == 500000000ULL);
	assert_int_equal(units_duration_parse("2m", 1, UINT64_MAX, &ns, err, sizeof(err)), 0);
	assert_true(ns == 120000000000ULL);
	assert_int_equal(units_duration_parse("1.5", 1, UINT64_MAX, &ns, err, sizeof(err)), 0);
	assert_true(ns == 1500000000ULL);
	assert_int_equal(units_duration_parse("0", 1, UINT64_MAX, &ns, err, sizeof(err)), -ERANGE);
	assert_int_equal(units_duration_parse("5parsecs", 1, UINT64_MAX, &ns, err, sizeof(err)), -EINVAL);
}

static void line_rate(void **st)
{
	/* RFC 2544 / DESIGN: 64 B at 1 Gb/s = 1,488,095 pps. */
	assert_int_equal((long)units_linerate_pps(1000000000ULL, 64), 1488095);
	assert_int_equal((long)units_linerate_pps(1000000000ULL, 1518), 81274);
	assert_int_equal((long)units_linerate_pps(10000000000ULL, 64), 14880952);
}

/* Ratios as a fraction or a percentage, in [0, 1). */
static void ratios(void **st)
{
	double r;

	assert_int_equal(units_ratio_parse("0.5%", &r), 0);
	assert_float_equal(r, 0.005, 1e-12);
	assert_int_equal(units_ratio_parse("0.25", &r), 0);
	assert_float_equal(r, 0.25, 1e-12);
	r = -1;
	assert_int_equal(units_ratio_parse("0", &r), 0);
	assert_true(r == 0);
	assert_int_equal(units_ratio_parse("0.005", &r), 0);
	assert_float_equal(r, 0.005, 1e-12);
	assert_int_equal(units_ratio_parse("99.9%", &r), 0);
	assert_float_equal(r, 0.999, 1e-12);
}

/* 1 and above, or below 0: -ERANGE, and the result left alone. */
static void ratio_range(void **st)
{
	double r = 0.5;

	assert_int_equal(units_ratio_parse("1", &r), -ERANGE);
	assert_int_equal(units_ratio_parse("100%", &r), -ERANGE);
	assert_int_equal(units_ratio_parse("1.5", &r), -ERANGE);
	assert_int_equal(units_ratio_parse("-0.1", &r), -ERANGE);
	assert_int_equal(units_ratio_parse("-1%", &r), -ERANGE);
	assert_true(r == 0.5);
}

/* Not a number, trailing junk, NaN and infinity: -EINVAL. */
static void ratio_bad(void **st)
{
	double r = 0.5;

	assert_int_equal(units_ratio_parse("abc", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("0.5x", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("0.5%x", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("0.5%%", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("%", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("nan", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("inf", &r), -EINVAL);
	assert_int_equal(units_ratio_parse("-inf", &r), -EINVAL);
	assert_true(r == 0.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_forms), cmocka_unit_test(rate_bad),
		cmocka_unit_test(rate_print), cmocka_unit_test(ints),
		cmocka_unit_test(sizes),      cmocka_unit_test(durations),
		cmocka_unit_test(line_rate),  cmocka_unit_test(ratios),
		cmocka_unit_test(ratio_range), cmocka_unit_test(ratio_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
