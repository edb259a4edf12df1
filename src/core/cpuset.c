#include "core/cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cpuset_zero(struct cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void cpuset_add(struct cpuset *s, unsigned int cpu)
{
	if (cpu < CPUSET_MAX)
		s->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

bool cpuset_has(const struct cpuset *s, unsigned int cpu)
{
	return cpu < CPUSET_MAX && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned int cpuset_count(const struct cpuset *s)
{
	unsigned int n = 0;

	for (size_t i = 0; i < CPUSET_MAX / 64; i++)
		n += (unsigned int)__builtin_popcountll(s->bits[i]);
	return n;
}

int cpuset_next(const struct cpuset *s, unsigned int from)
{
	for (unsigned int c = from; c < CPUSET_MAX; c++)
		if (cpuset_has(s, c))
			return (int)c;
	return -1;
}

int cpuset_nth(const struct cpuset *s, unsigned int n)
{
	int c = cpuset_next(s, 0);

	while (c >= 0 && n--)
		c = cpuset_next(s, (unsigned int)c + 1);
	return c;
}

bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return !memcmp(a, b, sizeof(*a));
}

void cpuset_diff(struct cpuset *out, const struct cpuset *a, const struct cpuset *b)
{
	for (size_t i = 0; i < CPUSET_MAX / 64; i++)
		out->bits[i] = a->bits[i] & ~b->bits[i];
}

bool cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	for (size_t i = 0; i < CPUSET_MAX / 64; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

static int parse_cpu(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*v = strtoul(*p, &end, 10);
	if (errno || *v >= CPUSET_MAX)
		return -ERANGE;
	*p = end;
	return 0;
}

int cpuset_parse_list(const char *s, struct cpuset *out, char *err, size_t errlen)
{
	const char *p = s;
	unsigned long a, b;
	int rc;

	cpuset_zero(out);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\n' || !*p)
		return 0;
	for (;;) {
		if ((rc = parse_cpu(&p, &a)))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if ((rc = parse_cpu(&p, &b)))
				goto bad;
			if (b < a) {
				rc = -EINVAL;
				goto bad;
			}
		}
		for (unsigned long c = a; c <= b; c++)
			cpuset_add(out, (unsigned int)c);
		if (*p != ',')
			break;
		p++;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p) {
		rc = -EINVAL;
		goto bad;
	}
	return 0;
bad:
	if (rc == -ERANGE)
		snprintf(err, errlen, "CPU list '%s': CPU numbers must be below %d", s, CPUSET_MAX);
	else
		snprintf(err, errlen, "bad CPU list '%s': expected e.g. 1 or 0-3,8", s);
	return rc;
}

void cpuset_format_list(const struct cpuset *s, char *buf, size_t len)
{
	size_t off = 0;
	int c = cpuset_next(s, 0);

	if (len)
		buf[0] = '\0';
	while (c >= 0 && off < len) {
		int e = c;

		while (e + 1 < CPUSET_MAX && cpuset_has(s, (unsigned int)e + 1))
			e++;
		int n = e > c ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", c, e)
			      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", c);
		if (n < 0)
			return;
		off += (size_t)n;
		c = e + 1 < CPUSET_MAX ? cpuset_next(s, (unsigned int)e + 1) : -1;
	}
}

void cpuset_format_mask(const struct cpuset *s, char *buf, size_t len)
{
	int top = 0;
	size_t off = 0;

	for (int w = CPUSET_MAX / 32 - 1; w >= 0; w--)
		if ((uint32_t)(s->bits[w / 2] >> (32 * (w % 2)))) {
			top = w;
			break;
		}
	if (len)
		buf[0] = '\0';
	for (int w = top; w >= 0 && off < len; w--) {
		uint32_t word = (uint32_t)(s->bits[w / 2] >> (32 * (w % 2)));
		int n = snprintf(buf + off, len - off, "%08x%s", word, w ? "," : "");

		if (n < 0)
			return;
		off += (size_t)n;
	}
}

int cpuset_parse_mask(const char *s, struct cpuset *out, char *err, size_t errlen)
{
	size_t n = strlen(s);
	unsigned int bit = 0;

	cpuset_zero(out);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (!n)
		goto bad;
	for (size_t i = n; i-- > 0;) {
		int d;

		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			goto bad;
		d = isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10);
		for (int k = 0; k < 4; k++, bit++)
			if (d >> k & 1) {
				if (bit >= CPUSET_MAX)
					goto bad;
				cpuset_add(out, bit);
			}
	}
	return 0;
bad:
	snprintf(err, errlen, "bad CPU mask '%s': expected hex words like 00000003", s);
	return -EINVAL;
}
