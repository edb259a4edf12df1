#include "dut/dut.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "core/ns.h"
#include "dut/agent_proto.h"
#include "dut/envcap.h"
#include "dut/soak.h"
#include "lab/lab.h"
#include "lab/vm_lab.h"
#include "os/clock.h"
#include "os/netns.h"
#include "os/procstat.h"

/* How long an answer may take once the agent runs: a snapshot is a few
 * ms, a hello measures the CPUs' distances (well under a second), a soak
 * start loads its calibration. Far above any of them, so only a stuck
 * DUT or a dead link reaches it. */
#define DUT_ANSWER_MS 30000
/* ssh's own connect timeout when --ssh-option does not set one. */
#define DUT_CONNECT_S 10

struct dut {
	struct dut_target t;
	char name[DUT_HOST_MAX + DUT_USER_MAX + 32];
	pid_t pid;
	int fd;				/* the agent's stdin and stdout */
	int err_fd;			/* its stderr (ssh's messages) */
	char *buf;
	size_t have;
	char errtail[512];		/* the last of what it said on stderr */
	size_t errlen;
	struct envcap env;
	bool dead;
	int vm_lock;			/* a VM lab's agent port, held while the session lasts */
	char agent[80];			/* what the agent said it is ("wirerate 0.9"), made printable */
	json_object *supports;		/* its hello's "supports" (NULL: none) */
};

static void drain_stderr(struct dut *d)
{
	char tmp[512];
	ssize_t n;

	while ((n = read(d->err_fd, tmp, sizeof(tmp))) > 0) {
		/* Keep the last bytes: ssh says why at the end. */
		if ((size_t)n >= sizeof(d->errtail) - 1) {
			memcpy(d->errtail, tmp + n - (sizeof(d->errtail) - 1), sizeof(d->errtail) - 1);
			d->errlen = sizeof(d->errtail) - 1;
		} else {
			if (d->errlen + (size_t)n >= sizeof(d->errtail)) {
				size_t drop = d->errlen + (size_t)n - (sizeof(d->errtail) - 1);

				memmove(d->errtail, d->errtail + drop, d->errlen - drop);
				d->errlen -= drop;
			}
			memcpy(d->errtail + d->errlen, tmp, (size_t)n);
			d->errlen += (size_t)n;
		}
		d->errtail[d->errlen] = 0;
	}
}

/* The last non-empty line the agent or ssh wrote on stderr, made safe to
 * print (it came from another host). */
static const char *last_line(struct dut *d, char *out, size_t len)
{
	char *s = d->errtail, *end = s + d->errlen, *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	snprintf(out, len, "%.*s", (int)(end - start), start);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
	return out;
}

/* Reap the agent's process (ssh, or the lab's agent) within grace_ms,
 * then SIGTERM (the agent restores on it) and 1 s more, then SIGKILL:
 * every wait bounded, at most grace_ms + 1 s and a SIGKILL's reap.
 * Its status in *status when it ended by itself or on SIGTERM. */
#define DUT_TERM_MS 1000
static void reap(struct dut *d, unsigned int grace_ms, int *status)
{
	int st = 0;

	if (d->pid <= 0)
		return;
	for (unsigned int waited = 0, sig = 0;; waited += 20) {
		pid_t r = waitpid(d->pid, &st, WNOHANG);

		if (r == d->pid || (r < 0 && errno != EINTR)) {
			if (r == d->pid && status)
				*status = st;
			break;
		}
		if (!sig && waited >= grace_ms) {
			kill(d->pid, SIGTERM);
			sig = 1;
			waited = 0;
			grace_ms = DUT_TERM_MS;
		} else if (sig && waited >= grace_ms) {
			kill(d->pid, SIGKILL);
			while (waitpid(d->pid, NULL, 0) < 0 && errno == EINTR)
				;
			break;
		}
		usleep(20000);
	}
	d->pid = -1;
}

/* A session that timed out ends at once: nothing more is asked (no bye,
 * no restore over a link that does not answer) and its process is ended
 * without a wait for it to go by itself. */
static void abandon(struct dut *d)
{
	d->dead = true;
	if (d->fd >= 0) {
		close(d->fd);
		d->fd = -1;
	}
	reap(d, 0, NULL);
}

/* How long the agent's process may take to end by itself once its end of
 * the pipe closed (ssh says why and exits at once). */
