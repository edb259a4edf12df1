#include "os/selfexec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/wait.h>

#include "os/stop.h"

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
		static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
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
	stop_forward(pid);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = -errno;
			stop_forward(0);
			return err;
		}
	}
	stop_forward(0);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
