/* Several UDP senders at once, each in a thread, a socket and a session
 * of its own, each pinned to its own CPU where asked: netperf run N
 * times side by side, in one process and one window. The caller says how
 * one sender runs (against a server, or through the lab); this module
 * starts them together, gives the DUT's CPU watch one window around them
 * all (from the first sender's start to the last one's end), and adds
 * their figures up. */
#ifndef WR_APP_STREAM_SENDERS_H
#define WR_APP_STREAM_SENDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/stream.h"

#define STREAMRUN_MAX 64		/* senders at once */

/* One sender's run: c is the caller's client with this sender's CPU set
 * (c->cpu) and the shared window; 0, or -errno with err. */
typedef int (*streamrun_one_fn)(void *arg, unsigned int i, const struct stream_client *c,
				struct stream_result *r, char *err, size_t errlen);

/* n senders (1..STREAMRUN_MAX) from c, sender i on cpus[i] (cpus NULL, or
 * -1: not pinned), each through one(arg, i, ...), started together and
 * all joined. s[i] holds each one's; the return is the index of the
 * first that failed, or -1 when none did. */
int app_stream_senders_many(const struct stream_client *c, unsigned int n, const int *cpus, streamrun_one_fn one,
		   void *arg, struct stream_sender *s);

/* The senders' total: counts and bytes added, elapsed times the longest,
 * socket sizes the first's, interrupted when any was. Each end's CPU:
 * the mean busy share of the senders' figures, over as many CPUs as the
 * senders were pinned to (distinct ones), else over the host's CPUs each
 * reported; not measured when any sender's end was not. */
void app_stream_senders_total(const struct stream_sender *s, unsigned int n, struct stream_result *total);

#endif
