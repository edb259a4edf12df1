#include "app/lab_run.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/duttarget.h"
#include "dut/dut.h"

static const char *const action_names[] = { "up", "down", "status", "exec" };

int app_lab_run_action_parse(const char *word, enum app_lab_action *a)
{
	for (unsigned int i = 0; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (!strcmp(word, action_names[i])) {
			*a = (enum app_lab_action)i;
			return 0;
		}
	return -EINVAL;
}

const char *app_lab_run_action_name(enum app_lab_action a)
{
	return action_names[a];
}

/* up, down or status, the lab's lock held for the first two */
static int act(const struct lab_spec *spec, enum app_lab_action a, bool status_after_down,
	       struct lab_status *st, enum app_lab_step *failed, char *err, size_t errlen)
{
	int rc;

	if (a == APP_LAB_UP) {
		if ((rc = lab_up(spec, err, errlen))) {
			*failed = APP_LAB_STEP_UP;
			return rc;
		}
	} else if (a == APP_LAB_DOWN) {
		if ((rc = lab_down(spec->prefix, err, errlen))) {
			*failed = APP_LAB_STEP_DOWN;
			return rc;
		}
		if (!status_after_down)
			return 0;
	}
	/* up and status both end with the status of the lab. */
	if ((rc = lab_status(spec->prefix, st, err, errlen)))
		*failed = APP_LAB_STEP_STATUS;
	return rc;
}

int app_lab_run(const struct lab_spec *spec, enum app_lab_action a, bool status_after_down,
		struct lab_status *st, enum app_lab_step *failed, char *err, size_t errlen)
{
	int lock, rc;

	if (a == APP_LAB_STATUS)
		return act(spec, a, status_after_down, st, failed, err, errlen);
	if ((rc = lab_status_lock(spec->prefix, a == APP_LAB_UP ? "lab up" : "lab down", true, &lock, err, errlen))) {
		*failed = APP_LAB_STEP_LOCK;
		return rc;
	}
	rc = act(spec, a, status_after_down, st, failed, err, errlen);
	lab_status_unlock(&lock, a == APP_LAB_DOWN && !rc ? spec->prefix : NULL);
	return rc;
}

int app_lab_run_exec(const char *prefix, char *const *argv, int *status, char **output, char *err, size_t errlen)
{
	struct dut_target t = { .given = true, .kind = DUT_LAB };
	struct lab_status *st = calloc(1, sizeof(*st));
	struct dut *d;
	int rc;

	*output = NULL;
	if (!st)
		return -ENOMEM;
	rc = lab_status(prefix, st, err, errlen);
	if (!rc && !st->complete) {
		snprintf(err, errlen, "the lab %s is %s: run 'wirerate lab up'", prefix, st->exists ? "half-built" : "not up");
		rc = -ENOENT;
	}
	free(st);
	if (rc)
		return rc;
	snprintf(t.prefix, sizeof(t.prefix), "%s", prefix);
	if ((rc = dut_open(&t, NULL, 0, &d, err, errlen)))
		return rc;
	rc = dut_exec(d, argv, APP_LAB_EXEC_TIMEOUT_MS, status, output, err, errlen);
	dut_close(d);
	return rc;
}