#define DUT_EXIT_MS 2000

/* Why the agent ended before answering, from its exit status. */
static int explain_death(struct dut *d, char *err, size_t errlen)
{
	char line[512];
	int status = 0;

	drain_stderr(d);
	reap(d, DUT_EXIT_MS, &status);
	d->dead = true;
	last_line(d, line, sizeof(line));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "%s: '%s' was not found on the DUT: install wirerate there (the same version as here) or give its path with --dut-agent",
			 d->name, d->t.agent ? d->t.agent : "wirerate");
		return -ENOENT;
	}
	if (d->t.kind == DUT_SSH && WIFEXITED(status) && WEXITSTATUS(status) == 255) {
		snprintf(err, errlen, "%s: ssh could not reach the DUT: %s", d->name, line[0] ? line : "no reason given");
		return -EHOSTUNREACH;
	}
	snprintf(err, errlen, "%s: the agent ended%s%s", d->name, line[0] ? ": " : "", line);
	return -EPIPE;
}

/* One line from the agent within timeout_ms, parsed. */
static json_object *read_answer(struct dut *d, unsigned int timeout_ms, int *rc, char *err, size_t errlen)
{
	uint64_t deadline = clock_mono_ms() + timeout_ms;

	for (;;) {
		char *nl = d->have ? memchr(d->buf, '\n', d->have) : NULL;
		struct pollfd p[2] = { { .fd = d->fd, .events = POLLIN }, { .fd = d->err_fd, .events = POLLIN } };
		uint64_t t;
		ssize_t r;

		if (nl) {
			size_t len = (size_t)(nl - d->buf) + 1;
			json_object *o = agent_proto_parse(d->buf, len, err, errlen);

			memmove(d->buf, d->buf + len, d->have - len);
			d->have -= len;
			if (!o) {
				char why[256];

				snprintf(why, sizeof(why), "%s", err);
				snprintf(err, errlen, "%s: the agent's answer is garbled: %s", d->name, why);
				*rc = -EPROTO;
				abandon(d);	/* nothing it says next can be trusted */
			}
			return o;
		}
		if (d->have >= AGENT_RESP_MAX) {
			snprintf(err, errlen, "%s: an answer longer than %d bytes", d->name, AGENT_RESP_MAX);
			*rc = -EPROTO;
			abandon(d);
			return NULL;
		}
		t = clock_mono_ms();
		if (t >= deadline) {
			snprintf(err, errlen, "%s: no answer from the agent within %u s", d->name, timeout_ms / 1000);
			*rc = -ETIMEDOUT;
			abandon(d);
			return NULL;
		}
		if (poll(p, 2, (int)(deadline - t)) < 0 && errno != EINTR) {
			*rc = -errno;
			snprintf(err, errlen, "%s: %s", d->name, strerror(errno));
			return NULL;
		}
		if (p[1].revents)
			drain_stderr(d);
		if (!p[0].revents)
			continue;
		r = read(d->fd, d->buf + d->have, AGENT_RESP_MAX - d->have);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0) {
			*rc = explain_death(d, err, errlen);
			return NULL;
		}
		d->have += (size_t)r;
	}
}

/* Send req (consumed), wait for the answer; -EIO with the agent's reason
 * when it said no. */
static json_object *ask(struct dut *d, json_object *req, unsigned int timeout_ms, int *rc, char *err, size_t errlen)
{
	size_t n, off = 0;
	char *line = agent_proto_line(req, &n);
	json_object *o;

	json_object_put(req);
	*rc = 0;
	if (!line) {
		*rc = -ENOMEM;
		return NULL;
	}
	if (d->dead) {
		free(line);
		snprintf(err, errlen, "%s: the agent is gone", d->name);
		*rc = -EPIPE;
		return NULL;
	}
	while (off < n) {
		ssize_t w = send(d->fd, line + off, n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			free(line);
			*rc = explain_death(d, err, errlen);
			return NULL;
		}
		off += (size_t)w;
	}
	free(line);
	if (!(o = read_answer(d, timeout_ms, rc, err, errlen)))
		return NULL;
	if (!agent_proto_bool(o, "ok")) {
		char why[300];

		snprintf(why, sizeof(why), "%s", agent_proto_str(o, "error", "no reason given"));
		for (char *p = why; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = '?';
		snprintf(err, errlen, "%s: %s", d->name, why);
		/* The agent says when the request itself was wrong (a soak with
		 * no calibration there): that is bad input, not a failed run. */
		*rc = agent_proto_bool(o, "invalid") ? -EINVAL : -EIO;
		/* the caller may still read the answer (hello's version) */
	}
	return o;
}

static json_object *op(const char *name)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "op", json_object_new_string(name));
	return o;
}

