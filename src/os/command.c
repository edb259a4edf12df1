/* Bounded child processes; see command.h. */
#include "os/command.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "core/ns.h"
#include "os/clock.h"
#include "os/fs.h"
#include "os/netns.h"

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

/* The child of command_capture: its namespace, its ends, then argv. */
static void capture_child(char *const *argv, const char *netns, int out, int errfd, int report)
{
	char msg[256];
	sigset_t none;
	int in = open("/dev/null", O_RDONLY), e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	/* it dies with its parent, even one SIGKILLed: what it ran (a
	 * stream's agent, ssh) then ends with it */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (netns) {
		int fd = netns_open(netns);

		if (fd < 0 || netns_become(fd, netns, msg, sizeof(msg))) {
			e = fd < 0 ? -fd : EPERM;
			if (write(report, &e, sizeof(e)) < 0)
				_exit(127);
			_exit(127);
		}
		close(fd);
	}
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0) {
		e = errno;
	} else {
		execvp(argv[0], argv);
		e = errno;
	}
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The last line that says anything of what stderr gave, kept as it
 * comes: a window of the last bytes. */
struct tail {
	char buf[1024];
	size_t n;
};

static void tail_add(struct tail *t, const char *p, size_t n)
{
	if (n >= sizeof(t->buf)) {
		p += n - (sizeof(t->buf) - 1);
		n = sizeof(t->buf) - 1;
	}
	if (t->n + n >= sizeof(t->buf)) {
		size_t drop = t->n + n - (sizeof(t->buf) - 1);

		memmove(t->buf, t->buf + drop, t->n - drop);
		t->n -= drop;
	}
	memcpy(t->buf + t->n, p, n);
	t->n += n;
	t->buf[t->n] = '\0';
}

static void tail_line(struct tail *t, char *out, size_t len)
{
	char *start;

	while (t->n && (t->buf[t->n - 1] == '\n' || t->buf[t->n - 1] == '\r' || t->buf[t->n - 1] == ' '))
		t->buf[--t->n] = '\0';
	start = strrchr(t->buf, '\n');
	snprintf(out, len, "%s", start ? start + 1 : t->buf);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
}

int command_capture(char *const *argv, const char *netns, char *out, size_t cap, bool *truncated, char *errline,
		    size_t errlinelen, unsigned int timeout_ms, const volatile sig_atomic_t *stop, char *err,
		    size_t errlen)
{
	int rep[2] = { -1, -1 }, op[2] = { -1, -1 }, ep[2] = { -1, -1 }, status = 0, rc = 0;
	uint64_t deadline = clock_mono_ms() + timeout_ms, kill_at = 0;
	struct tail *t = calloc(1, sizeof(*t));
	bool out_open = true, err_open = true, reaped = false;
	size_t n = 0;
	pid_t pid = -1;

	*truncated = false;
	if (cap)
		out[0] = '\0';
	if (errlinelen)
		errline[0] = '\0';
	if (!t)
		return -ENOMEM;
	if (pipe2(rep, O_CLOEXEC) || pipe2(op, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-rc));
		goto out;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		rc = -errno;
		snprintf(err, errlen, "fork: %s", strerror(-rc));
		goto out;
	}
	if (pid == 0) {
		close(rep[0]);
		close(op[0]);
		close(ep[0]);
		capture_child(argv, netns, op[1], ep[1], rep[1]);
	}
	close(rep[1]);
	close(op[1]);
	close(ep[1]);
	rep[1] = op[1] = ep[1] = -1;
	while (out_open || err_open || !reaped) {
		struct pollfd pf[2] = { { .fd = out_open ? op[0] : -1, .events = POLLIN },
					{ .fd = err_open ? ep[0] : -1, .events = POLLIN } };
		uint64_t now = clock_mono_ms();
		char buf[4096];

		if (!kill_at && (now >= deadline || (stop && *stop))) {
			kill(-pid, SIGTERM);
			kill_at = now + 2000;
		} else if (kill_at && kill_at != UINT64_MAX && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = UINT64_MAX;
		}
		if (!out_open && !err_open) {
			struct timespec ts = { 0, 20 * NSEC_PER_MSEC };

			nanosleep(&ts, NULL);
		} else if (poll(pf, 2, 50) < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		for (int i = 0; i < 2 && (out_open || err_open); i++) {
			ssize_t r;

			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(pf[i].fd, buf, sizeof(buf));
			if (r < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (r <= 0) {
				*(i ? &err_open : &out_open) = false;
			} else if (i == 1) {
				tail_add(t, buf, (size_t)r);
			} else {
				size_t keep = cap && n < cap - 1 ? cap - 1 - n : 0;

				if ((size_t)r > keep)
					*truncated = true;
				if (keep > (size_t)r)
					keep = (size_t)r;
				memcpy(out + n, buf, keep);
				n += keep;
				if (cap)
					out[n] = '\0';
			}
		}
		if (!reaped) {
			pid_t w = waitpid(pid, &status, WNOHANG);

			if (w == pid) {
				reaped = true;
			} else if (w < 0 && errno != EINTR) {
				rc = -errno;
				break;
			}
		}
	}
	if (!reaped) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	tail_line(t, errline, errlinelen);
	if (!rc) {
		int e = 0;

		if (read(rep[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
			if (netns)
				snprintf(err, errlen, "cannot run %s in the network namespace %s: %s", argv[0], netns,
					 strerror(e));
			else
				snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
			rc = -e;
		} else if (stop && *stop) {
			rc = -EINTR;
		} else if (kill_at) {
			snprintf(err, errlen, "%s did not finish within %u s", argv[0], timeout_ms / 1000);
			rc = -ETIMEDOUT;
		} else {
			rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
		}
	}
out:
	for (int i = 0; i < 2; i++) {
		if (rep[i] >= 0)
			close(rep[i]);
		if (op[i] >= 0)
			close(op[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	free(t);
	return rc;
}
