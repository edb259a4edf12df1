/* libFuzzer target for topology_parse: a net.config is a file the user
 * (or a CI's checkout) gives, and its values go on into command lines,
 * at the peer's shell too. Any bytes must be read inside their length;
 * an accepted pair must have an interface name that fits, a peer name
 * with nothing a shell reads specially, and addresses that parse.
 * Build and run with tests/fuzz/run.sh. */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void addr_ok(const char *a, int af)
{
	unsigned char b[16];

	CHECK(strlen(a) < TOPOLOGY_ADDR_MAX);
	if (*a)
		CHECK(inet_pton(af, a, b) == 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256];
	/* the same bytes also as one variable of the environment */
	char *var = malloc(size + 8);
	const char *env[] = { var, "REMOTE_TYPE=ssh", NULL };
	struct topology t;

	if (!text || !var)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	memcpy(var, "NETIF=", 6);
	memcpy(var + 6, data, size);
	var[size + 6] = '\0';
	for (int round = 0; round < 2; round++) {
		if (topology_parse(round ? NULL : text, env, "net.config", &t, err, sizeof(err))) {
			CHECK(strlen(err) < sizeof(err) && !strchr(err, '\n'));
			continue;
		}
		CHECK(*t.netif && strlen(t.netif) < TOPOLOGY_IFNAMSIZ);
		CHECK(*t.remote_args && t.remote_args[0] != '-');
		for (const char *p = t.remote_args; *p; p++)
			CHECK((unsigned char)*p > ' ' && (unsigned char)*p < 0x7f && !strchr("'\"\\;$`|&()<>", *p));
		addr_ok(t.local_v4, AF_INET);
		addr_ok(t.remote_v4, AF_INET);
		addr_ok(t.local_v6, AF_INET6);
		addr_ok(t.remote_v6, AF_INET6);
		CHECK(*t.local_v4 || *t.local_v6);
	}
out:
	free(text);
	free(var);
	return 0;
}
