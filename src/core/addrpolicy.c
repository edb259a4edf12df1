#include "core/addrpolicy.h"

#include <stdio.h>
#include <string.h>
#include <netinet/in.h>

static bool v4_in_range(const uint8_t *a)
{
	return a[0] == 198 && (a[1] & 0xfe) == 18;	/* 198.18.0.0/15 */
}

bool addrpolicy_ip_in_bench_range(const uint8_t *ip, bool v6)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t bench6[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };	/* 2001:2::/48 */

	if (!v6)
		return v4_in_range(ip);
	if (!memcmp(ip, mapped, sizeof(mapped)))
		return v4_in_range(ip + 12);
	return !memcmp(ip, bench6, sizeof(bench6));
}

bool addrpolicy_in_bench_range(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return addrpolicy_ip_in_bench_range((const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr, false);
	if (sa->sa_family == AF_INET6)
		return addrpolicy_ip_in_bench_range(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, true);
	return false;
}

bool addrpolicy_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr)[0] == 127;
	if (sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		static const uint8_t one[16] = { [15] = 1 };
		static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

		return !memcmp(a, one, 16) || (!memcmp(a, mapped, 12) && a[12] == 127);
	}
	return false;
}

void addrpolicy_refusal(const char *opt, const char *addr, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s %s is outside the benchmarking ranges " ADDRPOLICY_RANGES
		 ": give --allow-any-address to send there anyway", opt, addr);
}
