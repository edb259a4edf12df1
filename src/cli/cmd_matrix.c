/* wirerate matrix AXES... [--prefix P] [--no-xdp] [--label L] [--tag T] [--db FILE]
 *                 [--html FILE] [--fail-on-regression PCT] -- trial|rfc2544 [OPTIONS]
 *
 * The same test across lab configurations, every combination of the axes'
 * values one configuration: everything checked before a lab is built
 * (matrix_check.c), then each configuration's lab built afresh and its test
 * run and stored, and the runs compared by 'wirerate report'
 * (app/matrix_run.c). */
#include <errno.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/matrix_check.h"
#include "app/matrix_run.h"
#include "render/matrix_print.h"

/* What went wrong, and a stop's note, each as an error line. */
static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%smatrix: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

int cmd_matrix(struct cli *cli, int argc, char **argv)
{
	static const struct app_cli_hooks ch = { .say = say };
	struct matrix_plan *p = calloc(1, sizeof(*p));
	struct matrix_print_run v = { .create = cli_out_create_json };
	int rc;

	if (!p)
		return cli_fail(EXIT_RUNTIME, "matrix: out of memory");
	if (matrix_check(cli, argc, argv, p, &rc) == OPT_GO) {
		p->run.cli = &ch;
		p->run.h = &matrix_print_hooks;
		p->run.ctx = &v;
		rc = app_matrix_run(&p->run);
		/* a stop keeps the runs so far; a test's failure is its status */
		rc = rc == -EINTR ? 130 : rc < 0 ? EXIT_RUNTIME : rc;
	}
	free(p);
	return rc;
}
