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

/* Run argv as command_run does, but keep its output: stdout into out
 * (at most cap - 1 bytes kept, NUL-terminated; *truncated when more came,
 * the rest read and dropped), the last line of its stderr that says
 * anything into errline (control bytes made '?'); and in the network
 * namespace netns (a name of /run/netns, as ip netns exec; NULL: this
 * one). The child dies (SIGTERM) with this process, even a SIGKILLed
 * one. Its exit status, 128 + the signal, -EINTR (stop), -ETIMEDOUT, or
 * -errno when it could not be started (err says why). */
#include <stdbool.h>
int command_capture(char *const *argv, const char *netns, char *out, size_t cap, bool *truncated, char *errline,
		    size_t errlinelen, unsigned int timeout_ms, const volatile sig_atomic_t *stop, char *err,
		    size_t errlen);

/* The last line of a log file that says anything (for an error message),
 * control bytes made '?'; "" when none. */
void command_log_tail(const char *log, char *out, size_t len);

#endif
