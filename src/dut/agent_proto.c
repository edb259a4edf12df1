#include "dut/agent_proto.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_bound.h"
#include "dut/dut.h"
#include "dut/envcap.h"
#include "dut/profile.h"
#include "dut/stallprobe.h"
#include "dut/soak.h"

/* What one answer may make the parser build: a snapshot of a DUT with
 * many ports and queues holds a few thousand objects (its /proc texts are
 * strings); these bound it to some 12 MB of objects and 26 MB of values,
 * where an 8 MiB line of "{}," made 2.1 GiB. */
const struct json_bound agent_proto_bound = { .containers = 16384, .values = 262144 };

json_object *agent_proto_parse(const char *line, size_t len, char *err, size_t errlen)
{
	struct json_tokener *tok;
	json_object *o;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > AGENT_RESP_MAX || len > INT32_MAX) {
		snprintf(err, errlen, "a line of %zu bytes, over the limit", len);
		return NULL;
	}
	if (json_bound_check(line, len, &agent_proto_bound, err, errlen))
		return NULL;
	/* Depth 16 is more than any message nests; the default of 32 would
	 * do too, but a peer has no reason to go near either. */
	if (!(tok = json_tokener_new_ex(16))) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len || !json_object_is_type(o, json_type_object)) {
		snprintf(err, errlen, "not a JSON object: %s",
			 o && json_tokener_get_error(tok) == json_tokener_success ? "trailing text or another type"
										  : json_tokener_error_desc(json_tokener_get_error(tok)));
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

char *agent_proto_line(json_object *o, size_t *len)
{
	size_t n;
	const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	char *line = malloc(n + 2);

	if (!line)
		return NULL;
	memcpy(line, s, n);
	line[n] = '\n';
	line[n + 1] = 0;
	*len = n + 1;
	return line;
}

const char *agent_proto_str(json_object *o, const char *key, const char *dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return dflt;
	return json_object_get_string(v);
}

uint64_t agent_proto_u64(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return 0;
	return json_object_get_uint64(v);
}

double agent_proto_f64(json_object *o, const char *key)
{
	json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return 0;
	d = json_object_get_double(v);
	return isfinite(d) ? d : 0;
}

bool agent_proto_bool(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

json_object *agent_proto_error(const char *why)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ok", json_object_new_boolean(0));
	json_object_object_add(o, "error", json_object_new_string(why));
	return o;
}

static void put_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void put_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

/* Copy a string field into a fixed buffer, truncated. */
static void get_name(json_object *o, const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "%s", agent_proto_str(o, key, ""));
}

static char *get_text(json_object *proc, const char *key)
{
	const char *s = agent_proto_str(proc, key, NULL);

	return s ? strdup(s) : NULL;
}

/* The counters of one interface, in one table: the name on the wire and
 * the field, so encoding and decoding cannot drift apart. */
#define IF_FIELDS(X) X(rx_packets) X(tx_packets) X(rx_bytes) X(tx_bytes) X(rx_dropped) \
	X(tx_dropped) X(rx_errors) X(tx_errors) X(rx_missed) X(rx_fifo) X(rx_over) \
	X(xdp_drops) X(xdp_tx_errors) X(ring_drops)
#define QUEUE_FIELDS(X) X(packets) X(ring_drops) X(xdp_drops)
#define QDISC_FIELDS(X) X(packets) X(bytes) X(drops) X(overlimits) X(requeues)
#define STACK_FIELDS(X) X(ip_in_hdr_errors) X(ip_in_addr_errors) X(ip_in_discards) \
	X(ip_in_no_routes) X(ip_out_discards) X(ip_out_no_routes) X(ip_forw_datagrams) \
	X(icmp_out_time_excds) X(ip6_in_no_routes) X(ip6_in_discards) X(ip6_out_discards) \
	X(ip6_out_forw) X(ip6_in_hdr_errors) X(icmp6_out_time_excds)

