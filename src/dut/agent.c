#include "dut/agent.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "dut/agent_apply.h"
#include "dut/agent_proto.h"
#include "dut/envcap.h"
#include "dut/snapread.h"
#include "dut/soak.h"
#include "dut/agent_exec.h"
#include "dut/profile.h"
#include "dut/stallprobe.h"
#include "os/clock.h"
#include "os/fs.h"
#include "os/procstat.h"
#include "os/nft.h"
#include "wr_config.h"

struct agent {
	char ifnames[DUTSNAP_IF_MAX][64];
	const char *ifptr[DUTSNAP_IF_MAX];
	unsigned int nif;
	bool hello;
	struct soak *soak;
	struct soak_snap last;		/* where the next soak_read counts from */
	struct stallprobe *stall;
	struct profile *prof;
	struct agent_apply apply;
	int out_fd;
	bool allow_exec;		/* a VM lab's guest: lab exec runs commands */
	const struct agent_ext *ext;
};

/* FNV-1a, 64 bits: a fingerprint of a file to tell two kernels' configs
 * or two rulesets apart, not a digest anyone has to trust. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}
#define FNV_START 0xcbf29ce484222325ull

/* The kernel's build configuration: /boot/config-RELEASE where the
 * distribution installs it, else the kernel's own /proc/config.gz
 * uncompressed (both give the same text, so the same hash). */
static bool config_hash(const char *release, uint64_t *h)
{
	char path[512], buf[65536];
	gzFile g;
	int n;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "/proc/config.gz");
	if (!(g = gzopen(path, "rb")))	/* gzread reads plain files too */
		return false;
	*h = FNV_START;
	while ((n = gzread(g, buf, sizeof(buf))) > 0)
		*h = fnv1a(*h, buf, (size_t)n);
	gzclose(g);
	return n == 0;
}

static void hello_env(struct agent *a, struct envcap *e)
{
	char buf[256], e2[256], *rules;
	uint64_t h;
	const char *rel;

	envcap_host(e, NULL);
	rel = envcap_kv_get(e, "kernel.release");
	if (rel && config_hash(rel, &h))
		envcap_kv_set(e, "kernel.config_hash", "%016llx", (unsigned long long)h);
	if (fs_read(NULL, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = 0;
		envcap_kv_set(e, "cpu.governor", "%s", buf);
	} else {
		envcap_kv_set(e, "cpu.governor", "none");
	}
	if (!nft_ruleset_text(&rules, e2, sizeof(e2))) {
		envcap_kv_set(e, "nft.ruleset_hash", "%016llx", (unsigned long long)fnv1a(FNV_START, rules, strlen(rules)));
		free(rules);
	}
	for (unsigned int i = 0; i < a->nif; i++)
		envcap_port(e, a->ifnames[i], -1, a->ifnames[i], NULL, true);
}

static json_object *ok(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ok", json_object_new_boolean(1));
	return o;
}

static json_object *do_hello(struct agent *a, json_object *req)
{
	uint64_t v = agent_proto_u64(req, "version");
	json_object *ifs, *o, *sup;
	struct envcap *e;
	char why[160];
	size_t n;

	if (v != AGENT_PROTO_VERSION) {
		snprintf(why, sizeof(why), "protocol version %llu is not spoken here", (unsigned long long)v);
		o = agent_proto_error(why);
		json_object_object_add(o, "version", json_object_new_uint64(AGENT_PROTO_VERSION));
		return o;
	}
	a->nif = 0;
	if (json_object_object_get_ex(req, "ifaces", &ifs) && json_object_is_type(ifs, json_type_array)) {
		n = json_object_array_length(ifs);
		for (size_t i = 0; i < n; i++) {
			const char *s = json_object_get_string(json_object_array_get_idx(ifs, i));

			if (a->nif == DUTSNAP_IF_MAX)
				return agent_proto_error("too many interfaces");
			/* An interface name: what the kernel allows and no path
			 * tricks, since it lands in /sys paths. */
			if (!s || !*s || strlen(s) > 15 || strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, ".."))
				return agent_proto_error("an interface name is not valid");
			snprintf(a->ifnames[a->nif], sizeof(a->ifnames[0]), "%s", s);
			a->ifptr[a->nif] = a->ifnames[a->nif];
			a->nif++;
		}
	}
	if (!(e = calloc(1, sizeof(*e))))
		return agent_proto_error("out of memory");
	hello_env(a, e);
	o = ok();
	json_object_object_add(o, "version", json_object_new_uint64(AGENT_PROTO_VERSION));
	json_object_object_add(o, "agent", json_object_new_string("wirerate " WR_VERSION));
	sup = json_object_new_object();
	json_object_object_add(sup, "root", json_object_new_boolean(geteuid() == 0));
	json_object_object_add(sup, "nft", json_object_new_boolean(envcap_kv_get(e, "nft.ruleset_hash") != NULL));
	if (a->ext)
		json_object_object_add(sup, a->ext->name, json_object_new_boolean(1));
	json_object_object_add(o, "supports", sup);
	agent_proto_put_env(o, "env", e);
	free(e);
	a->hello = true;
	return o;
}

