#include "core/cpustat.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpuset.h"
#include "core/text.h"

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
	while (text_line(&p, &s, &len)) {
		const char *end = s + len, *q;
		struct cpustat_cpu *c;
		uint64_t v;

		lineno++;
		if (len > 4 && !strncmp(s, "intr ", 5)) {
			if (text_num(text_skip_blank(s + 5, end), end, 10, &v))
				out->intr = v;
			continue;
		}
		if (len > 4 && !strncmp(s, "ctxt ", 5)) {
			if (text_num(text_skip_blank(s + 5, end), end, 10, &v))
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

			if (!(q = text_num(q, end, 10, &n)))
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
		for (q = text_skip_blank(q, end); q < end; q = text_skip_blank(q, end)) {
			if (!(q = text_num(q, end, 10, &v)))
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
	const char *q = text_skip_blank(s, end);

	*ncols = 0;
	while (q < end) {
		uint64_t n;

		if (end - q < 4 || strncmp(q, "CPU", 3) || !(q = text_num(q + 3, end, 10, &n)))
			goto bad;
		if (n >= CPUSTAT_MAX || *ncols >= CPUSTAT_MAX)
			goto bad;
		col_cpu[(*ncols)++] = (unsigned int)n;
		q = text_skip_blank(q, end);
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
	const char *q = text_skip_blank(s, end), *c = q;
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
	if (!text_line(&p, &s, &len)) {
		snprintf(err, errlen, "/proc/interrupts: empty");
		return -EINVAL;
	}
	if ((rc = parse_header(s, s + len, &out->ncols, out->col_cpu, "/proc/interrupts", err, errlen)))
		return rc;
	for (unsigned int i = 0; i < out->ncols; i++)
		out->present[out->col_cpu[i]] = true;
	while (text_line(&p, &s, &len)) {
		const char *end = s + len, *q;
		uint64_t counts[CPUSTAT_MAX], v;
		struct irq_line l;
		unsigned int n = 0;
		size_t nl;

		lineno++;
		if (!(q = row_label(s, end, l.irq, sizeof(l.irq)))) {
			if (text_skip_blank(s, end) == end)
				continue;
			snprintf(err, errlen, "/proc/interrupts line %u: no \"IRQ:\" label", lineno);
			return -EINVAL;
		}
		for (q = text_skip_blank(q, end); n < out->ncols; q = text_skip_blank(q, end)) {
			const char *e = text_num(q, end, 10, &v);

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
	if (!text_line(&p, &s, &len)) {
		snprintf(err, errlen, "/proc/softirqs: empty");
		return -EINVAL;
	}
	if ((rc = parse_header(s, s + len, &ncols, col_cpu, "/proc/softirqs", err, errlen)))
		return rc;
	for (unsigned int i = 0; i < ncols; i++)
		out->present[col_cpu[i]] = true;
	while (text_line(&p, &s, &len)) {
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

			q = text_skip_blank(q, end);
			if (!(q = text_num(q, end, 10, &v))) {
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
	while (text_line(&p, &s, &len)) {
		const char *end = s + len, *q = text_skip_blank(s, end);
		uint64_t col[16] = { 0 };
		unsigned int n = 0, cpu;
		int c;

		if (q == end)
			continue;
		for (; q < end; q = text_skip_blank(q, end)) {
			uint64_t v;

			if (!(q = text_num(q, end, 16, &v)))
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
