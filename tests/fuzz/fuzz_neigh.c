/* libFuzzer target for neigh_reply: ARP replies and Neighbour
 * Advertisements come from the wire (whatever answers on the tester's
 * port). Any byte sequence must be handled inside its length, and an
 * accepted answer must name a unicast MAC found in the frame. The first
 * byte picks the family, the target is taken from where a real answer
 * would carry it so that the accepting paths are reached. Build and run
 * with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/neigh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t target[16] = { 0 }, mac[6];
	const uint8_t *f;
	bool v6;
	size_t n;

	if (size < 1)
		return 0;
	v6 = data[0] & 1;
	n = size - 1;
	/* a copy of exactly n bytes, so that ASan sees any read past it */
	f = n ? malloc(n) : NULL;
	if (n && !f)
		return 0;
	if (n)
		memcpy((void *)f, data + 1, n);
	/* ARP: the sender protocol address; IPv6: the NA's target */
	if (!v6 && n >= 32)
		memcpy(target, f + 28, 4);
	if (v6 && n >= 78)
		memcpy(target, f + 62, 16);
	if (!neigh_reply(f, n, v6, target, mac)) {
		CHECK(!(mac[0] & 1));
		CHECK(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]);
		CHECK(memmem(f, n, mac, 6) != NULL);
	}
	free((void *)f);
	return 0;
}
