#include "os/procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "os/fs.h"
#include "os/clock.h"
#include "core/ns.h"

struct procstat_sample *procstat_sample_new(void)
{
	return calloc(1, sizeof(struct procstat_sample));
}

void procstat_sample_free(struct procstat_sample *s)
{
	free(s);
}

int procstat_slurp(const char *root, const char *path, char **text, char *err, size_t errlen)
{
	size_t len = 16384;
	char *buf = NULL;
	long n;

	for (;;) {
		char *nb = realloc(buf, len);

		if (!nb) {
			free(buf);
			snprintf(err, errlen, "%s: out of memory", path);
			return -ENOMEM;
		}
		buf = nb;
		n = fs_read(root, path, buf, len);
		if (n < 0) {
			free(buf);
			snprintf(err, errlen, "cannot read %s%s: %s", root && strcmp(root, "/") ? root : "",
				 path, strerror((int)-n));
			return (int)n;
		}
		/* A full buffer may be a cut file: read it again, whole. */
		if ((size_t)n + 1 < len)
			break;
		if (len >= (64u << 20)) {
			free(buf);
			snprintf(err, errlen, "%s: larger than 64 MiB", path);
			return -EFBIG;
		}
		len *= 4;
	}
	*text = buf;
	return 0;
}


int procstat_parse(const char *stat, const char *interrupts, const char *softirqs, const char *softnet,
		   const char *irq_filter, struct procstat_sample *s, char *err, size_t errlen)
{
	struct cpuset online;
	int rc;

	if (!stat) {
		snprintf(err, errlen, "no /proc/stat");
		return -ENOENT;
	}
	if ((rc = cpustat_parse_stat(stat, &s->stat, err, errlen)))
		return rc;
	if (interrupts) {
		if ((rc = cpustat_parse_interrupts(interrupts, irq_filter, &s->irq, err, errlen)))
			return rc;
		s->have_irq = true;
	}
	if (softirqs) {
		if ((rc = cpustat_parse_softirqs(softirqs, &s->soft, err, errlen)))
			return rc;
		s->have_soft = true;
	}
	if (softnet) {
		/* The CPUs online are those /proc/stat lists: softnet_stat's
		 * rows of a kernel without a CPU column follow them. */
		cpuset_zero(&online);
		for (unsigned int i = 0; i < s->stat.max_cpu && i < CPUSTAT_MAX; i++)
			if (s->stat.cpu[i].present)
				cpuset_add(&online, i);
		if ((rc = cpustat_parse_softnet(softnet, &online, &s->net, err, errlen)))
			return rc;
		s->have_net = true;
	}
	return 0;
}

int procstat_read(const char *root, const char *irq_filter, struct procstat_sample *s,
		  char *err, size_t errlen)
{
	static const char *const files[] = { "/proc/stat", "/proc/interrupts", "/proc/softirqs",
					     "/proc/net/softnet_stat" };
	char *text[4] = { NULL }, e2[256];
	int rc;

	memset(s, 0, sizeof(*s));
	s->t_ns = clock_mono_ns();
	if ((rc = procstat_slurp(root, files[0], &text[0], err, errlen)))
		return rc;
	/* The others are optional: a kernel without them has no column. */
	for (int i = 1; i < 4; i++)
		procstat_slurp(root, files[i], &text[i], e2, sizeof(e2));
	rc = procstat_parse(text[0], text[1], text[2], text[3], irq_filter, s, err, errlen);
	for (int i = 0; i < 4; i++)
		free(text[i]);
	return rc;
}

int procstat_online(const char *root, struct cpuset *online, char *err, size_t errlen)
{
	char buf[4096];
	long n = fs_read(root, "/sys/devices/system/cpu/online", buf, sizeof(buf));

	if (n < 0) {
		snprintf(err, errlen, "cannot read /sys/devices/system/cpu/online: %s", strerror((int)-n));
		return (int)n;
	}
	return cpuset_parse_list(buf, online, err, errlen);
}

