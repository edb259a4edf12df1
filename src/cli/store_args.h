/* Storing a traffic command's run (trial, rfc2544): the store's options
 * (--db, --label, --tag, --no-store) as a table for opt_parse whose ctx
 * is a struct run_store_request (a struct run_store's req). Storing is on
 * by default; the app marks the run's end (app_run_store_end_say). */
#ifndef WR_CLI_STORE_ARGS_H
#define WR_CLI_STORE_ARGS_H

#include "app/run_store.h"
#include "cli/opt.h"
#include "cli/trial_opts.h"

extern const struct opt store_args_opts[];
/* Nothing chosen: the default database, no label, no tags. */
void store_args_init(struct run_store *s);

#endif
