/* Running this program again as a child (/proc/self/exe): a matrix runs
 * each of its tests this way, so that a test is the same process as when
 * the user runs it by hand. */
#ifndef WR_OS_SELFEXEC_H
#define WR_OS_SELFEXEC_H

/* Run argv (argv[0] the program's name) as a child of this program and
 * wait, this process's stdout flushed first so that what it wrote comes
 * before the child's; the child's stdout to out_fd when >= 0 (else
 * inherited). The child dies with this process (SIGTERM), and runs with
 * the default actions for SIGINT, SIGTERM and SIGHUP. Its exit status,
 * 128 + the signal when it was killed, or -errno when it could not be
 * started (the child's own failure to start is its message on stderr and
 * exit status fail). */
int selfexec_run(char **argv, int out_fd, int fail);
/* While it waits, a stop this process caught (os/stop.h) is passed on to
 * the child (stop_forward). */

#endif