/* "what":"proc": the /proc texts alone, what the CPU figures need at the
 * start and the end of the traffic; no netlink dump of the interfaces,
 * qdiscs and nft tables while the DUT forwards. */
static int snap_proc(struct dutsnap *s, char *err, size_t errlen)
{
	char e2[256];
	int rc;

	memset(s, 0, sizeof(*s));
	s->t_ns = clock_mono_ns();
	if ((rc = procstat_slurp(NULL, "/proc/stat", &s->proc_stat, err, errlen)))
		return rc;
	procstat_slurp(NULL, "/proc/interrupts", &s->proc_interrupts, e2, sizeof(e2));
	procstat_slurp(NULL, "/proc/softirqs", &s->proc_softirqs, e2, sizeof(e2));
	procstat_slurp(NULL, "/proc/net/softnet_stat", &s->proc_softnet, e2, sizeof(e2));
	return 0;
}

static json_object *do_snapshot(struct agent *a, json_object *req)
{
	struct dutsnap *s = calloc(1, sizeof(*s));
	bool proc = !strcmp(agent_proto_str(req, "what", "all"), "proc");
	char err[256];
	json_object *o;

	if (!s)
		return agent_proto_error("out of memory");
	if (proc ? snap_proc(s, err, sizeof(err)) : snapread(a->ifptr, a->nif, s, err, sizeof(err))) {
		o = agent_proto_error(err);
	} else {
		o = ok();
		agent_proto_put_snap(o, s);
	}
	dutsnap_clear(s);
	free(s);
	return o;
}

static json_object *do_soak_start(struct agent *a, json_object *req)
{
	struct soak_calib *cal;
	struct soak_idle *idle = NULL;
	bool checked = false;
	struct cpuset cpus;
	json_object *o;
	char err[256], path[4096];
	const char *p = agent_proto_str(req, "calibration", NULL);
	int rc;

	if (a->soak)
		return agent_proto_error("a soak is already running");
	if (cpuset_parse_list(agent_proto_str(req, "cpus", ""), &cpus, err, sizeof(err)))
		return agent_proto_error(err);
	if (!(cal = calloc(1, sizeof(*cal))) || !(idle = calloc(1, sizeof(*idle)))) {
		free(cal);
		return agent_proto_error("out of memory");
	}
	if (p)
		snprintf(path, sizeof(path), "%s", p);
	else
		soak_calibration_default_path(path, sizeof(path));
	if ((rc = soak_calibration_load(path, cal, err, sizeof(err))) == -ENOENT)
		snprintf(err, sizeof(err), a->allow_exec ?
			 "no soak calibration in %.100s on the DUT: a VM lab's guest measures one as it boots with "
			 "'lab up --kernel ... --soak-calibrate' (or run 'wirerate lab exec -- wirerate soak --calibrate')" :
			 "no soak calibration in %.100s on the DUT: run 'wirerate soak --calibrate' there on an idle machine first",
			 path);
	if (!rc)
		rc = soak_calibration_verify(cal, err, sizeof(err));
	/* The calibration checked against the CPUs' idle speed now, alone,
	 * before the soakers that measure start: a host whose speed moved
	 * makes the figures untrusted, and the tester says so. */
	if (!rc && !(rc = soak_check_idle(&cpus, cal, 0, 0, idle, err, sizeof(err))))
		checked = true;
	if (!rc && !(rc = soak_create(&cpus, cal, &a->soak, err, sizeof(err))) &&
	    (rc = soak_start(a->soak, err, sizeof(err)))) {
		soak_destroy(a->soak);
		a->soak = NULL;
	}
	if (!rc)
		soak_snap(a->soak, &a->last);
	free(cal);
	if (rc) {
		free(idle);
		o = agent_proto_error(err);

		/* No calibration, or one for another kernel or CPU: the
		 * tester asked for what cannot be, as a bad option would. */
		if (rc == -ENOENT || rc == -ESTALE || rc == -EINVAL)
			json_object_object_add(o, "invalid", json_object_new_boolean(1));
		return o;
	}
	o = ok();
	if (checked)
		agent_proto_put_check(o, idle);
	free(idle);
	return o;
}

