#include "core/units.h"

#include "core/ns.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct suffix {
	const char *name;
	double mult;
};

/* Split "12.5kpps" into a finite number and the rest. */
static int split_number(const char *s, double *v, const char **rest)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*v))
		return -EINVAL;
	/* strtod accepts "inf", "nan" and hex floats; only plain decimals here. */
	for (const char *p = s; p < end; p++)
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
			return -EINVAL;
	*rest = end;
	return 0;
}

static const struct suffix *find_suffix(const struct suffix *t, const char *s)
{
	for (; t->name; t++)
		if (!strcasecmp(t->name, s))
			return t;
	return NULL;
}

int units_rate_parse(const char *s, struct rate *r, char *err, size_t errlen)
{
	static const struct suffix pps[] = {
		{ "", 1 }, { "pps", 1 }, { "kpps", 1e3 }, { "mpps", 1e6 },
		{ "gpps", 1e9 }, { "k", 1e3 }, { "m", 1e6 }, { "g", 1e9 },
		{ NULL, 0 } };
	static const struct suffix bps[] = {
		{ "bit", 1 }, { "bps", 1 }, { "kbit", 1e3 }, { "kbps", 1e3 },
		{ "mbit", 1e6 }, { "mbps", 1e6 }, { "gbit", 1e9 }, { "gbps", 1e9 },
		{ "tbit", 1e12 }, { "tbps", 1e12 }, { NULL, 0 } };
	const struct suffix *sf;
	const char *rest;
	double v;

	if (split_number(s, &v, &rest))
		goto bad;
	if (!strcmp(rest, "%")) {
		if (v <= 0 || v > 100) {
			snprintf(err, errlen, "rate '%s' out of range: a percentage of line rate must be in (0, 100]", s);
			return -ERANGE;
		}
		r->kind = RATE_PCT;
		r->value = v;
		return 0;
	}
	if ((sf = find_suffix(pps, rest))) {
		r->kind = RATE_PPS;
	} else if ((sf = find_suffix(bps, rest))) {
		r->kind = RATE_BPS;
	} else {
		goto bad;
	}
	r->value = v * sf->mult;
	if (!(r->value > 0) || r->value > 1e13) {
		snprintf(err, errlen, "rate '%s' out of range: must be above 0", s);
		return -ERANGE;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad rate '%s': expected e.g. 100kpps, 1.5Mpps, 1Gbit or 40%%", s ? s : "");
	return -EINVAL;
}

void units_rate_format(const struct rate *r, char *buf, size_t len)
{
	static const char *const pu[] = { "pps", "kpps", "Mpps", "Gpps" };
	static const char *const bu[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	double v = r->value;
	int i = 0;

	switch (r->kind) {
	case RATE_PCT:
		snprintf(buf, len, "%g%% of line rate", v);
		return;
	case RATE_PPS:
		while (v >= 1000 && i < 3) {
			v /= 1000;
			i++;
		}
		snprintf(buf, len, "%g %s", v, pu[i]);
		return;
	case RATE_BPS:
		while (v >= 1000 && i < 4) {
			v /= 1000;
			i++;
		}
		snprintf(buf, len, "%g %s", v, bu[i]);
		return;
	}
}

int units_u64_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t errlen)
{
	unsigned long long v;
	char *end;

	/* Decimal digits only: strtoull would also take a sign, spaces, and
	 * with base 0 read "010" as 8 and "0x10" as 16. */
	if (!s || !*s || s[strspn(s, "0123456789")])
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE)
		goto bad;
	if (v < min || v > max) {
		snprintf(err, errlen, "'%s' out of range: must be %llu..%llu", s,
			 (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a decimal whole number (%llu..%llu)", s ? s : "",
		 (unsigned long long)min, (unsigned long long)max);
	return -EINVAL;
}

int units_size_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       char *err, size_t errlen)
{
	static const struct suffix iec[] = {
		{ "", 1 }, { "b", 1 }, { "k", 1024.0 }, { "kib", 1024.0 },
		{ "m", 1048576.0 }, { "mib", 1048576.0 },
		{ "g", 1073741824.0 }, { "gib", 1073741824.0 }, { NULL, 0 } };
	const struct suffix *sf;
	const char *rest;
	double v;

	if (split_number(s, &v, &rest) || !(sf = find_suffix(iec, rest)) || v < 0)
		goto bad;
	v *= sf->mult;
	if (v != floor(v))
		goto bad;
	if (v < (double)min || v > (double)max) {
		snprintf(err, errlen, "size '%s' out of range: must be %llu..%llu bytes", s,
			 (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = (uint64_t)v;
	return 0;
bad:
	snprintf(err, errlen, "bad size '%s': expected bytes, e.g. 64, 1518 or 9k", s ? s : "");
	return -EINVAL;
}

int units_duration_parse(const char *s, uint64_t min_ns, uint64_t max_ns,
		   uint64_t *ns, char *err, size_t errlen)
{
	static const struct suffix dur[] = {
		{ "", NSEC_PER_SEC }, { "s", NSEC_PER_SEC }, { "ms", NSEC_PER_MSEC }, { "us", NSEC_PER_USEC },
		{ "ns", 1 }, { "m", NSEC_PER_MIN }, { "min", NSEC_PER_MIN }, { "h", NSEC_PER_HOUR },
		{ NULL, 0 } };
	const struct suffix *sf;
	const char *rest;
	double v;

	if (split_number(s, &v, &rest) || !(sf = find_suffix(dur, rest)) || v < 0)
		goto bad;
	v *= sf->mult;
	if (v < (double)min_ns || v > (double)max_ns) {
		snprintf(err, errlen, "duration '%s' out of range: must be %gs..%gs", s,
			 (double)min_ns / NSEC_PER_SEC, (double)max_ns / NSEC_PER_SEC);
		return -ERANGE;
	}
	*ns = (uint64_t)llround(v);
	return 0;
bad:
	snprintf(err, errlen, "bad duration '%s': expected e.g. 10s, 500ms or 2m", s ? s : "");
	return -EINVAL;
}

double units_linerate_pps(uint64_t bps, unsigned int frame_size)
{
	return (double)bps / ((frame_size + 20.0) * 8.0);
}

size_t units_sizes_join(char *buf, size_t len, const unsigned int *sizes, unsigned int n)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u", i ? "," : "", sizes[i]);
	return off;
}

void units_duration_text(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

int units_ratio_parse(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v))
		return -EINVAL;
	if (!strcmp(end, "%"))
		v /= 100;
	else if (*end)
		return -EINVAL;
	if (v < 0 || v >= 1)
		return -ERANGE;
	*out = v;
	return 0;
}
