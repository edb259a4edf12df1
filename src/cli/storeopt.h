/* Storing a traffic command's run (trial, rfc2544): --db, --label, --tag,
 * --no-store, the run row with its environment at the start, every trial
 * as it ends, the status at the end. Storing is on by default. */
#ifndef WR_CLI_STOREOPT_H
#define WR_CLI_STOREOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/trialopt.h"
#include "app/runstore.h"
#include "store/db.h"

#define STOREOPT_MAX_TAGS APP_STORE_MAX_TAGS

#define STOREOPT_HELP \
	"results store (see 'wirerate runs' and 'wirerate report'):\n" \
	"  --db FILE           the results database (default $WIRERATE_DB, else\n" \
	"                      $XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db)\n" \
	"  --label TEXT        a name for this run, e.g. the kernel: --label 2.6.29\n" \
	"  --tag TEXT          a free-form tag (repeatable)\n" \
	"  --no-store          do not store this run\n"

/* Take the store options out of argv (the rest is left for the command's
 * own parser); returns the new argc, or -EINVAL with err. */
int storeopt_take(struct storeopt *s, int argc, char **argv, char *err, size_t errlen);

/* Mark the run complete/interrupted/failed with its headline and close
 * (app_store_end); prints a warning on failure (the results were
 * printed anyway). */
void storeopt_end(struct storeopt *s, const char *status, const char *headline);

#endif
