/* The process's one stop flag (os/stop.c): a caught signal sets it, the
 * old actions come back, and a child is passed a stop another process
 * sent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "os/stop.h"

static volatile sig_atomic_t mine;

static void my_handler(int sig)
{
	mine = sig;
}

/* sig's handler now */
static void (*handler_of(int sig))(int)
{
	struct sigaction sa;

	assert_int_equal(sigaction(sig, NULL, &sa), 0);
	return sa.sa_handler;
}

/* SIGINT, SIGTERM and SIGHUP to handler */
static void handle_all(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Set-up: my_handler on the three, as a caller's own before a catch. */
static int mine_first(void **st)
{
	(void)st;
	handle_all(my_handler);
	mine = 0;
	return 0;
}

/* Set-up and tear-down: the default actions. */
static int defaults(void **st)
{
	(void)st;
	handle_all(SIG_DFL);
	return 0;
}

static void catch_sets_the_flag(void **st)
{
	struct stop s = { 0 };
	volatile sig_atomic_t *flag;

	(void)st;
	flag = stop_catch(&s);
	assert_ptr_equal(flag, stop_flag());
	assert_int_equal(*flag, 0);
	assert_false(stop_requested());
	raise(SIGINT);
	assert_true(stop_requested());
	assert_int_equal(*flag, SIGINT);
	raise(SIGTERM);
	assert_int_equal(*flag, SIGTERM);
	assert_int_equal(mine, 0);
	stop_restore(&s);
	/* a catch starts from a clear flag */
	stop_catch(&s);
	assert_false(stop_requested());
	stop_restore(&s);
}

static void restore_puts_the_old_back(void **st)
{
	struct stop s = { 0 };

	(void)st;
	stop_catch(&s);
	assert_ptr_not_equal(handler_of(SIGINT), my_handler);
	assert_ptr_not_equal(handler_of(SIGTERM), my_handler);
	assert_ptr_equal(handler_of(SIGHUP), my_handler);	/* not a hangup catch */
	stop_restore(&s);
	assert_ptr_equal(handler_of(SIGINT), my_handler);
	assert_ptr_equal(handler_of(SIGTERM), my_handler);
	raise(SIGINT);
	assert_int_equal(mine, SIGINT);
	assert_false(stop_requested());
	/* again: nothing more to put back */
	signal(SIGINT, SIG_IGN);
	stop_restore(&s);
	assert_ptr_equal(handler_of(SIGINT), SIG_IGN);
}

static void hangup_and_hook(void **st)
{
	struct stop s = { 0 };

	(void)st;
	stop_catch_hangup(&s);
	raise(SIGHUP);
	assert_int_equal(*stop_flag(), SIGHUP);
	assert_int_equal(mine, 0);
	stop_restore(&s);
	assert_ptr_equal(handler_of(SIGHUP), my_handler);
	/* the hook a workflow takes: on catches, off restores */
	assert_ptr_equal(stop_hook(&s, true), stop_flag());
	assert_false(stop_requested());
	raise(SIGINT);
	assert_true(stop_requested());
	assert_null(stop_hook(&s, false));
	assert_ptr_equal(handler_of(SIGINT), my_handler);
}

static void ignore(void **st)
{
	struct stop s = { 0 };

	(void)st;
	stop_catch(&s);
	stop_restore(&s);
	stop_ignore(&s);
	assert_ptr_equal(handler_of(SIGINT), SIG_IGN);
	assert_ptr_equal(handler_of(SIGTERM), SIG_IGN);
	raise(SIGINT);
	raise(SIGTERM);
	assert_int_equal(mine, 0);
	assert_false(stop_requested());
	stop_restore(&s);
	assert_ptr_equal(handler_of(SIGINT), my_handler);
}

/* A child that waits to be ended, with the actions it inherits. */
static pid_t waiting_child(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		alarm(10);
		for (;;)
			pause();
	}
	return pid;
}

static int ended_by(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

/* A build holds the signals back: one that comes waits for stop_let_go,
 * or stop_take takes it (and says so) for a step that gives up early. */
static void hold_take_and_let_go(void **st)
{
	struct stop s = { 0 };
	volatile sig_atomic_t *f;
	sigset_t old;

	(void)st;
	f = stop_catch(&s);
	stop_hold(&old);
	assert_false(stop_take());
	raise(SIGINT);
	assert_int_equal(*f, 0);
	assert_true(stop_take());
	assert_false(stop_take());
	stop_let_go(&old);
	assert_int_equal(*f, 0);
	/* one not taken is acted on when the hold ends */
	stop_hold(&old);
	raise(SIGTERM);
	assert_int_equal(*f, 0);
	stop_let_go(&old);
	assert_int_equal(*f, SIGTERM);
	stop_restore(&s);
}

static void forward_to_a_child(void **st)
{
	struct stop s = { 0 };
	pid_t pid;

	(void)st;
	/* a SIGTERM sent to this process alone reaches the child */
	pid = waiting_child();
	stop_catch(&s);
	stop_forward(pid);
	kill(getpid(), SIGTERM);
	assert_int_equal(*stop_flag(), SIGTERM);
	assert_int_equal(ended_by(pid), SIGTERM);
	stop_forward(0);
	stop_restore(&s);
	/* a stop caught before the child was known: passed on at once */
	pid = waiting_child();
	stop_catch(&s);
	raise(SIGINT);
	stop_forward(pid);
	assert_int_equal(ended_by(pid), SIGINT);
	stop_forward(0);
	stop_restore(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(catch_sets_the_flag, mine_first, defaults),
		cmocka_unit_test_setup_teardown(restore_puts_the_old_back, mine_first, defaults),
		cmocka_unit_test_setup_teardown(hangup_and_hook, mine_first, defaults),
		cmocka_unit_test_setup_teardown(ignore, mine_first, defaults),
		/* the children die of the default actions */
		cmocka_unit_test_setup_teardown(hold_take_and_let_go, mine_first, defaults),
		cmocka_unit_test_setup_teardown(forward_to_a_child, defaults, defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
