#include "dut/profile.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/ns.h"
#include "os/clock.h"

#define RING_PAGES 128			/* data pages per CPU (512 KiB), a power of two */
#define MAX_STACK 32			/* kernel frames kept per sample */
#define DRAIN_MS 50			/* the reader's period: 50 ms of 999 Hz fill 1/64 of a ring */

struct sym {
	uint64_t addr;
	const char *name;
};

/* A range of code: a function, from its symbol to the next. */
struct range {
	uint64_t lo, hi;
};

struct ipcount {
	uint64_t ip, n;
};

struct ring {
	int fd;
	void *base;			/* the control page, then the data */
	size_t len;
};

struct profile {
	struct cpuset cpus;
	unsigned int hz;
	struct ring *r;
	unsigned int nr;
	struct sym *syms;
	size_t nsyms;
	char *names;			/* the symbols' names, one block */
	struct range softirq[6], idle[2], skid[64];
	unsigned int nsoftirq, nidle, nskid;
	pthread_t thread;
	bool running, thread_up;
	pthread_mutex_t lock;		/* the counts, between the reader and profile_read */
	struct ipcount *ips;		/* open addressing on ip (0: empty) */
	size_t cap, used;
	uint64_t samples, idle_n, softirq_n, user_n, deferred_n, lost;
	uint64_t t0, t1;
	char *chunk;			/* a record that wraps the ring, copied whole */
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The kernel's text symbols, sorted by address: read once per process
 * (a second on a slow host), so that a profile per trial costs none of
 * it; a module loaded later is named from its symbols as they were. */
static struct {
	struct sym *syms;
	size_t nsyms;
	char *names;
} ksyms;

static int load_kallsyms(struct profile *p, char *err, size_t errlen)
{
	FILE *f;
	char line[512];
	size_t cap = 0, ncap = 0, nlen = 0;
	bool nonzero = false;

	if (ksyms.nsyms) {
		p->syms = ksyms.syms;
		p->nsyms = ksyms.nsyms;
		return 0;
	}
	if (!(f = fopen("/proc/kallsyms", "re"))) {
		snprintf(err, errlen, "/proc/kallsyms: %s: no kernel symbols to name the samples", strerror(errno));
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T' && type != 'w' && type != 'W'))
			continue;
		nonzero |= addr != 0;
		if (p->nsyms == cap) {
			struct sym *s = realloc(p->syms, (cap = cap ? cap * 2 : 65536) * sizeof(*s));

			if (!s)
				goto nomem;
			p->syms = s;
		}
		l = strlen(name) + 1;
		if (nlen + l > ncap) {
			char *n = realloc(p->names, ncap = ncap ? ncap * 2 : 1 << 21);

			if (!n)
				goto nomem;
			/* the names move with the block: keep offsets until the end */
			p->names = n;
		}
		memcpy(p->names + nlen, name, l);
		p->syms[p->nsyms].addr = addr;
		p->syms[p->nsyms++].name = (const char *)(uintptr_t)nlen;
		nlen += l;
	}
	fclose(f);
	if (!p->nsyms || !nonzero) {
		free(p->syms);
		free(p->names);
		p->syms = NULL;
		p->names = NULL;
		p->nsyms = 0;
		snprintf(err, errlen, "/proc/kallsyms shows no kernel addresses (kernel.kptr_restrict, or not root): "
			 "the samples cannot be named");
		return -ENOENT;
	}
	for (size_t i = 0; i < p->nsyms; i++)
		p->syms[i].name = p->names + (uintptr_t)p->syms[i].name;
	qsort(p->syms, p->nsyms, sizeof(*p->syms), cmp_sym);
	ksyms.syms = p->syms;
	ksyms.nsyms = p->nsyms;
	ksyms.names = p->names;
	return 0;
nomem:
	fclose(f);
	free(p->syms);
	free(p->names);
	p->syms = NULL;
	p->names = NULL;
	p->nsyms = 0;
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

/* The symbol holding addr, or NULL (below the first). */
static const struct sym *sym_of(const struct profile *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nsyms;

	if (!p->nsyms || addr < p->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (p->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &p->syms[lo];
}

/* The ranges of the functions named (whole: the names as they are,
 * those the kernel has, since one may be missing from a version to the
 * next; else the functions whose names hold one of the words). */
static unsigned int ranges_of(const struct profile *p, const char *const *names, bool whole, struct range *r,
			      unsigned int max)
{
	unsigned int n = 0;

	for (size_t i = 0; i < p->nsyms && n < max; i++)
		for (const char *const *nm = names; *nm; nm++)
			if (whole ? !strcmp(p->syms[i].name, *nm) : strstr(p->syms[i].name, *nm) != NULL) {
				r[n].lo = p->syms[i].addr;
				r[n].hi = i + 1 < p->nsyms ? p->syms[i + 1].addr : p->syms[i].addr + 1;
				n++;
				break;
			}
	return n;
}

static bool in_ranges(const struct range *r, unsigned int n, uint64_t ip)
{
	for (unsigned int i = 0; i < n; i++)
		if (ip >= r[i].lo && ip < r[i].hi)
			return true;
	return false;
}

static int count_ip(struct profile *p, uint64_t ip)
{
	if (2 * (p->used + 1) > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4096;
		struct ipcount *n = calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; i < p->cap; i++)
			if (p->ips[i].ip) {
				size_t k = (size_t)(p->ips[i].ip * 0x9E3779B97F4A7C15ULL) & (cap - 1);

				while (n[k].ip)
					k = (k + 1) & (cap - 1);
				n[k] = p->ips[i];
			}
		free(p->ips);
		p->ips = n;
		p->cap = cap;
	}
	size_t k = (size_t)(ip * 0x9E3779B97F4A7C15ULL) & (p->cap - 1);

	while (p->ips[k].ip && p->ips[k].ip != ip)
		k = (k + 1) & (p->cap - 1);
	if (!p->ips[k].ip) {
		p->ips[k].ip = ip;
		p->used++;
	}
	p->ips[k].n++;
	return 0;
}

/* One PERF_RECORD_SAMPLE: ip, nr, ips[nr] (the chain, with the kernel's
 * context markers among them). */
static void take_sample(struct profile *p, const struct perf_event_header *h, const uint64_t *v, size_t nwords)
{
	uint64_t ip, nr;
	bool soft = false, idle = false;

	if (nwords < 2)
		return;
	ip = v[0];
	nr = v[1];
	if (nr > nwords - 2)
		nr = nwords - 2;
	p->samples++;
	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL) {
		p->user_n++;
		return;
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t a = v[2 + i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX)
			continue;	/* a context marker */
		soft |= in_ranges(p->softirq, p->nsoftirq, a);
		idle |= in_ranges(p->idle, p->nidle, a);
	}
	soft |= in_ranges(p->softirq, p->nsoftirq, ip);
	if (soft)
		p->softirq_n++;
	else if (idle) {
		p->idle_n++;
		return;
	}
	/* held back until interrupts came on again: where the CPU was when
	 * the timer fired is not known, so no function gets it */
	if (in_ranges(p->skid, p->nskid, ip)) {
		p->deferred_n++;
		return;
	}
	count_ip(p, ip);
}

/* Everything in one ring since the last drain. */
static void drain(struct profile *p, struct ring *r)
{
	struct perf_event_mmap_page *mp = r->base;
	unsigned char *data = (unsigned char *)r->base + mp->data_offset;
	uint64_t size = mp->data_size, head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = mp->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		const unsigned char *rec;
		uint64_t off = tail % size;

		if (off + sizeof(h) <= size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			memcpy(&h, data + off, size - off);
			memcpy((unsigned char *)&h + (size - off), data, sizeof(h) - (size - off));
		}
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (off + h.size <= size) {
			rec = data + off;
		} else {
			memcpy(p->chunk, data + off, size - off);
			memcpy(p->chunk + (size - off), data, h.size - (size - off));
			rec = (const unsigned char *)p->chunk;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			uint64_t v[MAX_STACK + 8];
			size_t nw = (h.size - sizeof(h)) / 8;

			if (nw > sizeof(v) / sizeof(v[0]))
				nw = sizeof(v) / sizeof(v[0]);
			memcpy(v, rec + sizeof(h), nw * 8);
			take_sample(p, &h, v, nw);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + sizeof(h) + 8, sizeof(lost));
			p->lost += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static void drain_all(struct profile *p)
{
	pthread_mutex_lock(&p->lock);
	for (unsigned int i = 0; i < p->nr; i++)
		drain(p, &p->r[i]);
	pthread_mutex_unlock(&p->lock);
}

static void *reader(void *arg)
{
	struct profile *p = arg;

	while (__atomic_load_n(&p->running, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, DRAIN_MS * NSEC_PER_MSEC };

		nanosleep(&ts, NULL);
		drain_all(p);
	}
	return NULL;
}

static long perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(SYS_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int profile_create(const struct cpuset *cpus, unsigned int hz, struct profile **out, char *err, size_t errlen)
{
	/* the network receive path: softirqs, or a NAPI thread of its own */
	static const char *const soft_names[] = { "handle_softirqs", "__do_softirq", "run_ksoftirqd", "net_rx_action",
						  "napi_threaded_poll", NULL };
	/* Where an interrupt held back while interrupts were off is taken
	 * (the names hold these words: pvm_irq_enable and its thunk,
	 * _raw_spin_unlock_irqrestore, __local_bh_enable_ip ...). */
	static const char *const skid_words[] = { "irq_enable", "unlock_irq", "restore_fl", "local_bh_enable", NULL };
	static const char *const idle_names[] = { "do_idle", "cpu_startup_entry", NULL };
	struct perf_event_attr a;
	struct profile *p;
	long page = sysconf(_SC_PAGESIZE);
	int rc;

	*out = NULL;
	if (hz > PROFILE_HZ_MAX) {
		snprintf(err, errlen, "a sampling rate of %u Hz: at most %d", hz, PROFILE_HZ_MAX);
		return -EINVAL;
	}
	if (!cpuset_count(cpus)) {
		snprintf(err, errlen, "no CPU to profile");
		return -EINVAL;
	}
	if (!(p = calloc(1, sizeof(*p)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	if (!(p->r = calloc(cpuset_count(cpus), sizeof(*p->r))) || !(p->chunk = malloc((size_t)page * RING_PAGES))) {
		profile_destroy(p);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->cpus = *cpus;
	p->hz = hz ? hz : PROFILE_HZ_DEFAULT;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.freq = 1;
	a.sample_freq = p->hz;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.disabled = 1;
	a.exclude_callchain_user = 1;
	a.sample_max_stack = MAX_STACK;
	for (int cpu = cpuset_next(cpus, 0); cpu >= 0; cpu = cpuset_next(cpus, (unsigned int)cpu + 1)) {
		struct ring *r = &p->r[p->nr];
		long fd = perf_open(&a, cpu);

		if (fd < 0) {
			rc = -errno;
			if (rc == -EACCES || rc == -EPERM) {
				char lvl[16] = "";
				FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

				if (f) {
					if (!fgets(lvl, sizeof(lvl), f))
						lvl[0] = '\0';
					fclose(f);
				}
				lvl[strcspn(lvl, "\n")] = '\0';
				snprintf(err, errlen, "perf_event_open on CPU %d: %s (kernel.perf_event_paranoid is %s; "
					 "sampling every task of a CPU needs root or CAP_PERFMON, or the setting at 0 or "
					 "below)", cpu, strerror(-rc), lvl[0] ? lvl : "unknown");
			} else
				snprintf(err, errlen, "perf_event_open (cpu-clock sampling) on CPU %d: %s", cpu,
					 strerror(-rc));
			profile_destroy(p);
			return rc == -EPERM ? -EACCES : rc;
		}
		r->fd = (int)fd;
		r->len = (size_t)page * (RING_PAGES + 1);
		r->base = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
		if (r->base == MAP_FAILED) {
			rc = -errno;
			r->base = NULL;
			close(r->fd);
			snprintf(err, errlen, "the sampling ring of CPU %d: %s", cpu, strerror(-rc));
			profile_destroy(p);
			return rc;
		}
		p->nr++;
	}
	/* after the events: not being allowed to sample is the first reason */
	if ((rc = load_kallsyms(p, err, errlen))) {
		profile_destroy(p);
		return rc;
	}
	p->nsoftirq = ranges_of(p, soft_names, true, p->softirq, 6);
	p->nidle = ranges_of(p, idle_names, true, p->idle, 2);
	p->nskid = ranges_of(p, skid_words, false, p->skid, 64);
	*out = p;
	return 0;
}

int profile_start(struct profile *p, char *err, size_t errlen)
{
	int rc;

	p->running = true;
	if ((rc = pthread_create(&p->thread, NULL, reader, p))) {
		p->running = false;
		snprintf(err, errlen, "the profile's reader: %s", strerror(rc));
		return -rc;
	}
	p->thread_up = true;
	p->t0 = clock_mono_ns();
	for (unsigned int i = 0; i < p->nr; i++)
		ioctl(p->r[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

void profile_stop(struct profile *p)
{
	if (!p || !p->thread_up)
		return;
	for (unsigned int i = 0; i < p->nr; i++)
		ioctl(p->r[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	p->t1 = clock_mono_ns();
	__atomic_store_n(&p->running, false, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	p->thread_up = false;
	drain_all(p);
}

struct symcount {
	const char *name;
	uint64_t n;
};

static int cmp_count(const void *a, const void *b)
{
	const struct symcount *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_name(const void *a, const void *b)
{
	const struct symcount *x = a, *y = b;

	return strcmp(x->name, y->name);
}

void profile_read(struct profile *p, unsigned int top, struct profile_result *r)
{
	struct symcount *sc;
	size_t n = 0, m = 0;
	uint64_t busy;

	memset(r, 0, sizeof(*r));
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	r->hz = p->hz;
	r->seconds = p->t1 > p->t0 ? (double)(p->t1 - p->t0) / NSEC_PER_SEC : 0;
	r->samples = p->samples;
	r->idle = p->idle_n;
	r->softirq = p->softirq_n;
	r->user = p->user_n;
	r->deferred = p->deferred_n;
	r->lost = p->lost;
	busy = p->samples - p->idle_n;
	r->busy_pct = p->samples ? 100.0 * (double)busy / (double)p->samples : 0;
	r->softirq_pct = busy ? 100.0 * (double)p->softirq_n / (double)busy : 0;
	r->deferred_pct = busy ? 100.0 * (double)p->deferred_n / (double)busy : 0;
	busy -= p->deferred_n;	/* the shares are of the samples that name a function */
	r->valid = p->samples > 0;
	/* by symbol: each counted ip named, then the same names added up */
	if ((sc = calloc(p->used + 2, sizeof(*sc)))) {
		for (size_t i = 0; i < p->cap; i++)
			if (p->ips[i].ip) {
				const struct sym *s = sym_of(p, p->ips[i].ip);

				sc[n].name = s ? s->name : "[unknown]";
				sc[n++].n = p->ips[i].n;
			}
		if (p->user_n) {
			sc[n].name = "[user]";
			sc[n++].n = p->user_n;
		}
		qsort(sc, n, sizeof(*sc), cmp_name);
		for (size_t i = 0; i < n; i++) {
			if (m && !strcmp(sc[m - 1].name, sc[i].name))
				sc[m - 1].n += sc[i].n;
			else
				sc[m++] = sc[i];
		}
		qsort(sc, m, sizeof(*sc), cmp_count);
		if (top > PROFILE_TOP_MAX)
			top = PROFILE_TOP_MAX;
		for (size_t i = 0; i < m && r->n < top; i++) {
			struct profile_entry *e = &r->e[r->n++];

			snprintf(e->sym, sizeof(e->sym), "%s", sc[i].name);
			e->samples = sc[i].n;
			e->pct = busy ? 100.0 * (double)sc[i].n / (double)busy : 0;
		}
		free(sc);
	}
	pthread_mutex_unlock(&p->lock);
}

void profile_destroy(struct profile *p)
{
	if (!p)
		return;
	profile_stop(p);
	for (unsigned int i = 0; p->r && i < p->nr; i++) {
		if (p->r[i].base)
			munmap(p->r[i].base, p->r[i].len);
		close(p->r[i].fd);
	}
	pthread_mutex_destroy(&p->lock);
	free(p->r);
	free(p->ips);
	free(p->chunk);
	free(p);
}