void agent_proto_put_snap(json_object *o, const struct dutsnap *s)
{
	json_object *proc = json_object_new_object(), *arr, *x;

	put_u64(o, "t_ns", s->t_ns);
#define PUT_TEXT(k, f) if (s->f) put_str(proc, k, s->f);
	PUT_TEXT("stat", proc_stat) PUT_TEXT("interrupts", proc_interrupts)
	PUT_TEXT("softirqs", proc_softirqs) PUT_TEXT("softnet", proc_softnet)
	json_object_object_add(o, "proc", proc);
	if (s->stack.present) {
		x = json_object_new_object();
#define PUT_STACK(f) put_u64(x, #f, s->stack.f);
		STACK_FIELDS(PUT_STACK)
		json_object_object_add(o, "stack", x);
	}
	arr = json_object_new_array();
	for (unsigned int i = 0; i < s->nif; i++) {
		const struct dutsnap_if *f = &s->ifs[i];

		x = json_object_new_object();
		put_str(x, "name", f->name);
		json_object_object_add(x, "present", json_object_new_boolean(f->present));
		json_object_object_add(x, "have_xdp", json_object_new_boolean(f->have_xdp));
#define PUT_IF(k) put_u64(x, #k, f->k);
		IF_FIELDS(PUT_IF)
		if (f->nqueue) {
			json_object *qa = json_object_new_array();

			for (unsigned int k = 0; k < f->nqueue && k < DUTSNAP_QUEUE_MAX; k++) {
				json_object *qo = json_object_new_object();

#define PUT_QUEUE(n) put_u64(qo, #n, f->queue[k].n);
				QUEUE_FIELDS(PUT_QUEUE)
				json_object_array_add(qa, qo);
			}
			json_object_object_add(x, "queues", qa);
		}
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "ifaces", arr);
	arr = json_object_new_array();
	for (unsigned int i = 0; i < s->nqdisc; i++) {
		const struct dutsnap_qdisc *q = &s->qdisc[i];

		x = json_object_new_object();
		put_str(x, "dev", q->dev);
		put_str(x, "kind", q->kind);
		put_u64(x, "handle", q->handle);
		put_u64(x, "parent", q->parent);
		put_u64(x, "qlen", q->qlen);
		put_u64(x, "backlog", q->backlog);
#define PUT_Q(k) put_u64(x, #k, q->k);
		QDISC_FIELDS(PUT_Q)
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "qdiscs", arr);
	arr = json_object_new_array();
	for (unsigned int i = 0; i < s->nnft; i++) {
		const struct dutsnap_nft *n = &s->nft[i];

		x = json_object_new_object();
		put_str(x, "family", n->family);
		put_str(x, "table", n->table);
		put_str(x, "chain", n->chain);
		put_u64(x, "handle", n->handle);
		put_u64(x, "packets", n->packets);
		put_u64(x, "bytes", n->bytes);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "nft", arr);
}

static size_t arr_len(json_object *o, const char *key, json_object **arr)
{
	if (!json_object_object_get_ex(o, key, arr) || !json_object_is_type(*arr, json_type_array))
		return 0;
	return json_object_array_length(*arr);
}

int agent_proto_get_snap(json_object *o, struct dutsnap *s, char *err, size_t errlen)
{
	json_object *proc, *arr, *x;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (!json_object_object_get_ex(o, "proc", &proc) || !json_object_is_type(proc, json_type_object)) {
		snprintf(err, errlen, "a snapshot without its /proc texts");
		return -EPROTO;
	}
	s->t_ns = agent_proto_u64(o, "t_ns");
	s->proc_stat = get_text(proc, "stat");
	s->proc_interrupts = get_text(proc, "interrupts");
	s->proc_softirqs = get_text(proc, "softirqs");
	s->proc_softnet = get_text(proc, "softnet");
	if (json_object_object_get_ex(o, "stack", &x) && json_object_is_type(x, json_type_object)) {
		s->stack.present = true;
#define GET_STACK(f) s->stack.f = agent_proto_u64(x, #f);
		STACK_FIELDS(GET_STACK)
	}
	n = arr_len(o, "ifaces", &arr);
	for (size_t i = 0; i < n && s->nif < DUTSNAP_IF_MAX; i++) {
		struct dutsnap_if *f = &s->ifs[s->nif++];

		x = json_object_array_get_idx(arr, i);
		get_name(x, "name", f->name, sizeof(f->name));
		f->present = agent_proto_bool(x, "present");
		f->have_xdp = agent_proto_bool(x, "have_xdp");
#define GET_IF(k) f->k = agent_proto_u64(x, #k);
		IF_FIELDS(GET_IF)
		{
			json_object *qa;
			size_t nq = arr_len(x, "queues", &qa);

			for (size_t k = 0; k < nq && f->nqueue < DUTSNAP_QUEUE_MAX; k++) {
				json_object *qo = json_object_array_get_idx(qa, k);
				struct dutsnap_queue *dq = &f->queue[f->nqueue++];

#define GET_QUEUE(n) dq->n = agent_proto_u64(qo, #n);
				QUEUE_FIELDS(GET_QUEUE)
			}
		}
	}
	n = arr_len(o, "qdiscs", &arr);
	for (size_t i = 0; i < n && s->nqdisc < DUTSNAP_QDISC_MAX; i++) {
		struct dutsnap_qdisc *q = &s->qdisc[s->nqdisc++];

		x = json_object_array_get_idx(arr, i);
		get_name(x, "dev", q->dev, sizeof(q->dev));
		get_name(x, "kind", q->kind, sizeof(q->kind));
		q->handle = (uint32_t)agent_proto_u64(x, "handle");
		q->parent = (uint32_t)agent_proto_u64(x, "parent");
		q->qlen = (uint32_t)agent_proto_u64(x, "qlen");
		q->backlog = (uint32_t)agent_proto_u64(x, "backlog");
#define GET_Q(k) q->k = agent_proto_u64(x, #k);
		QDISC_FIELDS(GET_Q)
	}
	n = arr_len(o, "nft", &arr);
	for (size_t i = 0; i < n && s->nnft < DUTSNAP_NFT_MAX; i++) {
		struct dutsnap_nft *f = &s->nft[s->nnft++];

		x = json_object_array_get_idx(arr, i);
		get_name(x, "family", f->family, sizeof(f->family));
		get_name(x, "table", f->table, sizeof(f->table));
		get_name(x, "chain", f->chain, sizeof(f->chain));
		f->handle = agent_proto_u64(x, "handle");
		f->packets = agent_proto_u64(x, "packets");
		f->bytes = agent_proto_u64(x, "bytes");
	}
	if (!s->proc_stat) {
		snprintf(err, errlen, "a snapshot without /proc/stat");
		dutsnap_clear(s);
		return -EPROTO;
	}
	return 0;
}

