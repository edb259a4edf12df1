/* libFuzzer target for the agent protocol's decoder: a DUT's answers and
 * a tester's requests come from another host, so any byte sequence must
 * be decoded within bounds. What decodes as a snapshot must encode and
 * decode again to the same counters. Build and run with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dut/agent_proto.h"
#include "dut/envcap.h"
#include "dut/soak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct dutsnap a, b;
static struct envcap env;
static struct soak_calib_busy load;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	json_object *o = agent_proto_parse((const char *)data, size, err, sizeof(err)), *again;

	if (!o) {
		CHECK(strnlen(err, sizeof(err)) < sizeof(err));
		return 0;
	}
	(void)agent_proto_str(o, "op", "");
	(void)agent_proto_u64(o, "version");
	memset(&env, 0, sizeof(env));
	agent_proto_get_env(o, "env", "dut.", &env);
	CHECK(env.n <= ENVCAP_DUT_MAX - 1);	/* dut.name, the caller's, is the last */
	for (unsigned int i = 0; i < env.n; i++)
		CHECK(!strncmp(env.kv[i].key, "dut.", 4) && strcmp(env.kv[i].key, "dut.name"));
	agent_proto_get_load(o, &load);
	CHECK(load.n <= SOAK_MAX_CPUS);
	for (unsigned int i = 0; i < load.n; i++)
		CHECK(load.load[i] >= 0 && load.load[i] <= 1);
	if (!agent_proto_get_snap(o, &a, err, sizeof(err))) {
		CHECK(a.nif <= DUTSNAP_IF_MAX && a.nqdisc <= DUTSNAP_QDISC_MAX && a.nnft <= DUTSNAP_NFT_MAX);
		again = json_object_new_object();
		agent_proto_put_snap(again, &a);
		CHECK(!agent_proto_get_snap(again, &b, err, sizeof(err)));
		CHECK(a.nif == b.nif && a.nqdisc == b.nqdisc && a.nnft == b.nnft && a.t_ns == b.t_ns);
		for (unsigned int i = 0; i < a.nif; i++)
			CHECK(a.ifs[i].rx_packets == b.ifs[i].rx_packets && !strcmp(a.ifs[i].name, b.ifs[i].name));
		CHECK(!strcmp(a.proc_stat, b.proc_stat));
		json_object_put(again);
		dutsnap_clear(&b);
	}
	dutsnap_clear(&a);
	json_object_put(o);
	return 0;
}
