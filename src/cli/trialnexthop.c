/* --next-hop and --rx-next-hop (the options of src/cli/trialopt.c that
 * name the DUT's ports to ask for their MACs), and the lines that say
 * what was resolved and which port path was taken. */
#include "cli/trialopt.h"
#include "app/trialres.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "render/out.h"

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
int trialopt_set_next_hop(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct trial_nexthop *nh = &((struct trialopt *)ctx)->nh[opt->id];

	nh->set = true;
	nh->v6 = strchr(v, ':') != NULL;
	if (inet_pton(nh->v6 ? AF_INET6 : AF_INET, v, nh->ip) != 1 || !unicast(nh->ip, nh->v6)) {
		snprintf(err, errlen, "--%s '%s': expected the IPv4 or IPv6 address of the DUT's port", opt->name, v);
		return -EINVAL;
	}
	return 0;
}


void trialopt_print_ports(struct out *out, const struct trialopt *o)
{
	out_arr_start(out, "next_hops");
	for (int k = 0; k < 2; k++) {
		const struct trial_nexthop *nh = &o->nh[k];
		const uint8_t *m = nh->mac;
		char a[INET6_ADDRSTRLEN], mac[18];

		if (!nh->resolved)
			continue;
		inet_ntop(nh->v6 ? AF_INET6 : AF_INET, nh->ip, a, sizeof(a));
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
		out_obj_start(out, NULL);
		out_u64(out, "direction", NULL, (uint64_t)k);
		out_str(out, "address", "  next hop   %s", a);
		out_str(out, "mac", " is %s", mac);
		out_str(out, "port", " on %s", k ? o->rx_if : o->tx_if);
		out_str(out, "protocol", " (%s", nh->v6 ? "ND" : "ARP");
		out_f64(out, "ms", ", %.1f ms", nh->ms);
		out_u64(out, "tries", nh->tries > 1 ? ", %llu tries)\n" : ")\n", nh->tries);
		out_obj_end(out);
	}
	out_arr_end(out);
	if (o->path_why[0])
		out_text(out, "  port path  %s", app_trial_path(o));
	out_str(out, "path_reason", o->path_why[0] ? " (%s)\n" : NULL, o->path_why);
}
