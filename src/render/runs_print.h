/* What 'wirerate runs' prints, text and JSON from the same calls: the
 * list of stored runs (a line or an object each), one run with every
 * trial ('runs show', from the run's export document), and what import,
 * sync, upgrade and rm did. */
#ifndef WR_RENDER_RUNS_PRINT_H
#define WR_RENDER_RUNS_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "app/runs.h"
#include "render/out.h"
#include "store/db_export.h"

/* The list: the store's path and the table's head, then each run (an
 * app_runs_list callback, arg the out) inside the "runs" array. */
void runs_print_list_head(struct out *o, const char *path);
void runs_print_run(void *arg, const struct app_run_entry *e);

/* An export document as it is, on stdout (runs export, runs show --json). */
void runs_print_doc(json_object *doc);
/* 'runs show': the first run of an export document, as text. */
void runs_print_show(struct out *o, json_object *doc);

void runs_print_import(struct out *o, const char *path, const struct db_import_result *r);
void runs_print_sync(struct out *o, const char *from, const char *path, const struct db_import_result *r);
/* was: the schema version the file had (0: it was empty). */
void runs_print_upgrade(struct out *o, const char *path, int64_t was);
void runs_print_removed(struct out *o, const int64_t *ids, size_t n);
/* What a subcommand did (app_runs_do), by the calls above; show and
 * export with o NULL: the document as it is. */
void runs_print_done(struct out *o, const struct app_runs_done *d);

#endif
