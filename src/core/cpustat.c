#include "core/cpustat.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpuset.h"

/* One line of text: [*p, end) with end at '\n' or NUL; advances *p. */
static bool next_line(const char **p, const char **start, size_t *len)
{
	const char *s = *p, *e;

	if (!*s)
		return false;
	e = strchr(s, '\n');
	if (!e)
		e = s + strlen(s);
	*start = s;
	*len = (size_t)(e - s);
	*p = *e ? e + 1 : e;
	return true;
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* A number of the given base that ends at a blank or the line's end;
 * returns the position after it or NULL. */
static const char *num(const char *s, const char *end, int base, uint64_t *v)
{
	char *e;

	if (s >= end || !isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return NULL;
	errno = 0;
	*v = strtoull(s, &e, base);
	if (errno || e > end || (e < end && *e != ' ' && *e != '\t'))
		return NULL;
	return e;
}

uint64_t cpustat_delta(uint64_t a, uint64_t b, bool *backwards)
{
	if (b >= a)
		return b - a;
	if (backwards)
		*backwards = true;
	return 0;
}

int cpustat_parse_stat(const char *text, struct cpustat *out, char *err, size_t errlen)
{
	const char *p = text, *s;
	size_t len;
	unsigned int lineno = 0;
	bool have_all = false;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, &s, &len)) {
		const char *end = s + len, *q;
		struct cpustat_cpu *c;
		uint64_t v;

		lineno++;
		if (len > 4 && !strncmp(s, "intr ", 5)) {
			if (num(skip_blank(s + 5, end), end, 10, &v))
				out->intr = v;
			continue;
		}
		if (len > 4 && !strncmp(s, "ctxt ", 5)) {
			if (num(skip_blank(s + 5, end), end, 10, &v))
				out->ctxt = v;
			continue;
		}
		if (len < 4 || strncmp(s, "cpu", 3))
			continue;
		q = s + 3;
		if (*q == ' ') {
			c = &out->all;
			have_all = true;
		} else {
			uint64_t n;

			if (!(q = num(q, end, 10, &n)))
				goto bad;
			if (n >= CPUSTAT_MAX) {
				snprintf(err, errlen, "/proc/stat line %u: CPU %llu above the %d supported",
					 lineno, (unsigned long long)n, CPUSTAT_MAX);
				return -ERANGE;
			}
			c = &out->cpu[n];
			if (n + 1 > out->max_cpu)
				out->max_cpu = (unsigned int)n + 1;
		}
		c->present = true;
		for (q = skip_blank(q, end); q < end; q = skip_blank(q, end)) {
			if (!(q = num(q, end, 10, &v)))
				goto bad;
			if (c->ncols < CS_NCOLS)
				c->v[c->ncols] = v;
			c->ncols++;
		}
		if (c->ncols < 4)
			goto bad;
	}
	if (!have_all) {
		snprintf(err, errlen, "/proc/stat: no \"cpu\" line");
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "/proc/stat line %u: expected \"cpuN\" and at least 4 numbers", lineno);
	return -EINVAL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void cpustat_pct(const struct cpustat_cpu *a, const struct cpustat_cpu *b,
		 double wall_ticks, struct cpustat_pct *out)
{
	uint64_t d[CS_NCOLS], total = 0, usr, nice;
	bool back = false;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < CS_NCOLS; i++)
		d[i] = cpustat_delta(a->v[i], b->v[i], &back);
	/* The kernel counts guest time in user (and guest_nice in nice) too. */
	usr = d[CS_USER] >= d[CS_GUEST] ? d[CS_USER] - d[CS_GUEST] : 0;
	nice = d[CS_NICE] >= d[CS_GUEST_NICE] ? d[CS_NICE] - d[CS_GUEST_NICE] : 0;
	for (int i = CS_USER; i <= CS_STEAL; i++)
		total += d[i];
	out->usr = pct(usr, total);
	out->nice = pct(nice, total);
	out->sys = pct(d[CS_SYSTEM], total);
	out->iowait = pct(d[CS_IOWAIT], total);
	out->irq = pct(d[CS_IRQ], total);
	out->soft = pct(d[CS_SOFTIRQ], total);
	out->steal = pct(d[CS_STEAL], total);
	out->guest = pct(d[CS_GUEST], total);
	out->gnice = pct(d[CS_GUEST_NICE], total);
	out->idle = pct(d[CS_IDLE], total);
	if (wall_ticks > 0) {
		double busy = 100.0 * (wall_ticks - (double)d[CS_IDLE] - (double)d[CS_IOWAIT]) / wall_ticks;

		out->busy = busy < 0 ? 0 : busy > 100 ? 100 : busy;
		out->accounted = 100.0 * (double)total / wall_ticks;
	}
	out->backwards = back;
}