static json_object *do_stall_start(struct agent *a, json_object *req)
{
	struct cpuset cpus;
	char err[256];

	stallprobe_destroy(a->stall);
	a->stall = NULL;
	profile_destroy(a->prof);
	a->prof = NULL;
	if (cpuset_parse_list(agent_proto_str(req, "cpus", ""), &cpus, err, sizeof(err)) ||
	    stallprobe_create(&cpus, 0, 0, &a->stall, err, sizeof(err)))
		return agent_proto_error(err);
	if (stallprobe_start(a->stall, err, sizeof(err))) {
		stallprobe_destroy(a->stall);
		a->stall = NULL;
		return agent_proto_error(err);
	}
	return ok();
}

static json_object *do_stall_read(struct agent *a)
{
	struct stallprobe_result *r;
	json_object *o;

	if (!a->stall)
		return agent_proto_error("no stall probe is running");
	if (!(r = calloc(1, sizeof(*r))))
		return agent_proto_error("out of memory");
	stallprobe_stop(a->stall);
	stallprobe_read(a->stall, r);
	stallprobe_destroy(a->stall);
	a->stall = NULL;
	profile_destroy(a->prof);
	a->prof = NULL;
	o = ok();
	agent_proto_put_stall(o, r);
	free(r);
	return o;
}

/* prepare: open the CPUs' events, ready (the symbols read, which takes
 * a while once); start: sample from now, prepared or not. */
static json_object *do_profile_start(struct agent *a, json_object *req, bool start)
{
	struct cpuset cpus;
	char err[256];
	uint64_t hz = agent_proto_u64(req, "hz");

	if (!start || !a->prof) {
		profile_destroy(a->prof);
		a->prof = NULL;
		if (cpuset_parse_list(agent_proto_str(req, "cpus", ""), &cpus, err, sizeof(err)))
			return agent_proto_error(err);
		if (hz > PROFILE_HZ_MAX)
			return agent_proto_error("a sampling rate over the most allowed");
		if (profile_create(&cpus, (unsigned int)hz, &a->prof, err, sizeof(err)))
			return agent_proto_error(err);
	}
	if (start && profile_start(a->prof, err, sizeof(err))) {
		profile_destroy(a->prof);
		a->prof = NULL;
		return agent_proto_error(err);
	}
	return ok();
}

static json_object *do_profile_read(struct agent *a, json_object *req)
{
	struct profile_result *r;
	json_object *o;
	uint64_t top = agent_proto_u64(req, "top");

	if (!a->prof)
		return agent_proto_error("no profile is running");
	if (!(r = calloc(1, sizeof(*r))))
		return agent_proto_error("out of memory");
	profile_stop(a->prof);
	profile_read(a->prof, top > PROFILE_TOP_MAX || !top ? PROFILE_TOP_MAX : (unsigned int)top, r);
	profile_destroy(a->prof);
	a->prof = NULL;
	o = ok();
	agent_proto_put_profile(o, r);
	free(r);
	return o;
}

static json_object *do_soak_read(struct agent *a)
{
	struct soak_calib_busy *l;
	struct soak_snap now;
	json_object *o;

	if (!a->soak)
		return agent_proto_error("no soak is running");
	if (!(l = calloc(1, sizeof(*l))))
		return agent_proto_error("out of memory");
	soak_snap(a->soak, &now);
	soak_load_between(a->soak, &a->last, &now, l);
	a->last = now;
	o = ok();
	agent_proto_put_load(o, l);
	free(l);
	return o;
}

static json_object *do_apply(struct agent *a, json_object *req)
{
	static const char *const names[] = { "keep", "bound", "split", "free" };
	const char *pl = agent_proto_str(req, "placement", "keep");
	struct dut_apply ap = { 0 };
	char err[256], what[256];
	json_object *o;
	unsigned int i;
	int rc;

	for (i = 0; i < 4 && strcmp(pl, names[i]); i++)
		;
	if (i == 4)
		return agent_proto_error("placement must be keep, bound, split or free");
	ap.placement = (enum dut_placement)i;
	if (ap.placement != DUT_PLACE_KEEP &&
	    cpuset_parse_list(agent_proto_str(req, "cpus", ""), &ap.cpus, err, sizeof(err)))
		return agent_proto_error(err);
	if (json_object_object_get_ex(req, "rules", NULL)) {
		uint64_t r = agent_proto_u64(req, "rules");

		if (r > NFT_RULES_MAX)
			return agent_proto_error("too many rules");
		ap.rules_set = true;
		ap.rules = (unsigned int)r;
	}
	ap.need_irqs = agent_proto_bool(req, "need_irqs");
	if ((rc = agent_apply(&a->apply, a->ifnames, a->nif, &ap, what, sizeof(what), err, sizeof(err)))) {
		o = agent_proto_error(err);
		/* a DUT whose ports have no IRQ to place: asked for what cannot be */
		if (rc == -ENOENT)
			json_object_object_add(o, "invalid", json_object_new_boolean(1));
		return o;
	}
	o = ok();
	json_object_object_add(o, "applied", json_object_new_string(what));
	return o;
}

