/* Ctrl-C, SIGTERM and a hangup: the process's one stop flag. A command
 * that can be stopped catches them while it runs, and its engine polls
 * the flag instead of dying half way (a lab left up, a run not marked
 * ended); a child this process runs (selfexec) gets the signal too. */
#ifndef WR_OS_STOP_H
#define WR_OS_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* The actions stop_catch or stop_ignore replaced, for stop_restore. A
 * struct stop of zeros replaced nothing. */
struct stop {
	struct sigaction old[3];	/* SIGINT, SIGTERM, SIGHUP as they were */
	int n;				/* how many of them are replaced */
};

/* From here on SIGINT and SIGTERM set the stop flag (cleared first) to
 * their number instead of ending the process. No SA_RESTART: a blocked
 * call returns at once (EINTR) for its caller to look. The flag, which
 * an engine polls. */
volatile sig_atomic_t *stop_catch(struct stop *s);
/* The same, and SIGHUP too: the terminal or the SSH session gone is a
 * stop (a matrix, a bisection, the agent). */
volatile sig_atomic_t *stop_catch_hangup(struct stop *s);
/* From here on SIGINT and SIGTERM are ignored: work that takes a moment
 * and is finished rather than left half done. */
void stop_ignore(struct stop *s);
/* The actions as they were before stop_catch or stop_ignore; a second
 * call does nothing. The flag keeps what it caught. */
void stop_restore(struct stop *s);
/* stop_catch and stop_restore as one hook for an app workflow (s: a
 * struct stop): on catches and returns the flag, off restores and
 * returns NULL. */
volatile sig_atomic_t *stop_hook(void *s, bool on);

/* True once a caught signal arrived; the flag itself (0, or the number
 * of the last signal caught), for a loop that polls it. */
bool stop_requested(void);
volatile sig_atomic_t *stop_flag(void);

/* Work that must not be left half done (a lab's build or removal): the
 * stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT) held back, not lost,
 * from stop_hold until stop_let_go puts the old mask back, when one that
 * came is acted on as usual. In between, stop_take says whether a
 * SIGINT, SIGTERM or SIGHUP came and takes them, for a step long enough to give up early (a VM's boot):
 * the caller then undoes what it did and says so. */
void stop_hold(sigset_t *old);
void stop_let_go(const sigset_t *old);
bool stop_take(void);

/* While child runs (0: none any more): a caught signal that another
 * process sent to this one alone is passed on to it; the terminal's
 * Ctrl-C reaches the child itself (one process group). A stop caught
 * before is passed on at once. */
void stop_forward(pid_t child);

#endif