/* Header of /proc/interrupts and /proc/softirqs: "CPU0 CPU1 ...". */
static int parse_header(const char *s, const char *end, unsigned int *ncols, unsigned int *col_cpu,
			const char *file, char *err, size_t errlen)
{
	const char *q = skip_blank(s, end);

	*ncols = 0;
	while (q < end) {
		uint64_t n;

		if (end - q < 4 || strncmp(q, "CPU", 3) || !(q = num(q + 3, end, 10, &n)))
			goto bad;
		if (n >= CPUSTAT_MAX || *ncols >= CPUSTAT_MAX)
			goto bad;
		col_cpu[(*ncols)++] = (unsigned int)n;
		q = skip_blank(q, end);
	}
	if (*ncols)
		return 0;
bad:
	snprintf(err, errlen, "%s: header is not \"CPU0 CPU1 ...\"", file);
	return -EINVAL;
}

/* "NAME:" at the start of a row; returns the position after the colon. */
static const char *row_label(const char *s, const char *end, char *label, size_t llen)
{
	const char *q = skip_blank(s, end), *c = q;
	size_t n;

	while (c < end && *c != ':' && *c != ' ')
		c++;
	if (c >= end || *c != ':' || c == q)
		return NULL;
	n = (size_t)(c - q) < llen - 1 ? (size_t)(c - q) : llen - 1;
	memcpy(label, q, n);
	label[n] = '\0';
	return c + 1;
}

int cpustat_parse_interrupts(const char *text, const char *filter, struct irqstat *out,
			     char *err, size_t errlen)
{
	const char *p = text, *s;
	size_t len;
	unsigned int lineno = 1;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!next_line(&p, &s, &len)) {
		snprintf(err, errlen, "/proc/interrupts: empty");
		return -EINVAL;
	}
	if ((rc = parse_header(s, s + len, &out->ncols, out->col_cpu, "/proc/interrupts", err, errlen)))
		return rc;
	for (unsigned int i = 0; i < out->ncols; i++)
		out->present[out->col_cpu[i]] = true;
	while (next_line(&p, &s, &len)) {
		const char *end = s + len, *q;
		uint64_t counts[CPUSTAT_MAX], v;
		struct irq_line l;
		unsigned int n = 0;
		size_t nl;

		lineno++;
		if (!(q = row_label(s, end, l.irq, sizeof(l.irq)))) {
			if (skip_blank(s, end) == end)
				continue;
			snprintf(err, errlen, "/proc/interrupts line %u: no \"IRQ:\" label", lineno);
			return -EINVAL;
		}
		for (q = skip_blank(q, end); n < out->ncols; q = skip_blank(q, end)) {
			const char *e = num(q, end, 10, &v);

			if (!e)
				break;
			counts[n++] = v;
			q = e;
		}
		/* ERR and MIS have one system-wide count: no CPU's. */
		if (n < out->ncols)
			continue;
		nl = (size_t)(end - q);
		while (nl && (q[nl - 1] == ' ' || q[nl - 1] == '\t'))
			nl--;
		if (nl >= sizeof(l.name))
			nl = sizeof(l.name) - 1;
		memcpy(l.name, q, nl);
		l.name[nl] = '\0';
		if (filter && *filter && !strstr(l.name, filter))
			continue;
		l.total = 0;
		for (unsigned int i = 0; i < n; i++) {
			out->total[out->col_cpu[i]] += counts[i];
			l.total += counts[i];
		}
		out->nlines++;
		if (out->nstored < sizeof(out->line) / sizeof(out->line[0]))
			out->line[out->nstored++] = l;
	}
	return 0;
}

int cpustat_parse_softirqs(const char *text, struct softirqstat *out, char *err, size_t errlen)
{
	const char *p = text, *s;
	size_t len;
	unsigned int ncols, col_cpu[CPUSTAT_MAX], lineno = 1;
	bool rx = false, tx = false;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!next_line(&p, &s, &len)) {
		snprintf(err, errlen, "/proc/softirqs: empty");
		return -EINVAL;
	}
	if ((rc = parse_header(s, s + len, &ncols, col_cpu, "/proc/softirqs", err, errlen)))
		return rc;
	for (unsigned int i = 0; i < ncols; i++)
		out->present[col_cpu[i]] = true;
	while (next_line(&p, &s, &len)) {
		const char *end = s + len, *q;
		char label[32];
		uint64_t *dst;

		lineno++;
		if (!(q = row_label(s, end, label, sizeof(label))))
			continue;
		if (!strcmp(label, "NET_RX"))
			dst = out->net_rx, rx = true;
		else if (!strcmp(label, "NET_TX"))
			dst = out->net_tx, tx = true;
		else
			continue;
		for (unsigned int i = 0; i < ncols; i++) {
			uint64_t v;

			q = skip_blank(q, end);
			if (!(q = num(q, end, 10, &v))) {
				snprintf(err, errlen, "/proc/softirqs line %u: %s has fewer than %u counts",
					 lineno, label, ncols);
				return -EINVAL;
			}
			dst[col_cpu[i]] = v;
		}
	}
	if (!rx || !tx) {
		snprintf(err, errlen, "/proc/softirqs: no %s line", rx ? "NET_TX" : "NET_RX");
		return -EINVAL;
	}
	return 0;
}

