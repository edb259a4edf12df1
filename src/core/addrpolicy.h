/* Where test traffic may go without the user saying otherwise: the
 * benchmarking ranges of RFC 2544 appendix C.2.2 (198.18.0.0/15) and RFC
 * 5180 (2001:2::/48), which no real network routes. A typo in --dst-ip
 * then cannot flood a production host; --allow-any-address is the way out
 * for a DUT that only forwards other addresses. Pure functions: no I/O. */
#ifndef WR_CORE_ADDRPOLICY_H
#define WR_CORE_ADDRPOLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define ADDRPOLICY_RANGES "198.18.0.0/15 and 2001:2::/48"

/* ip: 4 bytes (v6 false) or 16 in network order. An IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) is judged by its IPv4 address. */
bool addrpolicy_ip_in_bench_range(const uint8_t *ip, bool v6);

/* The same for a socket address (AF_INET or AF_INET6; any other family is
 * out of range). For commands that resolve their peer into a sockaddr. */
bool addrpolicy_in_bench_range(const struct sockaddr *sa);

/* 127.0.0.0/8, ::1 or an IPv4-mapped loopback: traffic that never leaves
 * the host, which a command talking to a peer (stream) allows as well. */
bool addrpolicy_is_loopback(const struct sockaddr *sa);

/* The one-line refusal for an address outside the ranges: "OPT ADDR is
 * outside ... give --allow-any-address ..." into err. */
void addrpolicy_refusal(const char *opt, const char *addr, char *err, size_t errlen);

#endif
