/* A lab's status (lab/lab.h) as 'wirerate lab status' shows it: the
 * topology, each interface's counters, the DUT's placement, rules and
 * shaping; text and JSON from the same calls. */
#ifndef WR_RENDER_LAB_PRINT_H
#define WR_RENDER_LAB_PRINT_H

#include "lab/lab.h"
#include "render/out.h"

void lab_print_status(struct out *o, const struct lab_status *st);
/* 'lab down' in text: the line that says the lab is gone. */
void lab_print_removed(const char *prefix);

#endif