/* In the child: become the agent. Never returns. */
static void exec_agent(const struct dut *d, int fd, int err_fd)
{
	char msg[256], cmd[512];
	const char *argv[2 * DUT_SSH_OPTS_MAX + 24];
	unsigned int n = 0;
	char port[16], cto[48];

	dup2(fd, 0);
	dup2(fd, 1);
	dup2(err_fd, 2);
	if (d->t.kind == DUT_LAB) {
		char ns[NETNS_NAME_MAX];
		int nsfd;

		lab_ns_name(d->t.prefix, LAB_DUT, ns, sizeof(ns));
		nsfd = netns_open(ns);
		if (nsfd < 0) {
			dprintf(2, "the lab %s is not up (no namespace %s): run 'wirerate lab up --prefix %s'\n",
				d->t.prefix, ns, d->t.prefix);
			_exit(3);
		}
		if (netns_become(nsfd, ns, msg, sizeof(msg))) {
			dprintf(2, "%s\n", msg);
			_exit(3);
		}
		close(nsfd);
	}
	if (d->t.kind == DUT_NETNS) {
		int nsfd = netns_open(d->t.netns);

		if (nsfd < 0) {
			dprintf(2, "no network namespace %s (ip netns list shows them)\n", d->t.netns);
			_exit(3);
		}
		if (netns_become(nsfd, d->t.netns, msg, sizeof(msg))) {
			dprintf(2, "%s\n", msg);
			_exit(3);
		}
		close(nsfd);
	}
	if (d->t.kind != DUT_SSH && cpuset_count(&d->t.avoid)) {
		cpu_set_t set;
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);

		CPU_ZERO(&set);
		for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
			if (!cpuset_has(&d->t.avoid, (unsigned int)c))
				CPU_SET((int)c, &set);
		/* Nothing left (every CPU is the DUT's): run where it may. */
		if (CPU_COUNT(&set))
			sched_setaffinity(0, sizeof(set), &set);
	}
	if (d->t.kind != DUT_SSH) {
		/* the lab's own agent also runs 'lab exec' commands */
		if (d->t.kind == DUT_LAB)
			execl("/proc/self/exe", "wirerate", "agent", "--exec", (char *)NULL);
		else
			execl("/proc/self/exe", "wirerate", "agent", (char *)NULL);
		dprintf(2, "cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(127);
	}
	argv[n++] = "ssh";
	argv[n++] = "-T";			/* no terminal: a byte stream */
	/* The user's options first: ssh keeps the first value it is given
	 * for each, so these override the defaults below. */
	for (unsigned int i = 0; i < d->t.nssh_opts; i++) {
		argv[n++] = "-o";
		argv[n++] = d->t.ssh_opts[i];
	}
	argv[n++] = "-o";
	argv[n++] = "BatchMode=yes";		/* never ask for a password */
	argv[n++] = "-o";
	snprintf(cto, sizeof(cto), "ConnectTimeout=%u", d->t.connect_timeout_s ? d->t.connect_timeout_s : DUT_CONNECT_S);
	argv[n++] = cto;
	/* A dead link is noticed by ssh within 15 s, which ends the agent's
	 * input on the DUT: it restores on its own. */
	argv[n++] = "-o";
	argv[n++] = "ServerAliveInterval=5";
	argv[n++] = "-o";
	argv[n++] = "ServerAliveCountMax=3";
	if (d->t.port) {
		snprintf(port, sizeof(port), "%u", d->t.port);
		argv[n++] = "-p";
		argv[n++] = port;
	}
	if (d->t.user[0]) {
		argv[n++] = "-l";
		argv[n++] = d->t.user;
	}
	argv[n++] = "--";
	argv[n++] = d->t.host;
	snprintf(cmd, sizeof(cmd), "%s agent", d->t.agent ? d->t.agent : "wirerate");
	argv[n++] = cmd;
	argv[n] = NULL;
	execvp("ssh", (char *const *)argv);
	dprintf(2, "cannot run ssh: %s (install openssh-client)\n", strerror(errno));
	_exit(126);
}

