#include "core/duttarget.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMS "lab[:PREFIX], local, ssh:[USER@]HOST[:PORT] or netns:NAME"

/* A word for ssh(1): letters, digits, '.', '-', '_' and the characters
 * of extra. Nothing that a remote shell or ssh's own option parser would
 * read as something else: not empty, no leading '-', no spaces. */
static bool word_ok(const char *w, const char *extra)
{
	if (!*w || *w == '-')
		return false;
	for (const char *p = w; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '-' || *p == '_' || strchr(extra, *p)))
			return false;
	return true;
}

/* A host name or address as ssh(1) takes it, ':' too (IPv6 in brackets). */
static bool host_ok(const char *h)
{
	return word_ok(h, ":");
}

static bool user_ok(const char *u)
{
	return word_ok(u, "");
}

static int bad(const char *s, const char *why, char *err, size_t errlen)
{
	snprintf(err, errlen, "--dut '%s': %s (expected " FORMS ")", s, why);
	return -EINVAL;
}

static int parse_ssh(const char *s, const char *rest, struct dut_target *t, char *err, size_t errlen)
{
	char buf[DUT_USER_MAX + DUT_HOST_MAX + 16];
	char *host = buf, *at, *colon;

	if (!*rest)
		return bad(s, "ssh: names no host", err, errlen);
	if (strlen(rest) >= sizeof(buf))
		return bad(s, "too long", err, errlen);
	strcpy(buf, rest);
	if ((at = strchr(buf, '@'))) {
		*at = 0;
		if (!user_ok(buf) || strlen(buf) > DUT_USER_MAX)
			return bad(s, "the user name is not valid", err, errlen);
		snprintf(t->user, sizeof(t->user), "%s", buf);
		host = at + 1;
	}
	colon = NULL;
	if (*host == '[') {		/* [2001:2::1]:22 */
		char *close = strchr(host, ']');

		if (!close)
			return bad(s, "unclosed '['", err, errlen);
		*close = 0;
		host++;
		if (close[1] == ':')
			colon = close + 1;
		else if (close[1])
			return bad(s, "unexpected text after ']'", err, errlen);
	} else if ((colon = strchr(host, ':')) && strchr(colon + 1, ':')) {
		colon = NULL;		/* a bare IPv6 address: no port */
	}
	if (colon) {
		char *end;
		unsigned long port;

		*colon = 0;
		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || port < 1 || port > 65535)
			return bad(s, "the port must be a number from 1 to 65535", err, errlen);
		t->port = (unsigned int)port;
	}
	if (!host_ok(host) || strlen(host) > DUT_HOST_MAX)
		return bad(s, "the host name is not valid", err, errlen);
	snprintf(t->host, sizeof(t->host), "%s", host);
	t->kind = DUT_SSH;
	return 0;
}

int duttarget_parse(const char *s, struct dut_target *t, char *err, size_t errlen)
{
	t->kind = DUT_NONE;
	t->prefix[0] = t->user[0] = t->host[0] = t->netns[0] = 0;
	t->port = 0;
	if (!strcmp(s, "local")) {
		t->kind = DUT_LOCAL;
		return 0;
	}
	if (!strcmp(s, "lab") || !strncmp(s, "lab:", 4)) {
		const char *p = s[3] ? s + 4 : "wr-";

		if (!*p || strlen(p) > DUT_PREFIX_MAX)
			return bad(s, "the lab prefix must be 1 to 24 characters", err, errlen);
		snprintf(t->prefix, sizeof(t->prefix), "%s", p);
		t->kind = DUT_LAB;
		return 0;
	}
	if (!strncmp(s, "ssh:", 4))
		return parse_ssh(s, s + 4, t, err, errlen);
	if (!strncmp(s, "netns:", 6)) {
		const char *n = s + 6;

		/* a name ip netns makes: a file of /run/netns */
		if (!*n || strlen(n) > DUT_NETNS_MAX || strchr(n, '/') || !strcmp(n, ".") || !strcmp(n, "..") ||
		    !host_ok(n))
			return bad(s, "the namespace name must be 1 to 63 characters, no '/'", err, errlen);
		snprintf(t->netns, sizeof(t->netns), "%s", n);
		t->kind = DUT_NETNS;
		return 0;
	}
	return bad(s, "unknown kind of DUT", err, errlen);
}

void duttarget_name(const struct dut_target *t, char *buf, size_t len)
{
	switch (t->kind) {
	case DUT_LAB:
		snprintf(buf, len, "lab %s", t->prefix);
		break;
	case DUT_LOCAL:
		snprintf(buf, len, "local");
		break;
	case DUT_NETNS:
		snprintf(buf, len, "netns:%s", t->netns);
		break;
	case DUT_SSH:
		snprintf(buf, len, "ssh:%s%s%s", t->user, t->user[0] ? "@" : "", t->host);
		if (t->port) {
			size_t n = strlen(buf);

			snprintf(buf + n, len > n ? len - n : 0, ":%u", t->port);
		}
		break;
	default:
		snprintf(buf, len, "none");
	}
}

int duttarget_check(const struct dut_target *t, char *err, size_t errlen)
{
	if ((t->nssh_opts || t->agent) && !(t->given && t->kind == DUT_SSH)) {
		snprintf(err, errlen, "%s goes with --dut ssh:HOST", t->nssh_opts ? "--ssh-option" : "--dut-agent");
		return -EINVAL;
	}
	return 0;
}
