/* --next-hop and --rx-next-hop: the options of src/cli/trial_opts.c that
 * name the DUT's ports to ask for their MACs (what was resolved is
 * printed by render/trial_live.c). */
#include "cli/trial_opts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>


/* Not unspecified, broadcast or multicast: an address a port can hold. */
static bool unicast(const uint8_t *a, bool v6)
{
	static const uint8_t zero[16];

	if (v6)
		return a[0] != 0xff && memcmp(a, zero, 16);
	return (a[0] & 0xf0) != 0xe0 && memcmp(a, zero, 4) && memcmp(a, "\xff\xff\xff\xff", 4);
}

/* --next-hop, --rx-next-hop: an address, checked against the rest in
 * app_trial_check. */
int trial_opts_nexthop_set(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_nexthop *nh = &((struct trial_request *)ctx)->nh[opt->id];

	nh->set = true;
	nh->v6 = strchr(v, ':') != NULL;
	if (inet_pton(nh->v6 ? AF_INET6 : AF_INET, v, nh->ip) != 1 || !unicast(nh->ip, nh->v6)) {
		snprintf(err, errlen, "--%s '%s': expected the IPv4 or IPv6 address of the DUT's port", opt->name, v);
		return -EINVAL;
	}
	return 0;
}
