/* pair's results printed (render/pair_print.h). */
#include "render/pair_print.h"

#include <errno.h>
#include <stdio.h>

#include "render/gate_print.h"
#include "render/ktap_print.h"

/* A test's progress on stderr: its output is stdout's. */
static void progress(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "pair: %s\n", line);
}

static int print(void *ctx, const struct app_pair_opts *op, const struct testpoint_set *s)
{
	const struct pair_print *p = ctx;
	struct testpoint_counts c = testpoint_count(s);
	struct out *o;

	if (op->ktap)
		return ktap_print_stdout(s);
	o = p->create(op->json, "pair");
	out_str(o, "target", "pair: %s\n", s->env.target);
	out_str(o, "kernel", "  this host's kernel %s", s->env.kernel);
	out_str(o, "config", ", %s\n", s->env.config);
	out_str(o, "run_uuid", NULL, s->env.run_uuid);
	gate_print_points(o, s);
	out_u64(o, "passed", "%llu passed", c.pass + c.done);
	out_u64(o, "failed", ", %llu failed", c.fail + c.error);
	out_u64(o, "skipped", ", %llu skipped\n", c.skip + c.unsure);
	if (op->kcidb.path)
		out_str(o, "kcidb", "KernelCI results: %s\n", op->kcidb.path);
	out_destroy(o);
	return fflush(stdout) ? -errno : 0;
}

static int kcidb(void *ctx, const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err, size_t errlen)
{
	(void)ctx;
	return gate_print_kcidb_file(k, s, err, errlen);
}

const struct app_pair_hooks pair_print_hooks = { .progress = progress, .print = print, .kcidb = kcidb };