/* A VM lab's guest runs the agent already, behind a virtio-serial port
 * whose other end is a Unix socket of QEMU's: connect, no child. */
static int start_vm(struct dut *d, char *err, size_t errlen)
{
	json_object *o;
	int rc;

	d->pid = -1;
	if ((rc = vm_lab_agent_connect(d->t.prefix, &d->fd, &d->vm_lock, err, errlen)))
		return rc;
	/* The guest's banner: its end is open. Without one in time (a guest
	 * whose last session still serves this port), speak all the same. */
	if ((o = read_answer(d, LABVM_BANNER_MS, &rc, err, errlen))) {
		bool banner = agent_proto_str(o, "banner", NULL) != NULL;

		json_object_put(o);
		if (!banner) {
			snprintf(err, errlen, "%s: the VM's agent spoke before it was asked", d->name);
			return -EPROTO;
		}
	} else if (rc != -ETIMEDOUT) {
		return rc;
	}
	return 0;
}

static int start(struct dut *d, char *err, size_t errlen)
{
	int sv[2], ep[2];

	if (d->t.kind == DUT_LAB && vm_lab_present(d->t.prefix))
		return start_vm(d, err, errlen);

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	if (pipe2(ep, O_CLOEXEC)) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	fflush(NULL);
	d->pid = fork();
	if (d->pid < 0) {
		int rc = -errno;

		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		close(ep[0]);
		close(ep[1]);
		return rc;
	}
	if (d->pid == 0) {
		/* The agent must not die with the tester's Ctrl-C: it sees
		 * its input end and restores. ssh ignores it as well, so
		 * the connection outlives the signal long enough to say
		 * bye. */
		signal(SIGINT, SIG_IGN);
		close(sv[0]);
		close(ep[0]);
		exec_agent(d, sv[1], ep[1]);
	}
	close(sv[1]);
	close(ep[1]);
	d->fd = sv[0];
	d->err_fd = ep[0];
	fcntl(d->err_fd, F_SETFL, O_NONBLOCK);
	return 0;
}

int dut_open(const struct dut_target *t, const char *const *ifnames, unsigned int nif,
	     struct dut **out, char *err, size_t errlen)
{
	struct dut *d = calloc(1, sizeof(*d));
	json_object *req, *ans, *ifs;
	uint64_t v;
	int rc;

	*out = NULL;
	if (!d || !(d->buf = malloc(AGENT_RESP_MAX + 1))) {
		free(d);
		return -ENOMEM;
	}
	d->t = *t;
	d->fd = d->err_fd = d->vm_lock = -1;
	duttarget_name(t, d->name, sizeof(d->name));
	if ((rc = start(d, err, errlen))) {
		dut_close(d);
		return rc;
	}
	req = op("hello");
	json_object_object_add(req, "version", json_object_new_int(AGENT_PROTO_VERSION));
	ifs = json_object_new_array();
	for (unsigned int i = 0; i < nif; i++)
		json_object_array_add(ifs, json_object_new_string(ifnames[i]));
	json_object_object_add(req, "ifaces", ifs);
	/* The first answer waits for ssh's connection too. */
	ans = ask(d, req, DUT_ANSWER_MS + (t->connect_timeout_s ? t->connect_timeout_s : DUT_CONNECT_S) * 1000,
		  &rc, err, errlen);
	v = ans ? agent_proto_u64(ans, "version") : 0;
	if (ans && v != AGENT_PROTO_VERSION) {
		snprintf(err, errlen, "%s: the agent speaks protocol version %llu and this wirerate speaks %d: install the same wirerate version on both",
			 d->name, (unsigned long long)v, AGENT_PROTO_VERSION);
		rc = -EPROTO;
	}
	if (!rc) {
		json_object *sup;

		snprintf(d->agent, sizeof(d->agent), "%s", agent_proto_str(ans, "agent", "an unnamed agent"));
		for (char *p = d->agent; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
		if (json_object_object_get_ex(ans, "supports", &sup) && json_object_is_type(sup, json_type_object))
			d->supports = json_object_get(sup);
		agent_proto_get_env(ans, "env", "dut.", &d->env);
		envcap_kv_set(&d->env, "dut.name", "%s", d->name);	/* what the tester asked for */
	}
	json_object_put(ans);
	if (rc) {
		dut_close(d);
		return rc == -EIO ? -EPROTO : rc;
	}
	*out = d;
	return 0;
}

const struct envcap *dut_env(const struct dut *d)
{
	return &d->env;
}

const char *dut_name(const struct dut *d)
{
	return d->name;
}

const char *dut_agent(const struct dut *d)
{
	return d->agent;
}

bool dut_supports(const struct dut *d, const char *what)
{
	json_object *v;

	return d->supports && json_object_object_get_ex(d->supports, what, &v) &&
	       json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
}

json_object *dut_ask(struct dut *d, json_object *req, unsigned int timeout_ms, int *rc, char *err, size_t errlen)
{
	return ask(d, req, timeout_ms ? timeout_ms : DUT_ANSWER_MS, rc, err, errlen);
}

static int snapshot(struct dut *d, const char *what, struct dutsnap *s, char *err, size_t errlen)
{
	json_object *req = op("snapshot"), *ans;
	int rc;

	json_object_object_add(req, "what", json_object_new_string(what));
	ans = ask(d, req, DUT_ANSWER_MS, &rc, err, errlen);

	if (!rc && (rc = agent_proto_get_snap(ans, s, err, errlen))) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", d->name, why);
	}
	json_object_put(ans);
	return rc;
}

