/* The stack's counters from the text of /proc/net/snmp, /proc/net/netstat
 * (pairs of lines "Ip: Name Name ..." / "Ip: 1 2 ...") and
 * /proc/net/snmp6 (lines "Ip6InDiscards 0"): the drops a forwarding
 * stack counts for itself (no route, TTL exceeded, discards, header
 * errors). Pure: the DUT side sends the text or these figures, the
 * tester parses. The text is untrusted (it may come over the agent
 * protocol from another box): a garbled line, a value that is not a
 * decimal count or does not fit 64 bits, and a values line shorter than
 * its names line leave the fields concerned untouched. */
#ifndef WR_CORE_SNMP_H
#define WR_CORE_SNMP_H

#include "core/dutsnap.h"

/* Fields of st that text of /proc/net/snmp or /proc/net/netstat sets
 * (Ip, Icmp, IpExt); returns how many were found. Sets st->present when
 * any was. NULL text: 0. */
unsigned int snmp_parse_pairs(const char *text, struct dutsnap_stack *st);
/* The same for /proc/net/snmp6. */
unsigned int snmp_parse_snmp6(const char *text, struct dutsnap_stack *st);

#endif
