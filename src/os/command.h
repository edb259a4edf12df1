/* Running another program to its end within a bound: apt-get download,
 * dpkg-deb, a user's build command. Its output goes to a file (a log the
 * user can read), never to ours. */
#ifndef WR_OS_COMMAND_H
#define WR_OS_COMMAND_H

#include <signal.h>
#include <stddef.h>

/* Run argv (argv[0] looked up in PATH) in dir (NULL: here) with stdin
 * from /dev/null and stdout and stderr appended to log (NULL: discarded),
 * for at most timeout_ms (then SIGTERM, and SIGKILL 2 s later). Its exit
 * status, 128 + the signal that ended it, or -errno when it could not be
 * started (-ENOENT: no such program, with err naming it). A stop flag
 * (may be NULL) that becomes set ends the child early the same way, and
 * the call returns -EINTR. */
int command_run(char *const *argv, const char *dir, const char *log, unsigned int timeout_ms,
		const volatile sig_atomic_t *stop, char *err, size_t errlen);

/* The last line of a log file that says anything (for an error message),
 * control bytes made '?'; "" when none. */
void command_log_tail(const char *log, char *out, size_t len);

#endif
