/* Every JSON document the commands print starts with the same header, so
 * that a consumer knows what wrote it and which shape to expect:
 *   {"wirerate": {"version": "0.1.0", "revision": "v0.1.0-3-gabc1234",
 *                 "schema": 1, "command": "trial", "time": 1796174400}, ...}
 * "schema" is the JSON contract's version (docs/json.md): it changes when
 * a key is removed or changes meaning, not when one is added. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "cli/cli.h"
#include "os/fs.h"
#include "render/out.h"
#include "wr_config.h"
#include "wr_revision.h"

struct out *cli_out_create(const struct cli *cli, const char *command)
{
	return cli_out_create_json(cli->json, command);
}

struct out *cli_out_create_json(bool json, const char *command)
{
	struct out *o = out_create(stdout, json);

	if (o && json) {
		out_obj_start(o, "wirerate");
		out_str(o, "version", NULL, WR_VERSION);
		out_str(o, "revision", NULL, WR_REVISION);
		out_u64(o, "schema", NULL, CLI_JSON_SCHEMA);
		out_str(o, "command", NULL, command);
		out_i64(o, "time", NULL, (int64_t)time(NULL));
		out_obj_end(o);
	}
	return o;
}

void cli_out_json_header(const char *command)
{
	printf("\"wirerate\":{\"version\":");
	out_json_put_string(stdout, WR_VERSION);
	printf(",\"revision\":");
	out_json_put_string(stdout, WR_REVISION);
	printf(",\"schema\":%d,\"command\":", CLI_JSON_SCHEMA);
	out_json_put_string(stdout, command);
	printf(",\"time\":%lld},", (long long)time(NULL));
}
