/* 'wirerate lab up|down|status' as one workflow: the action named, the
 * build or removal under the lab's lock, and the status read after. */
#ifndef WR_APP_LAB_RUN_H
#define WR_APP_LAB_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"

enum app_lab_action { APP_LAB_UP, APP_LAB_DOWN, APP_LAB_STATUS, APP_LAB_EXEC };

/* The step of app_lab_run that failed, for the caller's message. */
enum app_lab_step { APP_LAB_STEP_LOCK, APP_LAB_STEP_UP, APP_LAB_STEP_DOWN, APP_LAB_STEP_STATUS };

/* "up", "down" or "status" into *a; -EINVAL for any other word. */
int app_lab_run_action_parse(const char *word, enum app_lab_action *a);
/* The word app_lab_run_action_parse takes for a. */
const char *app_lab_run_action_name(enum app_lab_action a);
/* Up and down take the lab's lock, build or remove the lab and read its
 * status (down only when status_after_down) before giving the lock back;
 * status reads it without the lock. On failure, *failed names the step
 * and err says why. */
int app_lab_run(const struct lab_spec *spec, enum app_lab_action a, bool status_after_down,
		struct lab_status *st, enum app_lab_step *failed, char *err, size_t errlen);

#define APP_LAB_EXEC_TIMEOUT_MS (120 * 1000)

/* 'lab exec -- CMD...': argv run in the lab's DUT (its namespace, or a
 * VM lab's guest) through the lab's own agent; its exit status into
 * *status and its output (malloc'd) into *output. */
int app_lab_run_exec(const char *prefix, char *const *argv, int *status, char **output, char *err, size_t errlen);

#endif
