/* Bounded child processes; see command.h. */
#include "os/command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "core/ns.h"
#include "os/clock.h"
#include "os/fs.h"

int command_run(char *const *argv, const char *dir, const char *log, unsigned int timeout_ms,
		const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	int pipefd[2], status = 0, rc;
	uint64_t deadline = clock_mono_ms() + timeout_ms, kill_at = 0;
	pid_t pid;

	/* The child says through this pipe that exec failed, and why. */
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		rc = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		snprintf(err, errlen, "fork: %s", strerror(-rc));
		return rc;
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) :
							 open("/dev/null", O_WRONLY);
		int e;

		close(pipefd[0]);
		/* the caller may block signals while it builds: not for the child */
		{
			sigset_t none;

			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		/* its own process group: a stop reaches what it started too */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
		    (dir && chdir(dir))) {
			e = errno;
		} else {
			execvp(argv[0], argv);
			e = errno;
		}
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		uint64_t now = clock_mono_ms();

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -errno;
			close(pipefd[0]);
			return rc;
		}
		if (!kill_at && (now >= deadline || (stop && *stop))) {
			kill(-pid, SIGTERM);
			kill_at = now + 2000;
		} else if (kill_at && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = UINT64_MAX;
		}
		{
			struct timespec ts = { 0, 20 * NSEC_PER_MSEC };

			nanosleep(&ts, NULL);
		}
	}
	{
		int e = 0;
		ssize_t n = read(pipefd[0], &e, sizeof(e));

		close(pipefd[0]);
		if (n == (ssize_t)sizeof(e)) {
			snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
			return -e;
		}
	}
	if (stop && *stop)
		return -EINTR;
	if (kill_at) {
		snprintf(err, errlen, "%s did not finish within %u s", argv[0], timeout_ms / 1000);
		return -ETIMEDOUT;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void command_log_tail(const char *log, char *out, size_t len)
{
	char buf[4096];
	long n;

	out[0] = '\0';
	if (!log || (n = fs_read_tail(log, buf, sizeof(buf))) < 0)
		return;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	{
		char *start = strrchr(buf, '\n');

		snprintf(out, len, "%s", start ? start + 1 : buf);
	}
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
}
