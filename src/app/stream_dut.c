/* A stream's end on the host under test (stream_dut.h). */
#include "app/stream_dut.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "core/cpuset.h"
#include "core/pace.h"
#include "dut/agent_proto.h"
#include "dut/dut.h"
#include "engine/stream_proto.h"
#include "os/clock.h"
#include "os/procstat.h"
#include "wr_config.h"

/* How long the senders may take to start (connect, HELLO, the server's
 * OK), and to end after their sending (END, the server's half-second
 * wait for datagrams in flight, RESULT). */
#define START_MS 10000
#define END_MS 20000

/* ---- the figures on the wire: both sides ---- */

static json_object *put_cpu(const struct stream_cpu *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ncpus", json_object_new_uint64(c->ncpus));
	json_object_object_add(o, "cpu", json_object_new_int(c->cpu));
	json_object_object_add(o, "busy", json_object_new_double(c->busy));
	return o;
}

static void get_cpu(json_object *o, const char *key, struct stream_cpu *c)
{
	json_object *v = NULL;
	uint64_t n;
	double b;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object))
		return;
	n = agent_proto_u64(v, "ncpus");
	b = agent_proto_f64(v, "busy");
	/* from another host: a count a host can have, a share of 0..1 */
	if (n > STREAM_CPU_MAX + 1 || !isfinite(b) || b < 0 || b > 1)
		return;
	c->ncpus = (unsigned int)n;
	c->busy = b;
	if (json_object_object_get_ex(v, "cpu", &v) && json_object_is_type(v, json_type_int) &&
	    json_object_get_int(v) >= 0 && json_object_get_int(v) <= STREAM_CPU_MAX)
		c->cpu = json_object_get_int(v);
}

static const char *const u64_keys[] = { "sent", "errors", "sent_bytes", "send_ns", "recv", "recv_bytes",
					"recv_ns", "size", "drops" };

static uint64_t *u64_field(struct stream_result *r, unsigned int i)
{
	uint64_t *f[] = { &r->sent, &r->errors, &r->sent_bytes, &r->send_ns, &r->recv, &r->recv_bytes,
			  &r->recv_ns, &r->size, &r->drops };

	return f[i];
}

static json_object *put_sender(const struct stream_sender *s)
{
	json_object *o = json_object_new_object(), *r = json_object_new_object();
	struct stream_result x = s->r;

	json_object_object_add(o, "cpu", json_object_new_int(s->cpu));
	json_object_object_add(o, "rc", json_object_new_int(s->rc));
	json_object_object_add(o, "error", json_object_new_string(s->err));
	for (unsigned int i = 0; i < sizeof(u64_keys) / sizeof(u64_keys[0]); i++)
		json_object_object_add(r, u64_keys[i], json_object_new_uint64(*u64_field(&x, i)));
	json_object_object_add(r, "sndbuf", json_object_new_int(s->r.sndbuf));
	json_object_object_add(r, "rcvbuf", json_object_new_int(s->r.rcvbuf));
	json_object_object_add(r, "interrupted", json_object_new_boolean(s->r.interrupted));
	json_object_object_add(r, "send_cpu", put_cpu(&s->r.send_cpu));
	json_object_object_add(r, "recv_cpu", put_cpu(&s->r.recv_cpu));
	json_object_object_add(o, "result", r);
	return o;
}

/* A sender's figures from the DUT: every count as it came (a u64 can
 * hold any), the rest bounded, the reason made printable. */
