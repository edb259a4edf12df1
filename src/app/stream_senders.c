/* Several senders at once (stream_senders.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "app/stream_senders.h"

/* The DUT watch's window around all the senders: opened by the first to
 * start, closed by the last to end. */
struct window {
	pthread_mutex_t lock;
	unsigned int open, started;
	void (*inner)(void *arg, bool end);
	void *arg;
};

static void window_edge(void *arg, bool end)
{
	struct window *w = arg;

	pthread_mutex_lock(&w->lock);
	if (!end && !w->started++ && w->inner)
		w->inner(w->arg, false);
	if (!end)
		w->open++;
	else if (w->open && !--w->open && w->inner)
		w->inner(w->arg, true);
	pthread_mutex_unlock(&w->lock);
}

struct sender {
	struct stream_client c;
	unsigned int i;
	streamrun_one_fn one;
	void *arg;
	struct stream_sender *out;
	pthread_t tid;
	bool running;
};

static void *sender_main(void *p)
{
	struct sender *s = p;

	s->out->rc = s->one(s->arg, s->i, &s->c, &s->out->r, s->out->err, sizeof(s->out->err));
	return NULL;
}

int app_stream_senders_many(const struct stream_client *c, unsigned int n, const int *cpus, streamrun_one_fn one,
		   void *arg, struct stream_sender *s)
{
	struct window w = { .lock = PTHREAD_MUTEX_INITIALIZER, .inner = c->window, .arg = c->window_arg };
	struct sender th[STREAMRUN_MAX];
	int first = -1;

	if (!n || n > STREAMRUN_MAX) {
		s[0].rc = -EINVAL;
		snprintf(s[0].err, sizeof(s[0].err), "1..%d senders", STREAMRUN_MAX);
		return 0;
	}
	memset(s, 0, n * sizeof(*s));
	for (unsigned int i = 0; i < n; i++) {
		int rc;

		th[i] = (struct sender){ .c = *c, .i = i, .one = one, .arg = arg, .out = &s[i] };
		th[i].c.cpu = cpus ? cpus[i] : -1;
		th[i].c.window = window_edge;
		th[i].c.window_arg = &w;
		s[i].cpu = th[i].c.cpu;
		/* one sender runs in this thread: nothing to start */
		if (n == 1)
			break;
		if ((rc = pthread_create(&th[i].tid, NULL, sender_main, &th[i]))) {
			s[i].rc = -rc;
			snprintf(s[i].err, sizeof(s[i].err), "cannot start sender %u: %s", i, strerror(rc));
			/* those started run their course; the rest never start */
			for (unsigned int k = i + 1; k < n; k++) {
				s[k].rc = -ECANCELED;
				snprintf(s[k].err, sizeof(s[k].err), "not started");
			}
			break;
		}
		th[i].running = true;
	}
	if (n == 1)
		sender_main(&th[0]);
	for (unsigned int i = 0; i < n; i++)
		if (th[i].running)
			pthread_join(th[i].tid, NULL);
	for (unsigned int i = 0; i < n && first < 0; i++)
		if (s[i].rc)
			first = (int)i;
	return first;
}

/* One end's CPU over the senders: see stream_senders.h. */
static void cpu_total(const struct stream_cpu *const *f, unsigned int n, struct stream_cpu *out)
{
	int seen[STREAMRUN_MAX];
	unsigned int distinct = 0, most = 0;
	double sum = 0;
	bool any_all = false;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	for (unsigned int i = 0; i < n; i++) {
		bool dup = false;

		if (!f[i]->ncpus)
			return;
		if (f[i]->cpu < 0)
			any_all = true;
		if (f[i]->ncpus > most)
			most = f[i]->ncpus;
		for (unsigned int k = 0; k < distinct; k++)
			dup |= seen[k] == f[i]->cpu;
		if (!dup)
			seen[distinct++] = f[i]->cpu;
	}
	/* the mean over each distinct CPU of its readings' mean */
	for (unsigned int k = 0; k < distinct; k++) {
		double s = 0;
		unsigned int m = 0;

		for (unsigned int i = 0; i < n; i++)
			if (f[i]->cpu == seen[k]) {
				s += f[i]->busy;
				m++;
			}
		sum += s / m;
	}
	out->busy = distinct ? sum / distinct : 0;
	if (any_all) {
		out->ncpus = most;
	} else {
		out->ncpus = distinct;
		out->cpu = distinct == 1 ? seen[0] : -1;
	}
}

void app_stream_senders_total(const struct stream_sender *s, unsigned int n, struct stream_result *t)
{
	const struct stream_cpu *snd[STREAMRUN_MAX], *rcv[STREAMRUN_MAX];

	memset(t, 0, sizeof(*t));
	if (!n || n > STREAMRUN_MAX)
		return;
	t->sndbuf = s[0].r.sndbuf;
	t->rcvbuf = s[0].r.rcvbuf;
	t->size = s[0].r.size;
	for (unsigned int i = 0; i < n; i++) {
		const struct stream_result *r = &s[i].r;

		t->sent += r->sent;
		t->errors += r->errors;
		t->sent_bytes += r->sent_bytes;
		t->recv += r->recv;
		t->recv_bytes += r->recv_bytes;
		t->drops += r->drops;
		if (r->send_ns > t->send_ns)
			t->send_ns = r->send_ns;
		if (r->recv_ns > t->recv_ns)
			t->recv_ns = r->recv_ns;
		t->interrupted |= r->interrupted;
		snd[i] = &r->send_cpu;
		rcv[i] = &r->recv_cpu;
	}
	cpu_total(snd, n, &t->send_cpu);
	cpu_total(rcv, n, &t->recv_cpu);
}
