/* Ctrl-C and SIGTERM for the commands that run until told to stop, and
 * the exit status of a failed step; see cli.h. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli/cli.h"

/* The one flag every stoppable command polls. A signal handler can only
 * set a sig_atomic_t that lives at file scope, so this is the process's
 * single piece of mutable global state, and only the handler writes it. */
static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

volatile sig_atomic_t *cli_stop_catch(struct cli_stop *s)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	stop_flag = 0;
	sigaction(SIGINT, &sa, &s->old_int);
	sigaction(SIGTERM, &sa, &s->old_term);
	s->caught = true;
	return &stop_flag;
}

void cli_stop_restore(struct cli_stop *s)
{
	if (!s->caught)
		return;
	sigaction(SIGINT, &s->old_int, NULL);
	sigaction(SIGTERM, &s->old_term, NULL);
	s->caught = false;
}

bool cli_stopped(void)
{
	return stop_flag != 0;
}

int cli_status(int rc)
{
	if (!rc)
		return 0;
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}
