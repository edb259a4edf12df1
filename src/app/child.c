#include "app/child.h"

#include <errno.h>
#include <stdlib.h>

#include "os/selfexec.h"

int app_child_run(app_child_argv_fn argv, void *ctx, const struct app_child *what, int out_fd, int fail)
{
	char **words = argv(ctx, what);
	int st;

	if (!words)
		return -ENOMEM;
	st = selfexec_run(words, out_fd, fail);
	free(words);
	return st;
}