static int restore(struct agent *a, char *err, size_t errlen)
{
	if (a->ext && a->ext->restore)
		a->ext->restore(a->ext->arg);
	if (a->soak) {
		soak_destroy(a->soak);
		a->soak = NULL;
	}
	stallprobe_destroy(a->stall);
	a->stall = NULL;
	profile_destroy(a->prof);
	a->prof = NULL;
	return agent_apply_restore(&a->apply, err, errlen);
}

/* One request in, one answer out; *bye set when the tester is done. */
static json_object *handle(struct agent *a, json_object *req, bool *bye)
{
	const char *op = agent_proto_str(req, "op", "");
	char err[256];

	if (!strcmp(op, "hello"))
		return do_hello(a, req);
	if (!a->hello)
		return agent_proto_error("say hello first");
	if (!strcmp(op, "snapshot"))
		return do_snapshot(a, req);
	if (!strcmp(op, "soak_start"))
		return do_soak_start(a, req);
	if (!strcmp(op, "soak_read"))
		return do_soak_read(a);
	if (!strcmp(op, "soak_stop")) {
		soak_destroy(a->soak);
		a->soak = NULL;
		return ok();
	}
	if (!strcmp(op, "stall_start"))
		return do_stall_start(a, req);
	if (!strcmp(op, "stall_read"))
		return do_stall_read(a);
	if (!strcmp(op, "profile_prepare"))
		return do_profile_start(a, req, false);
	if (!strcmp(op, "profile_start"))
		return do_profile_start(a, req, true);
	if (!strcmp(op, "profile_read"))
		return do_profile_read(a, req);
	if (!strcmp(op, "apply"))
		return do_apply(a, req);
	if (!strcmp(op, "exec"))
		return a->allow_exec ? agent_exec_run(req) :
		       agent_proto_error("exec: only the lab's own agent runs commands (on a DUT of your own, use ssh)");
	if (!strcmp(op, "restore") || !strcmp(op, "bye")) {
		*bye = !strcmp(op, "bye");
		return restore(a, err, sizeof(err)) ? agent_proto_error(err) : ok();
	}
	if (a->ext) {
		json_object *o = a->ext->handle(a->ext->arg, op, req);

		if (o)
			return o;
	}
	return agent_proto_error("unknown op");
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int reply(struct agent *a, json_object *o)
{
	size_t n;
	char *line = agent_proto_line(o, &n);
	int rc = line ? write_all(a->out_fd, line, n) : -ENOMEM;

	free(line);
	json_object_put(o);
	return rc;
}

int agent_serve(int in_fd, int out_fd, const struct agent_cfg *cfg, const volatile sig_atomic_t *stop, char *err,
		size_t errlen)
{
	struct agent *a = calloc(1, sizeof(*a));
	char *buf = malloc(AGENT_REQ_MAX + 1);
	size_t have = 0;
	bool bye = false, eof = false;
	int rc = 0, rc2;

	if (!a || !buf) {
		free(a);
		free(buf);
		return -ENOMEM;
	}
	a->out_fd = out_fd;
	a->allow_exec = cfg->allow_exec;
	a->ext = cfg->ext;
	while (!bye && !eof && !rc && !*stop) {
		struct pollfd p = { .fd = in_fd, .events = POLLIN };
		char *nl;
		ssize_t r;

		/* Wake now and then to see a signal's flag. */
		if (poll(&p, 1, 500) <= 0)
			continue;
		r = read(in_fd, buf + have, AGENT_REQ_MAX - have);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			eof = true;
			break;
		}
		have += (size_t)r;
		while (!rc && !bye && (nl = memchr(buf, '\n', have))) {
			size_t len = (size_t)(nl - buf) + 1;
			json_object *req = agent_proto_parse(buf, len, err, errlen);

			if (req) {
				rc = reply(a, handle(a, req, &bye));
				json_object_put(req);
			} else {
				rc = reply(a, agent_proto_error(err));
			}
			memmove(buf, buf + len, have - len);
			have -= len;
		}
		if (have == AGENT_REQ_MAX) {
			/* A request longer than any the protocol has: answer and
			 * end, since where the next one starts is unknown. */
			reply(a, agent_proto_error("request too long"));
			break;
		}
	}
	if (rc)
		snprintf(err, errlen, "writing to the tester: %s", strerror(-rc));
	rc2 = restore(a, err, errlen);
	free(buf);
	free(a);
	return rc ? rc : rc2;
}