int dut_snapshot(struct dut *d, struct dutsnap *s, char *err, size_t errlen)
{
	return snapshot(d, "all", s, err, errlen);
}

int dut_exec(struct dut *d, char *const *argv, unsigned int timeout_ms, int *status, char **output,
	     char *err, size_t errlen)
{
	json_object *req = op("exec"), *av = json_object_new_array(), *ans, *v;
	int rc;

	*output = NULL;
	*status = -1;
	for (size_t i = 0; argv[i]; i++)
		json_object_array_add(av, json_object_new_string(argv[i]));
	json_object_object_add(req, "argv", av);
	json_object_object_add(req, "timeout_ms", json_object_new_int64(timeout_ms));
	/* the command's own time, and the answer's after it */
	ans = ask(d, req, timeout_ms + DUT_ANSWER_MS, &rc, err, errlen);
	if (!rc) {
		*status = (int)agent_proto_u64(ans, "status");
		if (json_object_object_get_ex(ans, "output", &v) && json_object_is_type(v, json_type_string))
			*output = strndup(json_object_get_string(v), (size_t)json_object_get_string_len(v));
		if (agent_proto_bool(ans, "timed_out")) {
			snprintf(err, errlen, "%s: the command did not end within %u s", d->name, timeout_ms / 1000);
			rc = -ETIMEDOUT;
		}
	}
	json_object_put(ans);
	return rc;
}

int dut_procstat(struct dut *d, const char *irq_filter, struct procstat_sample *p, char *err, size_t errlen)
{
	struct dutsnap *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	memset(p, 0, sizeof(*p));
	if (!(rc = snapshot(d, "proc", s, err, errlen))) {
		p->t_ns = s->t_ns;
		rc = procstat_parse(s->proc_stat, s->proc_interrupts, s->proc_softirqs, s->proc_softnet, irq_filter, p,
				    err, errlen);
	}
	dutsnap_clear(s);
	free(s);
	return rc;
}

int dut_soak_start(struct dut *d, const struct cpuset *cpus, const char *calib_path, struct soak_idle *check,
		   bool *checked, char *err, size_t errlen)
{
	char list[1024];
	json_object *req = op("soak_start"), *ans;
	int rc;

	cpuset_format_list(cpus, list, sizeof(list));
	json_object_object_add(req, "cpus", json_object_new_string(list));
	/* A tester's path means nothing on another box: a remote DUT, and
	 * a VM lab's guest (which made its own as it booted), keep their
	 * calibration in their own default place. */
	if (calib_path && d->t.kind != DUT_SSH && d->vm_lock < 0)
		json_object_object_add(req, "calibration", json_object_new_string(calib_path));
	ans = ask(d, req, DUT_ANSWER_MS, &rc, err, errlen);
	if (!rc && check) {
		bool got = agent_proto_get_check(ans, check);

		if (checked)
			*checked = got;
	}
	json_object_put(ans);
	return rc;
}

int dut_stall_start(struct dut *d, const struct cpuset *cpus, char *err, size_t errlen)
{
	char list[1024];
	json_object *req = op("stall_start");
	int rc;

	cpuset_format_list(cpus, list, sizeof(list));
	json_object_object_add(req, "cpus", json_object_new_string(list));
	json_object_put(ask(d, req, DUT_ANSWER_MS, &rc, err, errlen));
	return rc;
}

