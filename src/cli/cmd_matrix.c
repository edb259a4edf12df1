/* wirerate matrix AXES... [--prefix P] [--no-xdp] [--label L] [--tag T] [--db FILE]
 *                 [--html FILE] [--fail-on-regression PCT] -- trial|rfc2544 [OPTIONS]
 *
 * The same test across lab configurations, every combination of the axes'
 * values one configuration: everything checked before a lab is built
 * (matrix_check.c), then each configuration's lab built afresh and its test
 * run and stored, and the runs compared by 'wirerate report'
 * (app/matrix_run.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/matrix_check.h"
#include "app/matrix_run.h"
#include "render/matrix_print.h"
#include "render/out.h"

static void say(void *ctx, const char *line)
{
	(void)ctx;
	cli_error("matrix: %s", line);
}

/* With --json, the matrix's one document, the report's inside it. */
static int print_json(void *ctx, FILE *report)
{
	const struct app_matrix_run *r = ctx;
	struct out *o = cli_out_create_json(true, "matrix");

	if (!o)
		return -ENOMEM;
	matrix_print_json(o, r->m, r->run_ids, r->mtag, r->prefix, report);
	out_destroy(o);
	return 0;
}

int cmd_matrix(struct cli *cli, int argc, char **argv)
{
	struct matrix_plan *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return cli_fail(EXIT_RUNTIME, "matrix: out of memory");
	if (matrix_check(cli, argc, argv, p, &rc) == OPT_GO) {
		matrix_print_hooks(&p->run);
		p->run.say = say;
		p->run.report = print_json;
		rc = app_matrix_run(&p->run);
		/* a stop keeps the runs so far; a test's failure is its status */
		rc = rc == -EINTR ? 130 : rc < 0 ? EXIT_RUNTIME : rc;
	}
	free(p);
	return rc;
}
