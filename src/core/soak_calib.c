#include "core/soak_calib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpuset.h"
#include "core/text.h"

double soak_calib_busy(double loops, double seconds, double calibrated, bool *clamped)
{
	double l;

	if (!(seconds > 0) || !(calibrated > 0) || !isfinite(loops)) {
		if (clamped)
			*clamped = true;
		return 0;
	}
	l = 1.0 - loops / seconds / calibrated;
	if (l < 0 || l > 1) {
		if (clamped)
			*clamped = true;
		return l < 0 ? 0 : 1;
	}
	return l;
}

#define CALIB_MAGIC "wirerate-soak-calibration"

static void copy_field(char *dst, size_t dlen, const char *s, const char *end)
{
	size_t n;

	s = text_skip_blank(s, end);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	n = (size_t)(end - s) < dlen - 1 ? (size_t)(end - s) : dlen - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int soak_calib_parse(const char *text, struct soak_calib *c, char *err, size_t errlen)
{
	const char *p = text, *s;
	size_t len;
	unsigned int lineno = 0;
	bool magic = false, when = false;
	const char *why = "unknown key";

	memset(c, 0, sizeof(*c));
	while (text_line(&p, &s, &len)) {
		const char *end = s + len, *v;
		size_t k;

		lineno++;
		s = text_skip_blank(s, end);
		if (s == end || *s == '#')
			continue;
		for (k = 0; s + k < end && s[k] != ' ' && s[k] != '\t'; k++)
			;
		v = s + k;
		if (!magic) {
			uint64_t ver;

			why = "not a wirerate soak calibration (first line)";
			if (k != strlen(CALIB_MAGIC) || strncmp(s, CALIB_MAGIC, k))
				goto bad;
			why = "unsupported version (want 1)";
			v = text_skip_blank(v, end);
			if (!(v = text_num(v, end, 10, &ver)) || ver != 1 || text_skip_blank(v, end) != end)
				goto bad;
			magic = true;
		} else if (k == 6 && !strncmp(s, "kernel", 6)) {
			copy_field(c->kernel, sizeof(c->kernel), v, end);
		} else if (k == 9 && !strncmp(s, "cpu_model", 9)) {
			copy_field(c->cpu_model, sizeof(c->cpu_model), v, end);
		} else if (k == 4 && !strncmp(s, "work", 4)) {
			copy_field(c->work, sizeof(c->work), v, end);
		} else if (k == 4 && !strncmp(s, "when", 4)) {
			uint64_t t;

			why = "bad time";
			v = text_skip_blank(v, end);
			if (!(v = text_num(v, end, 10, &t)) || text_skip_blank(v, end) != end || t > INT64_MAX)
				goto bad;
			c->when = (int64_t)t;
			when = true;
		} else if (k == 3 && !strncmp(s, "cpu", 3)) {
			char buf[128], *e1, *e2;
			uint64_t cpu;
			double rate, spread;

			why = "expected \"cpu N LOOPS/S SPREAD\"";
			v = text_skip_blank(v, end);
			if (!(v = text_num(v, end, 10, &cpu)) || cpu >= CPUSET_MAX)
				goto bad;
			copy_field(buf, sizeof(buf), v, end);
			errno = 0;
			rate = strtod(buf, &e1);
			if (e1 == buf || *e1 != ' ')
				goto bad;
			spread = strtod(e1, &e2);
			if (errno || e2 == e1 || *e2 || !isfinite(rate) || !(rate > 0) ||
			    !isfinite(spread) || spread < 0)
				goto bad;
			why = "CPU listed twice";
			if (soak_calib_rate(c, (unsigned int)cpu) >= 0)
				goto bad;
			why = "too many CPUs";
			if (c->n >= SOAK_MAX_CPUS)
				goto bad;
			c->cpu[c->n] = (unsigned int)cpu;
			c->rate[c->n] = rate;
			c->spread[c->n] = spread;
			c->n++;
		} else {
			why = "unknown key";
			goto bad;
		}
	}
	why = !magic ? "empty" : !c->kernel[0] ? "no kernel line" : !c->cpu_model[0] ? "no cpu_model line"
	      : !c->work[0] ? "no work line" : !when ? "no when line" : !c->n ? "no cpu lines" : NULL;
	if (why) {
		snprintf(err, errlen, "corrupt soak calibration: %s", why);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "corrupt soak calibration, line %u: %s", lineno, why);
	return -EINVAL;
}

int soak_calib_format(const struct soak_calib *c, char *buf, size_t len)
{
	size_t off = 0;
	int n;

#define PUT(...) do { \
		n = snprintf(buf + off, len - off, __VA_ARGS__); \
		if (n < 0 || (size_t)n >= len - off) \
			return -ENOSPC; \
		off += (size_t)n; \
	} while (0)
	if (!len)
		return -ENOSPC;
	PUT("%s 1\n# loops per second of a SCHED_IDLE soaker per CPU on an idle machine;\n"
	    "# made by 'wirerate soak --calibrate'\n", CALIB_MAGIC);
	PUT("kernel %s\ncpu_model %s\nwork %s\nwhen %lld\n", c->kernel, c->cpu_model, c->work,
	    (long long)c->when);
	for (unsigned int i = 0; i < c->n; i++)
		PUT("cpu %u %.3f %.5f\n", c->cpu[i], c->rate[i], c->spread[i]);
#undef PUT
	return (int)off;
}

double soak_calib_rate(const struct soak_calib *c, unsigned int cpu)
{
	for (unsigned int i = 0; i < c->n; i++)
		if (c->cpu[i] == cpu)
			return c->rate[i];
	return -1;
}

unsigned int soak_calib_merge(struct soak_calib *c, const struct soak_calib *old)
{
	unsigned int added = 0;

	if (strcmp(c->kernel, old->kernel) || strcmp(c->cpu_model, old->cpu_model) || strcmp(c->work, old->work))
		return 0;
	for (unsigned int i = 0; i < old->n && c->n < SOAK_MAX_CPUS; i++) {
		unsigned int at = c->n;

		if (soak_calib_rate(c, old->cpu[i]) >= 0)
			continue;
		/* Keep the CPUs in order: insert before the first larger one. */
		while (at > 0 && c->cpu[at - 1] > old->cpu[i]) {
			c->cpu[at] = c->cpu[at - 1];
			c->rate[at] = c->rate[at - 1];
			c->spread[at] = c->spread[at - 1];
			at--;
		}
		c->cpu[at] = old->cpu[i];
		c->rate[at] = old->rate[i];
		c->spread[at] = old->spread[i];
		c->n++;
		added++;
	}
	return added;
}

int soak_calib_check(const struct soak_calib *c, const char *kernel, const char *cpu_model,
		     const char *work, char *err, size_t errlen)
{
	if (strcmp(c->kernel, kernel))
		snprintf(err, errlen, "soak calibration was made on kernel %s, this is %s: "
			 "calibrate again with 'wirerate soak --calibrate'", c->kernel, kernel);
	else if (strcmp(c->cpu_model, cpu_model))
		snprintf(err, errlen, "soak calibration was made on CPU '%s', this is '%s': "
			 "calibrate again with 'wirerate soak --calibrate'", c->cpu_model, cpu_model);
	else if (strcmp(c->work, work))
		snprintf(err, errlen, "soak calibration was made with soak loop '%s', this wirerate "
			 "runs '%s': calibrate again with 'wirerate soak --calibrate'", c->work, work);
	else
		return 0;
	return -ESTALE;
}