static void get_sender(json_object *o, struct stream_sender *s)
{
	json_object *r = NULL;
	int64_t rc = (int64_t)agent_proto_u64(o, "rc");
	int cpu = -1;
	json_object *v;

	memset(s, 0, sizeof(*s));
	if (json_object_object_get_ex(o, "cpu", &v) && json_object_is_type(v, json_type_int) &&
	    json_object_get_int(v) >= 0 && json_object_get_int(v) <= STREAM_CPU_MAX)
		cpu = json_object_get_int(v);
	s->cpu = cpu;
	if (json_object_object_get_ex(o, "rc", &v) && json_object_is_type(v, json_type_int))
		rc = json_object_get_int64(v);
	s->rc = rc < 0 && rc > -4096 ? (int)rc : rc ? -EIO : 0;
	snprintf(s->err, sizeof(s->err), "%s", agent_proto_str(o, "error", ""));
	for (char *p = s->err; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
	if (s->rc && !s->err[0])
		snprintf(s->err, sizeof(s->err), "the DUT's sender failed and said nothing");
	if (!json_object_object_get_ex(o, "result", &r) || !json_object_is_type(r, json_type_object))
		return;
	for (unsigned int i = 0; i < sizeof(u64_keys) / sizeof(u64_keys[0]); i++)
		*u64_field(&s->r, i) = agent_proto_u64(r, u64_keys[i]);
	s->r.sndbuf = (int)(agent_proto_u64(r, "sndbuf") & 0x7fffffff);
	s->r.rcvbuf = (int)(agent_proto_u64(r, "rcvbuf") & 0x7fffffff);
	s->r.interrupted = agent_proto_bool(r, "interrupted");
	get_cpu(r, "send_cpu", &s->r.send_cpu);
	get_cpu(r, "recv_cpu", &s->r.recv_cpu);
}

/* ---- the agent's side ---- */

struct dut_end {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* senders */
	bool sending;			/* a thread runs them */
	pthread_t th;
	bool started, ended, done;	/* the window opened, closed; the thread ended */
	volatile sig_atomic_t stop;
	struct stream_client c;
	struct sockaddr_storage addr[STREAMRUN_MAX];	/* each sender's receiver */
	socklen_t alen[STREAMRUN_MAX];
	uint16_t ports[STREAMRUN_MAX];
	int cpus[STREAMRUN_MAX];
	unsigned int n;
	struct stream_sender s[STREAMRUN_MAX];
	int first_failed;
	/* servers */
	struct stream_once *srv[STREAMRUN_MAX];
	unsigned int nsrv;
};

static struct dut_end end_state = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void window(void *arg, bool end)
{
	struct dut_end *e = arg;

	pthread_mutex_lock(&e->lock);
	if (end)
		e->ended = true;
	else
		e->started = true;
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
}

static int send_one(void *arg, unsigned int i, const struct stream_client *c0, struct stream_result *r, char *err,
		    size_t errlen)
{
	struct dut_end *e = arg;
	struct stream_client c = *c0;

	c.addr = e->addr[i];
	c.alen = e->alen[i];
	if (c.addr.ss_family == AF_INET)
		((struct sockaddr_in *)&c.addr)->sin_port = htons(e->ports[i]);
	else
		((struct sockaddr_in6 *)&c.addr)->sin6_port = htons(e->ports[i]);
	return stream_client_run(&c, -1, r, err, errlen);
}

static void *send_main(void *arg)
{
	struct dut_end *e = arg;
	int first = app_stream_senders_many(&e->c, e->n, e->cpus, send_one, e, e->s);

	pthread_mutex_lock(&e->lock);
	e->first_failed = first;
	e->done = true;
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

/* Wait for *flag (or the thread's end) at most ms; the lock held. */
static bool wait_for(struct dut_end *e, const bool *flag, unsigned int ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (!*flag && !e->done)
		if (pthread_cond_timedwait(&e->cond, &e->lock, &t))
			break;
	return *flag;
}

static json_object *invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_object *invalid(const char *fmt, ...)
{
	char why[300];
	json_object *o;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	o = agent_proto_error(why);
	json_object_object_add(o, "invalid", json_object_new_boolean(1));
	return o;
}

/* An array of n integers in lo..hi into out; n 1..STREAMRUN_MAX. */
static int int_array(json_object *req, const char *key, long lo, long hi, long *out, unsigned int *n)
{
	json_object *a, *v;
	size_t len;

	if (!json_object_object_get_ex(req, key, &a) || !json_object_is_type(a, json_type_array))
		return -EINVAL;
	len = json_object_array_length(a);
	if (!len || len > STREAMRUN_MAX)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < lo ||
		    json_object_get_int64(v) > hi)
			return -EINVAL;
		out[i] = (long)json_object_get_int64(v);
	}
	*n = (unsigned int)len;
	return 0;
}

/* The run's bounds, as every agent op has. */
static json_object *check_run(uint64_t size, uint64_t dur, bool have_size)
{
	if (have_size && (!size || size > STREAM_MSG_MAX))
		return invalid("a message size of 1..%d bytes", STREAM_MSG_MAX);
	if (!dur || dur > APP_STREAM_DUT_MAX_NS)
		return invalid("a run of at most %llu s on the DUT",
			       (unsigned long long)(APP_STREAM_DUT_MAX_NS / NSEC_PER_SEC));
	return NULL;
}