void agent_proto_put_env(json_object *o, const char *key, const struct envcap *e)
{
	json_object *x = json_object_new_object();

	for (unsigned int i = 0; i < e->n; i++)
		put_str(x, e->kv[i].key, e->kv[i].value);
	json_object_object_add(o, key, x);
}

void agent_proto_get_env(json_object *o, const char *key, const char *prefix, struct envcap *e)
{
	json_object *x;
	unsigned int taken = 0, dropped = 0;
	char name[ENVCAP_KEY];

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_object))
		return;
	json_object_object_foreach(x, k, v) {
		if (!json_object_is_type(v, json_type_string))
			continue;
		/* "name" is the tester's (which DUT it asked for, set by the
		 * caller): the agent's word never replaces it. A key that would
		 * not fit whole is dropped, not cut into another key's name. */
		if (!strcmp(k, "name") || !strcmp(k, "env_dropped") ||
		    (size_t)snprintf(name, sizeof(name), "%s%s", prefix, k) >= sizeof(name)) {
			dropped++;
			continue;
		}
		/* ENVCAP_DUT_MAX less dut.name and dut.env_dropped */
		if (!envcap_kv_get(e, name) && taken >= ENVCAP_DUT_MAX - 2) {
			dropped++;
			continue;
		}
		taken += !envcap_kv_get(e, name);
		envcap_kv_set(e, name, "%s", json_object_get_string(v));
	}
	if (dropped && (size_t)snprintf(name, sizeof(name), "%senv_dropped", prefix) < sizeof(name))
		envcap_kv_set(e, name, "%u", dropped);
}

void agent_proto_put_load(json_object *o, const struct soak_calib_busy *l)
{
	json_object *arr = json_object_new_array();

	json_object_object_add(o, "seconds", json_object_new_double(l->seconds));
	json_object_object_add(o, "clamped", json_object_new_boolean(l->clamped));
	for (unsigned int i = 0; i < l->n; i++) {
		json_object *x = json_object_new_object();

		put_u64(x, "cpu", l->cpu[i]);
		json_object_object_add(x, "load", json_object_new_double(l->load[i]));
		json_object_object_add(x, "raw", json_object_new_double(l->raw[i]));
		json_object_object_add(x, "rate", json_object_new_double(l->rate[i]));
		json_object_object_add(x, "run_rate", json_object_new_double(l->run_rate[i]));
		json_object_object_add(x, "share", json_object_new_double(l->share[i]));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "cpus", arr);
}

