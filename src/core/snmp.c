#include "core/snmp.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Where each counter we read lands: (table, column) of the pairs files,
 * or the name of an snmp6 line (table NULL). */
struct snmp_field {
	const char *table, *name;
	size_t off;
};

#define F(t, n, m) { t, n, offsetof(struct dutsnap_stack, m) }
static const struct snmp_field fields[] = {
	F("Ip", "InHdrErrors", ip_in_hdr_errors),
	F("Ip", "InAddrErrors", ip_in_addr_errors),
	F("Ip", "InDiscards", ip_in_discards),
	F("Ip", "ForwDatagrams", ip_forw_datagrams),
	F("Ip", "OutDiscards", ip_out_discards),
	F("Ip", "OutNoRoutes", ip_out_no_routes),
	F("IpExt", "InNoRoutes", ip_in_no_routes),
	F("Icmp", "OutTimeExcds", icmp_out_time_excds),
	F(NULL, "Ip6InNoRoutes", ip6_in_no_routes),
	F(NULL, "Ip6InDiscards", ip6_in_discards),
	F(NULL, "Ip6OutDiscards", ip6_out_discards),
	F(NULL, "Ip6OutForwDatagrams", ip6_out_forw),
	F(NULL, "Ip6InHdrErrors", ip6_in_hdr_errors),
	F(NULL, "Icmp6OutTimeExcds", icmp6_out_time_excds),
};
#undef F
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next line of *p as [s, s + len); false at the end. */
static int next_line(const char **p, const char **s, size_t *len)
{
	const char *e;

	if (!*p || !**p)
		return 0;
	*s = *p;
	e = strchr(*p, '\n');
	*len = e ? (size_t)(e - *p) : strlen(*p);
	*p = e ? e + 1 : *p + *len;
	return 1;
}

/* The next blank-separated token of [*q, end) as [t, t + tl); false when none. */
static int next_tok(const char **q, const char *end, const char **t, size_t *tl)
{
	const char *a = *q;

	while (a < end && blank(*a))
		a++;
	if (a >= end)
		return 0;
	*t = a;
	while (a < end && !blank(*a))
		a++;
	*tl = (size_t)(a - *t);
	*q = a;
	return 1;
}

/* A decimal count of 1 to 20 digits that fits 64 bits; false otherwise
 * ("-1", "1e5", "0x10", 99999999999999999999). */
static int count(const char *t, size_t tl, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl || tl > 20)
		return 0;
	for (size_t i = 0; i < tl; i++) {
		unsigned int d;

		if (t[i] < '0' || t[i] > '9')
			return 0;
		d = (unsigned int)(t[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	*v = x;
	return 1;
}

static int tok_is(const char *t, size_t tl, const char *s)
{
	return strlen(s) == tl && !memcmp(t, s, tl);
}

static void set(struct dutsnap_stack *st, size_t off, uint64_t v)
{
	memcpy((char *)st + off, &v, sizeof(v));
}

/* The table name of a pairs line ("Ip" of "Ip: ..."): [s, s + n) before
 * the colon, no blank in it; 0 when the line has none. */
static size_t table_of(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ':')
			return i;
		if (blank(s[i]))
			return 0;
	}
	return 0;
}

unsigned int snmp_parse_pairs(const char *text, struct dutsnap_stack *st)
{
	const char *p = text, *names = NULL, *s;
	size_t nlen = 0, len, ntab = 0;
	unsigned int found = 0;

	while (next_line(&p, &s, &len)) {
		size_t tab = table_of(s, len);

		/* A names line, then a values line of the same table. */
		if (!tab) {
			names = NULL;
			continue;
		}
		if (!names || ntab != tab || memcmp(names, s, tab)) {
			names = s;
			nlen = len;
			ntab = tab;
			continue;
		}
		const char *qn = names + tab + 1, *qv = s + tab + 1;
		const char *ne = names + nlen, *ve = s + len;
		const char *tn, *tv;
		size_t ln, lv;

		while (next_tok(&qn, ne, &tn, &ln) && next_tok(&qv, ve, &tv, &lv)) {
			for (size_t f = 0; f < NFIELDS; f++) {
				uint64_t v;

				if (!fields[f].table || !tok_is(names, tab, fields[f].table) ||
				    !tok_is(tn, ln, fields[f].name))
					continue;
				if (count(tv, lv, &v)) {
					set(st, fields[f].off, v);
					found++;
				}
			}
		}
		names = NULL;
	}
	if (found)
		st->present = true;
	return found;
}

unsigned int snmp_parse_snmp6(const char *text, struct dutsnap_stack *st)
{
	const char *p = text, *s;
	size_t len;
	unsigned int found = 0;

	while (next_line(&p, &s, &len)) {
		const char *q = s, *e = s + len, *tn, *tv, *tx;
		size_t ln, lv, lx;

		if (!next_tok(&q, e, &tn, &ln) || !next_tok(&q, e, &tv, &lv) || next_tok(&q, e, &tx, &lx))
			continue;
		for (size_t f = 0; f < NFIELDS; f++) {
			uint64_t v;

			if (fields[f].table || !tok_is(tn, ln, fields[f].name))
				continue;
			if (count(tv, lv, &v)) {
				set(st, fields[f].off, v);
				found++;
			}
		}
	}
	if (found)
		st->present = true;
	return found;
}
