#include "os/selfexec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/wait.h>

static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t stop_sig;
static volatile pid_t child_pid;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_sig = sig;
	if (child_pid > 0 && si && si->si_code <= 0)
		kill(child_pid, sig);
}

void selfexec_catch(struct selfexec_sigs *s)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &s->old[i]);
}

void selfexec_restore(const struct selfexec_sigs *s)
{
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &s->old[i], NULL);
}

int selfexec_stopped(void)
{
	return stop_sig;
}

const volatile int *selfexec_stop_flag(void)
{
	return &stop_sig;
}

int selfexec_run(char **argv, int out_fd, int fail)
{
	int status, err;
	pid_t pid;

	/* what this process wrote so far comes before the child's output */
	fflush(stdout);
	pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		for (int i = 0; i < 3; i++)
			sigaction(sigs[i], &sa, NULL);
		/* a parent killed outright stops its child (which keeps what it
		 * inherited, such as a lab's lock, until it has stopped) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(fail);
		if (out_fd >= 0)
			dup2(out_fd, STDOUT_FILENO);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "wirerate: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(fail);
	}
	child_pid = pid;
	/* a stop that came before the child was known is passed on now */
	if (stop_sig)
		kill(pid, stop_sig);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = -errno;
			child_pid = 0;
			return err;
		}
	}
	child_pid = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