void agent_proto_get_load(json_object *o, struct soak_calib_busy *l)
{
	json_object *arr;
	size_t n = arr_len(o, "cpus", &arr);
	double sum = 0;

	memset(l, 0, sizeof(*l));
	l->seconds = agent_proto_f64(o, "seconds");
	l->clamped = agent_proto_bool(o, "clamped");
	for (size_t i = 0; i < n && l->n < SOAK_MAX_CPUS; i++) {
		json_object *x = json_object_array_get_idx(arr, i);
		unsigned int k = l->n++;

		l->cpu[k] = (unsigned int)agent_proto_u64(x, "cpu");
		l->load[k] = agent_proto_f64(x, "load");
		if (l->load[k] < 0 || l->load[k] > 1) {
			l->load[k] = l->load[k] < 0 ? 0 : 1;
			l->clamped = true;
		}
		l->raw[k] = agent_proto_f64(x, "raw");
		l->rate[k] = agent_proto_f64(x, "rate");
		l->run_rate[k] = agent_proto_f64(x, "run_rate");
		l->share[k] = agent_proto_f64(x, "share");
		sum += l->load[k];
	}
	l->all = l->n ? sum / l->n : 0;
}

void agent_proto_put_check(json_object *o, const struct soak_idle *c)
{
	json_object *x = json_object_new_object(), *arr = json_object_new_array();

	json_object_object_add(x, "trusted", json_object_new_boolean(c->trusted));
	json_object_object_add(x, "tolerance", json_object_new_double(c->tolerance));
	put_u64(x, "duration_ns", c->duration_ns);
	json_object_object_add(x, "calib_when", json_object_new_int64(c->calib_when));
	put_u64(x, "worst", c->worst);
	put_str(x, "reason", c->reason);
	for (unsigned int i = 0; i < c->n; i++) {
		json_object *y = json_object_new_object();

		put_u64(y, "cpu", c->cpu[i]);
		json_object_object_add(y, "run_rate", json_object_new_double(c->run_rate[i]));
		json_object_object_add(y, "calib", json_object_new_double(c->calib[i]));
		json_object_object_add(y, "off", json_object_new_double(c->off[i]));
		json_object_array_add(arr, y);
	}
	json_object_object_add(x, "cpus", arr);
	json_object_object_add(o, "check", x);
}

bool agent_proto_get_check(json_object *o, struct soak_idle *c)
{
	json_object *x, *arr, *v;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (!json_object_object_get_ex(o, "check", &x) || !json_object_is_type(x, json_type_object))
		return false;
	c->trusted = agent_proto_bool(x, "trusted");
	c->tolerance = agent_proto_f64(x, "tolerance");
	c->duration_ns = agent_proto_u64(x, "duration_ns");
	if (json_object_object_get_ex(x, "calib_when", &v) && json_object_is_type(v, json_type_int))
		c->calib_when = json_object_get_int64(v);
	get_name(x, "reason", c->reason, sizeof(c->reason));
	n = arr_len(x, "cpus", &arr);
	for (size_t i = 0; i < n && c->n < SOAK_MAX_CPUS; i++) {
		json_object *y = json_object_array_get_idx(arr, i);
		unsigned int k = c->n++;

		c->cpu[k] = (unsigned int)agent_proto_u64(y, "cpu");
		c->run_rate[k] = agent_proto_f64(y, "run_rate");
		c->calib[k] = agent_proto_f64(y, "calib");
		c->off[k] = agent_proto_f64(y, "off");
	}
	c->worst = (unsigned int)agent_proto_u64(x, "worst");
	if (c->worst >= c->n)
		c->worst = 0;
	/* untrusted always says why, whatever came over the wire */
	if (!c->trusted && !c->reason[0])
		snprintf(c->reason, sizeof(c->reason), "the DUT's agent found its soak calibration off");
	return true;
}

void agent_proto_put_profile(json_object *o, const struct profile_result *r)
{
	json_object *arr = json_object_new_array();

	json_object_object_add(o, "valid", json_object_new_boolean(r->valid));
	put_u64(o, "hz", r->hz);
	json_object_object_add(o, "seconds", json_object_new_double(r->seconds));
	put_u64(o, "samples", r->samples);
	put_u64(o, "idle", r->idle);
	put_u64(o, "softirq", r->softirq);
	put_u64(o, "user", r->user);
	put_u64(o, "deferred", r->deferred);
	put_u64(o, "lost", r->lost);
	for (unsigned int i = 0; i < r->n; i++) {
		json_object *x = json_object_new_object();

		put_str(x, "sym", r->e[i].sym);
		put_u64(x, "samples", r->e[i].samples);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "top", arr);
}

