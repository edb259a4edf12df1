/* wirerate probe's workflow: what the host can do (os/probe.c's checks),
 * with the two that need more than a look: whether the XDP generator's
 * live frames run here (root), and whether the CPUs hold their speed (a
 * short soak of each); and --require's list against it. */
#ifndef WR_APP_PROBE_H
#define WR_APP_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "os/probe.h"

/* --require's list: feature names, none empty or unknown. 0, or -EINVAL
 * with the reason. */
int app_probe_check_require(const char *list, char *err, size_t errlen);

/* The host under root (the file system's root for the looks), r filled:
 * steady adds the CPUs' speed check (under half a second of soaking);
 * *live says whether the XDP generator runs here, and live_why why not. */
void app_probe_run(struct probe_report *r, const char *root, bool have_root, bool steady, bool *live,
		   char *live_why, size_t whylen);

/* The first feature of list that r does not have: -ENOENT with "NAME
 * missing: why" in err; 0 when all are there. */
int app_probe_require(const struct probe_report *r, const char *list, char *err, size_t errlen);

#endif
