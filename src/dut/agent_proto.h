/* The agent protocol's messages (docs/agent.md): JSON objects, one per
 * line, between the tester (the client, src/dut/dut.c) and `wirerate
 * agent` on the DUT (src/dut/agent.c). Both ends encode and decode here,
 * so they cannot disagree on a field. Everything decoded came from another
 * host: lengths are bounded, arrays capped, a missing field is an error
 * or zero, never a crash. */
#ifndef WR_DUT_AGENT_PROTO_H
#define WR_DUT_AGENT_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "core/dutsnap.h"

/* The version both ends must speak. A change that an older peer would
 * misread raises it. */
#define AGENT_PROTO_VERSION 1
/* The longest line either end accepts: a request is small; a snapshot
 * of a 256-CPU box's /proc/interrupts is a few hundred KiB. */
#define AGENT_REQ_MAX (64 * 1024)
#define AGENT_RESP_MAX (8 * 1024 * 1024)

struct envcap;
struct json_bound;
struct soak_calib_busy;

/* A line into an object: NULL with a reason when it is not one JSON
 * object (a trailing newline is fine) or holds more than agent_proto_bound
 * allows (core/json_bound.h). */
extern const struct json_bound agent_proto_bound;
json_object *agent_proto_parse(const char *line, size_t len, char *err, size_t errlen);
/* The object as one line with its newline, into a malloc'ed string. */
char *agent_proto_line(json_object *o, size_t *len);

/* Field readers that never fail: a missing or mistyped field gives the
 * default. */
const char *agent_proto_str(json_object *o, const char *key, const char *dflt);
uint64_t agent_proto_u64(json_object *o, const char *key);
double agent_proto_f64(json_object *o, const char *key);
bool agent_proto_bool(json_object *o, const char *key);

/* {"ok":false,"error":why} */
json_object *agent_proto_error(const char *why);

void agent_proto_put_snap(json_object *o, const struct dutsnap *s);
/* -EPROTO with a reason when a required part is missing. */
int agent_proto_get_snap(json_object *o, struct dutsnap *s, char *err, size_t errlen);

void agent_proto_put_env(json_object *o, const char *key, const struct envcap *e);
/* The string keys of object o.key into e as prefix + key: at most
 * ENVCAP_DUT_MAX keys in all; the key "name" (the caller's) and keys past
 * the bound or too long are dropped, their count in prefix + "env_dropped". */
void agent_proto_get_env(json_object *o, const char *key, const char *prefix, struct envcap *e);

struct soak_idle;
struct stallprobe_result;
/* "check": the idle check before a soak; get: false when there was none. */
void agent_proto_put_check(json_object *o, const struct soak_idle *c);
bool agent_proto_get_check(json_object *o, struct soak_idle *c);
struct profile_result;
/* A profile's window (dut/profile.h). */
void agent_proto_put_profile(json_object *o, const struct profile_result *r);
void agent_proto_get_profile(json_object *o, struct profile_result *r);
/* The stall probe's window. */
void agent_proto_put_stall(json_object *o, const struct stallprobe_result *r);
void agent_proto_get_stall(json_object *o, struct stallprobe_result *r);

void agent_proto_put_load(json_object *o, const struct soak_calib_busy *l);
void agent_proto_get_load(json_object *o, struct soak_calib_busy *l);

#endif