int procstat_kernel(const char *root, char *buf, size_t len, char *err, size_t errlen)
{
	long n = fs_read(root, "/proc/sys/kernel/osrelease", buf, len);

	if (n < 0) {
		snprintf(err, errlen, "cannot read /proc/sys/kernel/osrelease: %s", strerror((int)-n));
		return (int)n;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

bool procstat_boot_id(const char *root, char *buf, size_t len)
{
	if (fs_read(root, "/proc/sys/kernel/random/boot_id", buf, len) <= 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] != '\0';
}

int procstat_cpu_model(const char *root, char *buf, size_t len, char *err, size_t errlen)
{
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	char *text, *line, *save = NULL;
	int rc;

	if ((rc = procstat_slurp(root, "/proc/cpuinfo", &text, err, errlen)))
		return rc;
	snprintf(buf, len, "unknown");
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		bool found = false;

		/* strtok_r edits the text: work on a copy per key. */
		char *copy = strdup(text);

		if (!copy)
			break;
		for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			size_t kl = strlen(keys[k]);
			char *v;

			if (strncmp(line, keys[k], kl) || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
				continue;
			v = strchr(line, ':');
			if (!v)
				continue;
			for (v++; *v == ' ' || *v == '\t'; v++)
				;
			snprintf(buf, len, "%s", v);
			found = true;
			break;
		}
		free(copy);
		if (found)
			break;
	}
	free(text);
	return 0;
}

static int busy_read(struct cpustat *st, char *err, size_t errlen)
{
	char *text = NULL;
	int rc = procstat_slurp(NULL, "/proc/stat", &text, err, errlen);

	if (!rc)
		rc = cpustat_parse_stat(text, st, err, errlen);
	free(text);
	return rc;
}

int procstat_busy_start(struct procstat_busy *b, char *err, size_t errlen)
{
	int rc;

	b->stat = malloc(sizeof(*b->stat));
	if (!b->stat) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	b->t_ns = clock_mono_ns();
	if ((rc = busy_read(b->stat, err, errlen)))
		procstat_busy_free(b);
	return rc;
}

int procstat_busy_end(struct procstat_busy *b, int cpu, double *busy, unsigned int *ncpus, char *err,
		      size_t errlen)
{
	struct cpustat *now = malloc(sizeof(*now));
	uint64_t t = clock_mono_ns();
	long hz = sysconf(_SC_CLK_TCK);
	struct cpustat_pct pct;
	int rc;

	*busy = 0;
	*ncpus = 0;
	if (!b->stat || !now) {
		free(now);
		snprintf(err, errlen, b->stat ? "out of memory" : "no first reading");
		procstat_busy_free(b);
		return b->stat ? -ENOMEM : -EINVAL;
	}
	if ((rc = busy_read(now, err, errlen)))
		goto out;
	if (cpu >= 0) {
		if (cpu >= CPUSTAT_MAX || !b->stat->cpu[cpu].present || !now->cpu[cpu].present) {
			snprintf(err, errlen, "CPU %d is not in /proc/stat", cpu);
			rc = -ENOENT;
			goto out;
		}
		*ncpus = 1;
	} else {
		for (unsigned int i = 0; i < now->max_cpu && i < CPUSTAT_MAX; i++)
			*ncpus += now->cpu[i].present && b->stat->cpu[i].present;
	}
	cpustat_pct(cpu >= 0 ? &b->stat->cpu[cpu] : &b->stat->all, cpu >= 0 ? &now->cpu[cpu] : &now->all,
		    (double)(t - b->t_ns) / NSEC_PER_SEC * (double)(hz > 0 ? hz : 100) * *ncpus, &pct);
	*busy = pct.busy / 100;
	if (*busy < 0)
		*busy = 0;
	if (*busy > 1)
		*busy = 1;
out:
	free(now);
	procstat_busy_free(b);
	return rc;
}

void procstat_busy_free(struct procstat_busy *b)
{
	free(b->stat);
	b->stat = NULL;
}
