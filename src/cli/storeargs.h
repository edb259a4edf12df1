/* The results store's options for the commands that store a run (trial,
 * rfc2544): a table for opt_parse whose ctx is a struct storeopt. */
#ifndef WR_CLI_STOREARGS_H
#define WR_CLI_STOREARGS_H

#include "cli/opt.h"
#include "cli/storeopt.h"

extern const struct opt storeopt_opts[];
/* Nothing chosen: the default database, no label, no tags. */
void storeopt_init(struct storeopt *s);

#endif
