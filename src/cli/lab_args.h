/* lab's options (src/cli/lab_args.c): the table and the parse, which the
 * matrix uses too. */
#ifndef WR_CLI_LAB_ARGS_H
#define WR_CLI_LAB_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"
#include "lab/lab.h"

/* 'lab' and its options as cmd_lab takes them (argv[0] is "lab"), checked
 * as 'lab up' would check them, without acting: OPT_GO with *out and
 * *action set, or OPT_EXIT with *status (opt.h).
 * cmd (may be NULL: no exec then): for 'lab exec', the command's words,
 * NULL-ended, malloc'd (one free). */
enum opt_result lab_args_parse(struct cli *cli, int argc, char **argv, struct lab_spec *out, const char **action,
			       char ***cmd, int *status);

#endif