static bool busy(const struct dut_end *e)
{
	return e->sending || e->nsrv;
}

static json_object *do_send(struct dut_end *e, json_object *req)
{
	long ports[STREAMRUN_MAX], cpus[STREAMRUN_MAX];
	unsigned int n, ncpu;
	uint64_t size = agent_proto_u64(req, "size"), dur = agent_proto_u64(req, "duration_ns");
	double rate = agent_proto_f64(req, "rate_pps");
	long scpu = (long)agent_proto_u64(req, "server_cpu") - 1;	/* sent + 1: 0 is none */
	struct cpuset online;
	char err[256], list[256];
	json_object *o;
	int rc;

	if (busy(e))
		return agent_proto_error("a stream is already running on the DUT");
	if ((o = check_run(size, dur, true)))
		return o;
	if (int_array(req, "ports", 1, 65535, ports, &n))
		return invalid("ports: 1..%d control ports of 1..65535", STREAMRUN_MAX);
	if (int_array(req, "cpus", -1, STREAM_CPU_MAX, cpus, &ncpu) || ncpu != n)
		return invalid("cpus: one CPU (or -1) per sender");
	if (!(rate == 0 || (isfinite(rate) && rate >= PACE_RATE_MIN && rate <= PACE_RATE_MAX)))
		return invalid("a rate of %g..%g datagrams/s", PACE_RATE_MIN, PACE_RATE_MAX);
	if (scpu < -1 || scpu > STREAM_CPU_MAX)
		return invalid("server_cpu: 0..%d", STREAM_CPU_MAX);
	memset(&e->c, 0, sizeof(e->c));
	/* each sender's receiver: "addrs" (one each), or "addr" for all */
	if (json_object_object_get_ex(req, "addrs", &o) &&
	    (!json_object_is_type(o, json_type_array) || json_object_array_length(o) != n))
		return invalid("addrs: one address per sender");
	for (unsigned int i = 0; i < n; i++) {
		json_object *a = o && json_object_is_type(o, json_type_array) ? json_object_array_get_idx(o, i) : NULL;
		const char *s = a ? (json_object_is_type(a, json_type_string) ? json_object_get_string(a) : "") :
				agent_proto_str(req, "addr", "");

		if (stream_addr_parse(s, ports[i], &e->addr[i], &e->alen[i], err, sizeof(err)))
			return invalid("addr: %s", err);
		if (!agent_proto_bool(req, "allow_any") && !addrpolicy_in_bench_range((struct sockaddr *)&e->addr[i]) &&
		    !addrpolicy_is_loopback((struct sockaddr *)&e->addr[i]))
			return invalid("the DUT sends only to " ADDRPOLICY_RANGES " and loopback unless the tester allows "
				       "any address");
	}
	o = NULL;
	if (!procstat_online(NULL, &online, err, sizeof(err))) {
		cpuset_format_list(&online, list, sizeof(list));
		for (unsigned int i = 0; i < n; i++)
			if (cpus[i] >= 0 && !cpuset_has(&online, (unsigned int)cpus[i]))
				return invalid("CPU %ld is not online on the DUT (online: %s)", cpus[i], list);
	}
	e->n = n;
	for (unsigned int i = 0; i < n; i++) {
		e->ports[i] = (uint16_t)ports[i];
		e->cpus[i] = (int)cpus[i];
	}
	e->c.size = size;
	e->c.duration_ns = dur;
	e->c.rate_pps = rate;
	e->c.cpu = -1;
	e->c.server_cpu = (int)scpu;
	e->c.stop = &e->stop;
	e->c.window = window;
	e->c.window_arg = e;
	e->stop = 0;
	e->started = e->ended = e->done = false;
	e->first_failed = -1;
	memset(e->s, 0, sizeof(e->s));
	if ((rc = pthread_create(&e->th, NULL, send_main, e)))
		return agent_proto_error("cannot start the senders' thread");
	e->sending = true;
	/* Answer once sending started: the tester's CPU window opens then. */
	pthread_mutex_lock(&e->lock);
	wait_for(e, &e->started, START_MS);
	pthread_mutex_unlock(&e->lock);
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "started", json_object_new_boolean(e->started));
	return o;
}

