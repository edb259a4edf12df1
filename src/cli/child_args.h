/* The command lines of the children a workflow runs (src/cli/child_args.c):
 * built from what the app asks (app/child.h). Only here does a child's
 * option have its spelling. */
#ifndef WR_CLI_CHILD_ARGS_H
#define WR_CLI_CHILD_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "app/child.h"

/* The command line of the child the app asks for (the workflows' argv
 * hook; ctx unused): argv[0] "wirerate", NULL-ended, malloc'd with its
 * strings (one free); NULL when out of memory. */
char **child_args_build(void *ctx, const struct app_child *what);

/* Whether word is the option opt ("--db", "-j"): the name exact, alone or
 * with "=VALUE". */
bool child_args_is(const char *word, const char *opt);

#endif
