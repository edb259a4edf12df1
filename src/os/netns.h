/* Named network namespaces, compatible with iproute2's `ip netns`:
 * /run/netns/NAME is a bind mount of the namespace, so `ip netns exec`
 * works on wirerate's labs and the other way round. */
#ifndef WR_OS_NETNS_H
#define WR_OS_NETNS_H

#include <stdbool.h>
#include <stddef.h>

#define NETNS_RUN_DIR "/run/netns"
#define NETNS_NAME_MAX 64

/* Create NAME; an existing, live namespace of that name is kept (returns 0),
 * a stale file left by a crash is replaced. */
int netns_add(const char *name, char *err, size_t errlen);
/* Remove NAME; absent is not an error. */
int netns_del(const char *name, char *err, size_t errlen);
/* True when NAME is a live namespace. */
bool netns_exists(const char *name);
/* Open NAME (O_RDONLY|O_CLOEXEC); -errno when absent. */
int netns_open(const char *name);

/* Switch the calling thread into the namespace behind fd, remembering where
 * it was in *saved (an fd); netns_leave returns and closes *saved. Used to
 * create sockets that then belong to that namespace. */
int netns_enter(int fd, int *saved);
void netns_leave(int *saved);

/* Run fn(arg) in a child process inside namespace NAME, with its own mount
 * namespace and a sysfs of that network namespace mounted on /sys, so that
 * /sys/class/net and /proc/sys/net show that namespace. fn returns 0 or
 * -errno and may write text in err (a reason on failure, a result on
 * success), which is passed back in err. */
typedef int (*netns_fn)(void *arg, char *err, size_t errlen);
int netns_run(const char *name, netns_fn fn, void *arg, char *err, size_t errlen);
/* The same for a namespace given by an open descriptor (not consumed);
 * name is only for messages. */
int netns_run_fd(int nsfd, const char *name, netns_fn fn, void *arg, char *err, size_t errlen);

/* Make the calling process (a child of its own, single-threaded) live in
 * the namespace behind fd as netns_run's children do: a mount namespace
 * of its own with that namespace's sysfs on /sys. */
int netns_become(int fd, const char *name, char *err, size_t errlen);

/* Names of namespaces in /run/netns that start with prefix; returns count
 * (at most max), or -errno. */
int netns_list(const char *prefix, char names[][NETNS_NAME_MAX], int max);

#endif