static json_object *do_sent(struct dut_end *e, json_object *req)
{
	uint64_t ms = agent_proto_u64(req, "wait_ms");
	json_object *o;
	bool sent;

	if (!e->sending)
		return agent_proto_error("no stream is sending on the DUT");
	pthread_mutex_lock(&e->lock);
	sent = wait_for(e, &e->ended, ms > 5000 ? 5000 : (unsigned int)ms) || e->done;
	pthread_mutex_unlock(&e->lock);
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "sent", json_object_new_boolean(sent));
	return o;
}

static json_object *do_recv(struct dut_end *e, json_object *req)
{
	uint64_t n = agent_proto_u64(req, "n"), dur = agent_proto_u64(req, "duration_ns");
	const char *bind = agent_proto_str(req, "bind", NULL);
	struct sockaddr_storage a;
	socklen_t alen = 0;
	json_object *o, *ports;
	char err[256];
	int rc;

	if (busy(e))
		return agent_proto_error("a stream is already running on the DUT");
	if ((o = check_run(0, dur, false)))
		return o;
	if (!n || n > STREAMRUN_MAX)
		return invalid("n: 1..%d servers", STREAMRUN_MAX);
	if (bind && stream_addr_parse(bind, 0, &a, &alen, err, sizeof(err)))
		return invalid("bind: %s", err);
	ports = json_object_new_array();
	for (unsigned int i = 0; i < n; i++) {
		uint16_t port = 0;

		if ((rc = stream_once_start(-1, bind ? &a : NULL, alen, &port, dur, &e->srv[i], err, sizeof(err)))) {
			json_object_put(ports);
			for (unsigned int k = 0; k < i; k++) {
				stream_once_stop(e->srv[k]);
				e->srv[k] = NULL;
			}
			return agent_proto_error(err);
		}
		e->nsrv = i + 1;
		json_object_array_add(ports, json_object_new_int(port));
	}
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "ports", ports);
	return o;
}

/* Stop and join whatever runs; the senders' figures into a (NULL: none
 * wanted). */
static void finish(struct dut_end *e, bool stop, json_object *a)
{
	if (e->sending) {
		if (stop)
			e->stop = 1;
		pthread_join(e->th, NULL);
		e->sending = false;
		for (unsigned int i = 0; a && i < e->n; i++)
			json_object_array_add(a, put_sender(&e->s[i]));
	}
	for (unsigned int i = 0; i < e->nsrv; i++) {
		stream_once_stop(e->srv[i]);
		e->srv[i] = NULL;
	}
	e->nsrv = 0;
}

static json_object *do_end(struct dut_end *e, json_object *req)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	if (e->sending && !agent_proto_bool(req, "stop")) {
		/* the sending's end, then END and RESULT: bounded */
		pthread_mutex_lock(&e->lock);
		wait_for(e, &e->done, (unsigned int)(e->c.duration_ns / 1000000) + END_MS);
		pthread_mutex_unlock(&e->lock);
	}
	finish(e, true, a);
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "senders", a);
	return o;
}

static json_object *handle(void *arg, const char *op, json_object *req)
{
	struct dut_end *e = arg;

	if (!strcmp(op, "stream_send"))
		return do_send(e, req);
	if (!strcmp(op, "stream_sent"))
		return do_sent(e, req);
	if (!strcmp(op, "stream_recv"))
		return do_recv(e, req);
	if (!strcmp(op, "stream_end"))
		return do_end(e, req);
	return NULL;
}

static void restore(void *arg)
{
	finish(arg, true, NULL);
}

static const struct agent_ext ext = { .name = APP_STREAM_DUT_SUPPORT, .handle = handle, .restore = restore,
				      .arg = &end_state };

const struct agent_ext *app_stream_dut_ext(void)
{
	return &ext;
}

/* ---- the tester's side ---- */

static json_object *req_op(const char *name)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "op", json_object_new_string(name));
	return o;
}

int app_stream_dut_check(struct dut *d, char *err, size_t errlen)
{
	if (dut_supports(d, APP_STREAM_DUT_SUPPORT))
		return 0;
	snprintf(err, errlen, "%s: its agent (%s) has no stream end: install this wirerate (%s) on the DUT",
		 dut_name(d), dut_agent(d), WR_VERSION);
	return -EINVAL;
}