/* The shares are made here from the counts, whatever the DUT sent: a
 * count over the total is cut to it. */
void agent_proto_get_profile(json_object *o, struct profile_result *r)
{
	json_object *arr;
	size_t n = arr_len(o, "top", &arr);
	uint64_t busy;

	memset(r, 0, sizeof(*r));
	r->hz = (unsigned int)agent_proto_u64(o, "hz");
	r->seconds = agent_proto_f64(o, "seconds");
	r->samples = agent_proto_u64(o, "samples");
	r->idle = agent_proto_u64(o, "idle");
	r->softirq = agent_proto_u64(o, "softirq");
	r->user = agent_proto_u64(o, "user");
	r->deferred = agent_proto_u64(o, "deferred");
	r->lost = agent_proto_u64(o, "lost");
	if (r->idle > r->samples)
		r->idle = r->samples;
	busy = r->samples - r->idle;
	if (r->softirq > busy)
		r->softirq = busy;
	if (r->deferred > busy)
		r->deferred = busy;
	r->busy_pct = r->samples ? 100.0 * (double)busy / (double)r->samples : 0;
	r->softirq_pct = busy ? 100.0 * (double)r->softirq / (double)busy : 0;
	r->deferred_pct = busy ? 100.0 * (double)r->deferred / (double)busy : 0;
	busy -= r->deferred;
	for (size_t i = 0; i < n && r->n < PROFILE_TOP_MAX; i++) {
		json_object *x = json_object_array_get_idx(arr, i);
		struct profile_entry *e = &r->e[r->n++];

		get_name(x, "sym", e->sym, sizeof(e->sym));
		e->samples = agent_proto_u64(x, "samples");
		if (e->samples > busy)
			e->samples = busy;
		e->pct = busy ? 100.0 * (double)e->samples / (double)busy : 0;
	}
	r->valid = agent_proto_bool(o, "valid") && r->samples > 0;
}

void agent_proto_put_stall(json_object *o, const struct stallprobe_result *r)
{
	json_object *arr = json_object_new_array();

	json_object_object_add(o, "valid", json_object_new_boolean(r->valid));
	json_object_object_add(o, "fifo", json_object_new_boolean(r->fifo));
	put_str(o, "note", r->note);
	json_object_object_add(o, "seconds", json_object_new_double(r->seconds));
	put_u64(o, "period_ns", r->period_ns);
	put_u64(o, "threshold_ns", r->threshold_ns);
	put_u64(o, "worst", r->worst);
	for (unsigned int i = 0; i < r->n; i++) {
		json_object *x = json_object_new_object();

		put_u64(x, "cpu", r->c[i].cpu);
		put_u64(x, "wakeups", r->c[i].wakeups);
		put_u64(x, "max_late_ns", r->c[i].max_late_ns);
		put_u64(x, "stalls", r->c[i].stalls);
		json_object_object_add(x, "steal_pct", json_object_new_double(r->c[i].steal_pct));
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "cpus", arr);
}

void agent_proto_get_stall(json_object *o, struct stallprobe_result *r)
{
	json_object *arr;
	size_t n = arr_len(o, "cpus", &arr);

	memset(r, 0, sizeof(*r));
	r->valid = agent_proto_bool(o, "valid");
	r->fifo = agent_proto_bool(o, "fifo");
	get_name(o, "note", r->note, sizeof(r->note));
	r->seconds = agent_proto_f64(o, "seconds");
	r->period_ns = agent_proto_u64(o, "period_ns");
	r->threshold_ns = agent_proto_u64(o, "threshold_ns");
	for (size_t i = 0; i < n && r->n < STALLPROBE_MAX_CPUS; i++) {
		json_object *x = json_object_array_get_idx(arr, i);
		struct stallprobe_cpu *c = &r->c[r->n++];

		c->cpu = (unsigned int)agent_proto_u64(x, "cpu");
		c->wakeups = agent_proto_u64(x, "wakeups");
		c->max_late_ns = agent_proto_u64(x, "max_late_ns");
		c->stalls = agent_proto_u64(x, "stalls");
		c->steal_pct = agent_proto_f64(x, "steal_pct");
	}
	/* an index into what was received, whatever was sent */
	r->worst = (unsigned int)agent_proto_u64(o, "worst");
	if (r->worst >= r->n)
		r->worst = 0;
	if (!r->n)
		r->valid = false;
}
