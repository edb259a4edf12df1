/* Storing a traffic command's run (trial, rfc2544): the store's options
 * (--db, --label, --tag, --no-store) as a table for opt_parse whose ctx
 * is a struct run_store, and the end of the run. Storing is on by default. */
#ifndef WR_CLI_STORE_ARGS_H
#define WR_CLI_STORE_ARGS_H

#include "app/run_store.h"
#include "cli/opt.h"
#include "cli/trial_opts.h"


extern const struct opt store_args_opts[];
/* Nothing chosen: the default database, no label, no tags. */
void store_args_init(struct run_store *s);
/* Mark the run complete/interrupted/failed with its headline and close
 * (app_run_store_end); prints a warning on failure (the results were
 * printed anyway). */
void store_args_end(struct run_store *s, const char *status, const char *headline);

#endif
