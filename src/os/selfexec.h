/* Running this program again as a child (/proc/self/exe), with the
 * signals a parent that waits on it should pass on: a matrix runs each
 * of its tests this way, so that a test is the same process as when the
 * user runs it by hand. */
#ifndef WR_OS_SELFEXEC_H
#define WR_OS_SELFEXEC_H

#include <signal.h>

/* Run argv (argv[0] the program's name) as a child of this program and
 * wait, this process's stdout flushed first so that what it wrote comes
 * before the child's; the child's stdout to out_fd when >= 0 (else
 * inherited). The child dies with this process (SIGTERM), and runs with
 * the default actions for SIGINT, SIGTERM and SIGHUP. Its exit status,
 * 128 + the signal when it was killed, or -errno when it could not be
 * started (the child's own failure to start is its message on stderr and
 * exit status fail). */
int selfexec_run(char **argv, int out_fd, int fail);

/* From selfexec_catch on: SIGINT, SIGTERM and SIGHUP are noted (the last
 * one in selfexec_stopped()) and, when another process sent them to this
 * one alone, passed on to the running child (the terminal's Ctrl-C
 * reaches the child itself: one process group). selfexec_restore puts the
 * old actions back. */
struct selfexec_sigs {
	struct sigaction old[3];
};
void selfexec_catch(struct selfexec_sigs *s);
void selfexec_restore(const struct selfexec_sigs *s);
int selfexec_stopped(void);
/* The same as a flag another wait can watch (command_run's stop). */
const volatile int *selfexec_stop_flag(void);

#endif
