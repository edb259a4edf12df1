/* A bisection's candidate made ready to be measured: the tree checked
 * out at its commit, the user's --build run in it, the build installed
 * on a cabled DUT (--install, then a bounded wait for the DUT to answer
 * with the kernel expected), the lab built afresh (with the candidate's
 * kernel or the image the build made) and --apply run. Each command's
 * output goes to its log in the bisection's logs directory. */
#ifndef WR_APP_BISECT_PREPARE_H
#define WR_APP_BISECT_PREPARE_H

#include <stddef.h>

#include "app/bisect_run.h"

/* Candidate i's place in the tree, built, booted and configured: 0, or
 * 1 with why not in why (a skip), or -EINTR. */
int app_bisect_prepare(struct app_bisect *b, size_t i, char *why, size_t whylen);

#endif
