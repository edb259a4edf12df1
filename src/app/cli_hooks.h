/* What the CLI lends a workflow, the same for every one: Ctrl-C caught
 * and let go, and a line said to the user. A workflow takes these beside
 * its printing hooks, which render exports as one const table each
 * (trial_live_hooks, rfc2544_live_hooks, soak_print_hooks,
 * stream_print_hooks, report_live_hooks, matrix_print_hooks), called
 * with the one ctx the caller hands the workflow: render's state of that
 * run. */
#ifndef WR_APP_CLI_HOOKS_H
#define WR_APP_CLI_HOOKS_H

#include <signal.h>
#include <stdbool.h>

/* What a line said is: the step failed (an error), the results stand
 * anyway (a warning), or how the run goes (a note). */
enum app_say { APP_SAY_ERROR, APP_SAY_WARNING, APP_SAY_NOTE };

/* stop on: Ctrl-C and SIGTERM caught from here on, the flag they set
 * returned; off: let go again (NULL), also when never caught. say: a
 * line on stderr, worded by the CLI (the command's name before it). ctx
 * is the CLI's. A workflow that never stops early (report), or catches
 * its stops itself, a hangup too (the matrix), takes no stop, one that
 * says nothing as it goes (soak) no say: NULL there. */
struct app_cli_hooks {
	volatile sig_atomic_t *(*stop)(void *ctx, bool on);
	void (*say)(void *ctx, enum app_say how, const char *line);
	void *ctx;
};

/* say, with the line formatted (cut at 8 KiB); nothing when cli is NULL. */
void app_cli_hooks_say(const struct app_cli_hooks *cli, enum app_say how, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