int cpustat_parse_softnet(const char *text, const struct cpuset *online, struct softnetstat *out,
			  char *err, size_t errlen)
{
	const char *p = text, *s;
	size_t len;
	unsigned int row = 0;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, &s, &len)) {
		const char *end = s + len, *q = skip_blank(s, end);
		uint64_t col[16] = { 0 };
		unsigned int n = 0, cpu;
		int c;

		if (q == end)
			continue;
		for (; q < end; q = skip_blank(q, end)) {
			uint64_t v;

			if (!(q = num(q, end, 16, &v)))
				goto bad;
			if (n < 16)
				col[n] = v;
			n++;
		}
		if (n < 3 || (out->ncols && n != out->ncols))
			goto bad;
		out->ncols = n;
		if (n >= 13) {
			if (col[12] >= CPUSTAT_MAX)
				goto bad;
			cpu = (unsigned int)col[12];
		} else {
			/* Before 5.10 the row's CPU is implicit: the n-th online one. */
			out->cpu_from_row = true;
			c = online ? cpuset_nth(online, row) : (int)row;
			if (c < 0 || c >= CPUSTAT_MAX)
				goto bad;
			cpu = (unsigned int)c;
		}
		out->cpu[cpu].present = true;
		out->cpu[cpu].processed = col[0];
		out->cpu[cpu].dropped = col[1];
		out->cpu[cpu].squeezed = col[2];
		row++;
	}
	if (!row) {
		snprintf(err, errlen, "/proc/net/softnet_stat: empty");
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "/proc/net/softnet_stat row %u: expected rows of the same number "
		 "(at least 3) of hex columns", row + 1);
	return -EINVAL;
}

/* --- soak arithmetic --- */

double soak_load(double loops, double seconds, double calibrated, bool *clamped)
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

	s = skip_blank(s, end);
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
	while (next_line(&p, &s, &len)) {
		const char *end = s + len, *v;
		size_t k;

		lineno++;
		s = skip_blank(s, end);
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
			v = skip_blank(v, end);
			if (!(v = num(v, end, 10, &ver)) || ver != 1 || skip_blank(v, end) != end)
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
			v = skip_blank(v, end);
			if (!(v = num(v, end, 10, &t)) || skip_blank(v, end) != end || t > INT64_MAX)
				goto bad;
			c->when = (int64_t)t;
			when = true;
		} else if (k == 3 && !strncmp(s, "cpu", 3)) {
			char buf[128], *e1, *e2;
			uint64_t cpu;
			double rate, spread;

			why = "expected \"cpu N LOOPS/S SPREAD\"";
			v = skip_blank(v, end);
			if (!(v = num(v, end, 10, &cpu)) || cpu >= CPUSET_MAX)
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

void stat_summary(const double *v, size_t n, double *mean, double *min, double *max)
{
	double s = 0;

	*mean = *min = *max = n ? v[0] : 0;
	for (size_t i = 0; i < n; i++) {
		s += v[i];
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
	if (n)
		*mean = s / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stat_median(double *v, size_t n, double *min, double *max)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (min)
		*min = v[0];
	if (max)
		*max = v[n - 1];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stat_t(unsigned int level, unsigned int df)
{
	/* two-sided: t at 0.975 and 0.995 for 1..30 degrees of freedom */
	static const double t95[30] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	static const double t99[30] = {
		63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
		3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
		2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750,
	};

	if ((level != 95 && level != 99) || !df)
		return 0;
	if (df > 30)
		return level == 95 ? 1.960 : 2.576;
	return level == 95 ? t95[df - 1] : t99[df - 1];
}

double stat_mean_halfwidth(const double *v, size_t n, unsigned int level)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return INFINITY;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	if (mean == 0)
		return INFINITY;
	return stat_t(level, (unsigned int)(n - 1)) * sqrt(ss / (double)(n - 1)) / sqrt((double)n) / fabs(mean);
}