int app_stream_dut_send(struct dut *d, const struct app_stream_dut_send *s, char *err, size_t errlen)
{
	json_object *req = req_op("stream_send"), *ports = json_object_new_array(), *cpus = json_object_new_array();
	json_object *ans;
	int rc;

	for (unsigned int i = 0; i < s->n; i++) {
		json_object_array_add(ports, json_object_new_int(s->ports[i]));
		json_object_array_add(cpus, json_object_new_int(s->cpus ? s->cpus[i] : -1));
	}
	json_object_object_add(req, "addr", json_object_new_string(s->addr));
	if (s->addrs) {
		json_object *a = json_object_new_array();

		for (unsigned int i = 0; i < s->n; i++)
			json_object_array_add(a, json_object_new_string(s->addrs[i]));
		json_object_object_add(req, "addrs", a);
	}
	json_object_object_add(req, "ports", ports);
	json_object_object_add(req, "cpus", cpus);
	json_object_object_add(req, "size", json_object_new_uint64(s->size));
	json_object_object_add(req, "duration_ns", json_object_new_uint64(s->duration_ns));
	json_object_object_add(req, "rate_pps", json_object_new_double(s->rate_pps));
	json_object_object_add(req, "server_cpu", json_object_new_uint64((uint64_t)(s->server_cpu + 1)));
	json_object_object_add(req, "allow_any", json_object_new_boolean(s->allow_any));
	ans = dut_ask(d, req, START_MS + 30000, &rc, err, errlen);
	json_object_put(ans);
	return rc;
}

int app_stream_dut_sent(struct dut *d, unsigned int wait_ms, bool *sent, char *err, size_t errlen)
{
	json_object *req = req_op("stream_sent"), *ans;
	int rc;

	json_object_object_add(req, "wait_ms", json_object_new_uint64(wait_ms));
	ans = dut_ask(d, req, wait_ms + 30000, &rc, err, errlen);
	*sent = !rc && agent_proto_bool(ans, "sent");
	json_object_put(ans);
	return rc;
}

int app_stream_dut_recv(struct dut *d, const char *bind, unsigned int n, uint64_t duration_ns, uint16_t *ports,
			char *err, size_t errlen)
{
	json_object *req = req_op("stream_recv"), *ans, *a;
	int rc;

	if (bind)
		json_object_object_add(req, "bind", json_object_new_string(bind));
	json_object_object_add(req, "n", json_object_new_uint64(n));
	json_object_object_add(req, "duration_ns", json_object_new_uint64(duration_ns));
	ans = dut_ask(d, req, 0, &rc, err, errlen);
	if (!rc) {
		if (!json_object_object_get_ex(ans, "ports", &a) || !json_object_is_type(a, json_type_array) ||
		    json_object_array_length(a) != n) {
			snprintf(err, errlen, "%s: the agent's answer lacks its servers' ports", dut_name(d));
			rc = -EPROTO;
		}
		for (unsigned int i = 0; !rc && i < n; i++) {
			json_object *v = json_object_array_get_idx(a, i);

			if (!json_object_is_type(v, json_type_int) || json_object_get_int(v) < 1 ||
			    json_object_get_int(v) > 65535) {
				snprintf(err, errlen, "%s: the agent's answer has a port out of range", dut_name(d));
				rc = -EPROTO;
			} else {
				ports[i] = (uint16_t)json_object_get_int(v);
			}
		}
	}
	json_object_put(ans);
	return rc;
}

int app_stream_dut_end(struct dut *d, bool stop, struct stream_sender *s, unsigned int n, char *err,
		       size_t errlen)
{
	json_object *req = req_op("stream_end"), *ans, *a;
	int rc;

	json_object_object_add(req, "stop", json_object_new_boolean(stop));
	ans = dut_ask(d, req, END_MS + 30000, &rc, err, errlen);
	if (!rc && s) {
		size_t got = json_object_object_get_ex(ans, "senders", &a) && json_object_is_type(a, json_type_array) ?
			     json_object_array_length(a) : 0;

		if (got != n) {
			snprintf(err, errlen, "%s: the agent sent the figures of %zu sender(s) for %u", dut_name(d), got, n);
			rc = -EPROTO;
		}
		for (unsigned int i = 0; !rc && i < n; i++)
			get_sender(json_object_array_get_idx(a, i), &s[i]);
	}
	json_object_put(ans);
	return rc;
}
