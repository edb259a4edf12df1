/* The process's one stop flag, and the handler that sets it; see stop.h. */
#include "os/stop.h"

#include <string.h>
#include <time.h>

static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };

/* A signal handler can only set a sig_atomic_t at file scope, so the
 * flag is the process's one piece of mutable global state that a handler
 * writes; child, the process a stop is passed on to, only the main flow
 * writes (stop_forward) and the handler reads. */
static volatile sig_atomic_t flag;
static volatile sig_atomic_t child;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	flag = sig;
	/* si_code > 0: the kernel's (the terminal's Ctrl-C, which the child
	 * has had already); <= 0: kill() or sigqueue() by another process */
	if (child > 0 && si && si->si_code <= 0)
		kill((pid_t)child, sig);
}

static void replace(struct stop *s, const struct sigaction *sa, int n)
{
	for (int i = 0; i < n; i++)
		sigaction(sigs[i], sa, &s->old[i]);
	s->n = n;
}

static volatile sig_atomic_t *catch_n(struct stop *s, int n)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	flag = 0;
	replace(s, &sa, n);
	return &flag;
}

volatile sig_atomic_t *stop_catch(struct stop *s)
{
	return catch_n(s, 2);
}

volatile sig_atomic_t *stop_catch_hangup(struct stop *s)
{
	return catch_n(s, 3);
}

void stop_ignore(struct stop *s)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	replace(s, &sa, 2);
}

void stop_restore(struct stop *s)
{
	for (int i = 0; i < s->n; i++)
		sigaction(sigs[i], &s->old[i], NULL);
	s->n = 0;
}

volatile sig_atomic_t *stop_hook(void *s, bool on)
{
	if (on)
		return stop_catch(s);
	stop_restore(s);
	return NULL;
}

bool stop_requested(void)
{
	return flag != 0;
}

volatile sig_atomic_t *stop_flag(void)
{
	return &flag;
}

void stop_forward(pid_t pid)
{
	child = pid;
	if (pid > 0 && flag)
		kill(pid, flag);
}

/* The signals stop_hold holds back. */
static void held(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
}

void stop_hold(sigset_t *old)
{
	sigset_t set;

	held(&set);
	sigprocmask(SIG_BLOCK, &set, old);
}

void stop_let_go(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

bool stop_take(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set, pending;
	bool came = false;

	/* SIGQUIT stays held for its usual end at stop_let_go */
	sigemptyset(&set);
	if (sigpending(&pending))
		return false;
	for (int i = 0; i < 3; i++) {
		sigaddset(&set, sigs[i]);
		came |= sigismember(&pending, sigs[i]) == 1;
	}
	if (came)
		while (sigtimedwait(&set, NULL, &zero) > 0)
			;
	return came;
}
