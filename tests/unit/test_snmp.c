/* The stack counters' parser on real text and on hostile text: garbled
 * lines, counts too large for 64 bits, values lines shorter than their
 * names, tables out of order, no newline at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snmp.h"

static const char snmp_real[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards "
	"InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs "
	"FragFails FragCreates OutTransmits\n"
	"Ip: 1 64 2774 7 3 123456789012 0 11 2774 1486 12 13 0 0 0 0 0 0 0 1486\n"
	"Icmp: InMsgs InErrors InCsumErrors InDestUnreachs InTimeExcds InParmProbs InSrcQuenchs InRedirects "
	"InEchos InEchoReps InTimestamps InTimestampReps InAddrMasks InAddrMaskReps OutMsgs OutErrors "
	"OutRateLimitGlobal OutRateLimitHost OutDestUnreachs OutTimeExcds OutParmProbs\n"
	"Icmp: 1 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5 0\n"
	"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens\n"
	"Tcp: 1 200 120000 -1 40\n";

static const char netstat_real[] =
	"TcpExt: SyncookiesSent SyncookiesRecv\n"
	"TcpExt: 0 0\n"
	"IpExt: InNoRoutes InTruncatedPkts InMcastPkts\n"
	"IpExt: 42 0 0\n";

static const char snmp6_real[] =
	"Ip6InReceives                   \t100\n"
	"Ip6InHdrErrors                  \t2\n"
	"Ip6InNoRoutes                   \t3\n"
	"Ip6InDiscards                   \t4\n"
	"Ip6OutForwDatagrams             \t90\n"
	"Ip6OutDiscards                  \t5\n"
	"Icmp6OutTimeExcds               \t1\n";

static void real_text(void **st)
{
	struct dutsnap_stack s = { 0 };

	(void)st;
	assert_int_equal(snmp_parse_pairs(snmp_real, &s), 7);
	assert_true(s.present);
	assert_int_equal(s.ip_in_hdr_errors, 7);
	assert_int_equal(s.ip_in_addr_errors, 3);
	assert_int_equal(s.ip_forw_datagrams, 123456789012ULL);
	assert_int_equal(s.ip_in_discards, 11);
	assert_int_equal(s.ip_out_discards, 12);
	assert_int_equal(s.ip_out_no_routes, 13);
	assert_int_equal(s.icmp_out_time_excds, 5);
	assert_int_equal(snmp_parse_pairs(netstat_real, &s), 1);
	assert_int_equal(s.ip_in_no_routes, 42);
	assert_int_equal(snmp_parse_snmp6(snmp6_real, &s), 6);
	assert_int_equal(s.ip6_in_hdr_errors, 2);
	assert_int_equal(s.ip6_in_no_routes, 3);
	assert_int_equal(s.ip6_in_discards, 4);
	assert_int_equal(s.ip6_out_forw, 90);
	assert_int_equal(s.ip6_out_discards, 5);
	assert_int_equal(s.icmp6_out_time_excds, 1);
}

static void hostile(void **st)
{
	struct dutsnap_stack s = { 0 };

	(void)st;
	/* Nothing, or nothing of ours. */
	assert_int_equal(snmp_parse_pairs(NULL, &s), 0);
	assert_int_equal(snmp_parse_pairs("", &s), 0);
	assert_int_equal(snmp_parse_pairs("\n\n\n", &s), 0);
	assert_int_equal(snmp_parse_pairs("garbage without colon\nIp 1 2 3\n:::\n: :\n", &s), 0);
	assert_false(s.present);
	/* Values shorter than names: only the columns that have a value. */
	assert_int_equal(snmp_parse_pairs("Ip: InHdrErrors InAddrErrors InDiscards\nIp: 9\n", &s), 1);
	assert_int_equal(s.ip_in_hdr_errors, 9);
	assert_int_equal(s.ip_in_discards, 0);
	/* Too large for 64 bits, negative, hex, signs, letters: untouched. */
	assert_int_equal(snmp_parse_pairs("Ip: InHdrErrors InAddrErrors InDiscards OutDiscards OutNoRoutes\n"
					  "Ip: 18446744073709551616 -1 0x10 +5 12a\n", &s), 0);
	assert_int_equal(s.ip_in_hdr_errors, 9);
	assert_int_equal(s.ip_in_addr_errors, 0);
	/* The largest 64-bit count is a count. */
	assert_int_equal(snmp_parse_pairs("Ip: InDiscards\nIp: 18446744073709551615\n", &s), 1);
	assert_true(s.ip_in_discards == UINT64_MAX);
	/* Tables interleaved: a pair is two lines in a row, so none. */
	assert_int_equal(snmp_parse_pairs("Ip: OutDiscards\nIcmp: OutTimeExcds\nIp: 7\nIcmp: 8", &s), 0);
	assert_int_equal(s.ip_out_discards, 0);
	assert_int_equal(s.icmp_out_time_excds, 0);
	/* A column of another table's name is not ours. */
	assert_int_equal(snmp_parse_pairs("Udp: InDiscards\nUdp: 77\n", &s), 0);
	assert_true(s.ip_in_discards == UINT64_MAX);
	/* Three lines of one table: the third starts a new pair. */
	assert_int_equal(snmp_parse_pairs("Ip: OutNoRoutes\nIp: 4\nIp: OutNoRoutes\n", &s), 1);
	assert_int_equal(s.ip_out_no_routes, 4);
	/* A very long line of names, many columns. */
	{
		size_t n = 200000;
		char *t = malloc(2 * n + 64);
		size_t o = 0;

		o += (size_t)sprintf(t + o, "Ip:");
		for (unsigned int i = 0; i < 20000; i++)
			o += (size_t)sprintf(t + o, " X%u", i);
		o += (size_t)sprintf(t + o, " InAddrErrors\nIp:");
		for (unsigned int i = 0; i < 20000; i++)
			o += (size_t)sprintf(t + o, " 1");
		o += (size_t)sprintf(t + o, " 31\n");
		assert_int_equal(snmp_parse_pairs(t, &s), 1);
		assert_int_equal(s.ip_in_addr_errors, 31);
		free(t);
	}
	/* snmp6: a line with a third word, a name alone, a bad value. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(snmp_parse_snmp6("Ip6InDiscards 1 2\nIp6InNoRoutes\nIp6OutDiscards x\n"
					  "Ip6InHdrErrorsX 5\n\t\n", &s), 0);
	assert_false(s.present);
	assert_int_equal(snmp_parse_snmp6("  Ip6InNoRoutes   \t 8\r\n", &s), 1);
	assert_int_equal(s.ip6_in_no_routes, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_text),
		cmocka_unit_test(hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