static int profile_op(struct dut *d, const char *what, const struct cpuset *cpus, unsigned int hz, char *err,
		      size_t errlen)
{
	char list[1024];
	json_object *req = op(what);
	int rc;

	cpuset_format_list(cpus, list, sizeof(list));
	json_object_object_add(req, "cpus", json_object_new_string(list));
	json_object_object_add(req, "hz", json_object_new_int64(hz));
	json_object_put(ask(d, req, DUT_ANSWER_MS, &rc, err, errlen));
	return rc;
}

int dut_profile_prepare(struct dut *d, const struct cpuset *cpus, unsigned int hz, char *err, size_t errlen)
{
	return profile_op(d, "profile_prepare", cpus, hz, err, errlen);
}

int dut_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz, char *err, size_t errlen)
{
	return profile_op(d, "profile_start", cpus, hz, err, errlen);
}

int dut_profile_read(struct dut *d, unsigned int top, struct profile_result *r, char *err, size_t errlen)
{
	json_object *req = op("profile_read"), *ans;
	int rc;

	json_object_object_add(req, "top", json_object_new_int64(top));
	ans = ask(d, req, DUT_ANSWER_MS, &rc, err, errlen);
	if (!rc)
		agent_proto_get_profile(ans, r);
	json_object_put(ans);
	return rc;
}

int dut_stall_read(struct dut *d, struct stallprobe_result *r, char *err, size_t errlen)
{
	int rc;
	json_object *ans = ask(d, op("stall_read"), DUT_ANSWER_MS, &rc, err, errlen);

	if (!rc)
		agent_proto_get_stall(ans, r);
	json_object_put(ans);
	return rc;
}

int dut_soak_read(struct dut *d, struct soak_calib_busy *l, char *err, size_t errlen)
{
	int rc;
	json_object *ans = ask(d, op("soak_read"), DUT_ANSWER_MS, &rc, err, errlen);

	if (!rc)
		agent_proto_get_load(ans, l);
	json_object_put(ans);
	return rc;
}

int dut_soak_stop(struct dut *d, char *err, size_t errlen)
{
	int rc;

	json_object_put(ask(d, op("soak_stop"), DUT_ANSWER_MS, &rc, err, errlen));
	return rc;
}

int dut_apply(struct dut *d, const struct dut_apply *a, char *what, size_t whatlen, char *err, size_t errlen)
{
	static const char *const names[] = { "keep", "bound", "split", "free" };
	json_object *req = op("apply"), *ans;
	char list[1024];
	int rc;

	json_object_object_add(req, "placement", json_object_new_string(names[a->placement]));
	cpuset_format_list(&a->cpus, list, sizeof(list));
	json_object_object_add(req, "cpus", json_object_new_string(list));
	if (a->rules_set)
		json_object_object_add(req, "rules", json_object_new_int64(a->rules));
	if (a->need_irqs)
		json_object_object_add(req, "need_irqs", json_object_new_boolean(1));
	ans = ask(d, req, DUT_ANSWER_MS, &rc, err, errlen);
	if (!rc && what)
		snprintf(what, whatlen, "%s", agent_proto_str(ans, "applied", ""));
	json_object_put(ans);
	return rc;
}

int dut_restore(struct dut *d, char *err, size_t errlen)
{
	int rc;

	json_object_put(ask(d, op("restore"), DUT_ANSWER_MS, &rc, err, errlen));
	return rc;
}

void dut_close(struct dut *d)
{
	if (!d)
		return;
	if ((d->pid > 0 || d->vm_lock >= 0) && !d->dead && d->fd >= 0) {
		char err[256];
		int rc;

		json_object_put(ask(d, op("bye"), DUT_ANSWER_MS, &rc, err, sizeof(err)));
	}
	if (d->fd >= 0)
		close(d->fd);
	/* After bye the agent exits at once; give it 5 s, then end it (it
	 * restores on SIGTERM as well), bounded. */
	reap(d, 5000, NULL);
	if (d->err_fd >= 0)
		close(d->err_fd);
	if (d->vm_lock >= 0)
		close(d->vm_lock);
	json_object_put(d->supports);
	free(d->buf);
	free(d);
}
