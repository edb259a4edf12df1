/* The selftests' two-endpoint pair from net.config and the environment
 * (core/topology.h). */
#include "core/topology.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/errmsg.h"

enum key { K_NETIF, K_LOCAL_V4, K_LOCAL_V6, K_REMOTE_V4, K_REMOTE_V6, K_REMOTE_TYPE, K_REMOTE_ARGS, K_N };

static const char *const key_name[K_N] = {
	"NETIF", "LOCAL_V4", "LOCAL_V6", "REMOTE_V4", "REMOTE_V6", "REMOTE_TYPE", "REMOTE_ARGS",
};

#define VAL_MAX 256

struct vals {
	char v[K_N][VAL_MAX];
	bool given[K_N];
};

/* A value as an error message shows it: at most 64 bytes, every byte
 * that is not printable ASCII a '?', so that a message stays one line
 * whatever a file or the environment held. */
static const char *shown(const char *v, char *buf, size_t len)
{
	size_t i;

	for (i = 0; v[i] && i < 64 && i + 1 < len; i++)
		buf[i] = (unsigned char)v[i] >= 0x20 && (unsigned char)v[i] < 0x7f ? v[i] : '?';
	buf[i] = '\0';
	return buf;
}

static int key_of(const char *k, size_t n)
{
	for (int i = 0; i < K_N; i++)
		if (strlen(key_name[i]) == n && !strncmp(key_name[i], k, n))
			return i;
	return -1;
}

static int too_long(const char *what, unsigned int line, const char *key, char *err, size_t errlen)
{
	if (line)
		return errmsg(-EINVAL, err, errlen, "%s line %u: %s is too long", what, line, key);
	return errmsg(-EINVAL, err, errlen, "%s in the environment is too long", key);
}

/* One value as a shell reads it: words in '...' kept as they are, in
 * "..." with \" \\ \$ \` taken as the character, a \ outside quotes the
 * next character; blanks outside quotes end the value (what follows must
 * be a comment or nothing). -1 for an open quote or words after it. */
static int unquote(const char *s, char *out, size_t len)
{
	size_t w = 0;
	char q = 0;

	for (; *s; s++) {
		char c = *s;

		if (!q && (c == ' ' || c == '\t')) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s && *s != '#')
				return -1;
			break;
		}
		if (!q && c == '#' && (w == 0 || s[-1] == ' ' || s[-1] == '\t'))
			break;
		if (!q && (c == '\'' || c == '"')) {
			q = c;
			continue;
		}
		if (q && c == q) {
			q = 0;
			continue;
		}
		if (c == '\\' && q != '\'' && s[1] && (!q || strchr("\"\\$`", s[1])))
			c = *++s;
		if (w + 1 >= len)
			return -2;
		out[w++] = c;
	}
	out[w] = '\0';
	return q ? -1 : 0;
}

static int parse_file(const char *text, const char *what, struct vals *v, char *err, size_t errlen)
{
	unsigned int line = 0;
	const char *p = text;

	while (*p) {
		const char *end = strchr(p, '\n'), *s, *eq;
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char buf[1024], val[VAL_MAX];
		int k, rc;

		line++;
		if (n >= sizeof(buf))
			return errmsg(-EINVAL, err, errlen, "%s line %u is too long", what, line);
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (end ? 1 : 0);
		if (memchr(buf, '\0', n))
			return errmsg(-EINVAL, err, errlen, "%s line %u holds a NUL byte", what, line);
		for (s = buf; *s == ' ' || *s == '\t' || *s == '\r'; s++)
			;
		/* a comment, a blank line, and a shell's "export KEY=value" */
		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "export ", 7))
			for (s += 7; *s == ' '; s++)
				;
		buf[strcspn(buf, "\r")] = '\0';
		eq = strchr(s, '=');
		if (!eq || eq == s || strcspn(s, " \t") < (size_t)(eq - s))
			return errmsg(-EINVAL, err, errlen, "%s line %u: not KEY=value", what, line);
		rc = unquote(eq + 1, val, sizeof(val));
		if (rc == -1)
			return errmsg(-EINVAL, err, errlen, "%s line %u: an open quote, or words after the value", what,
				      line);
		k = key_of(s, (size_t)(eq - s));
		if (k < 0)
			continue;	/* a key of another test: not ours */
		if (rc == -2)
			return too_long(what, line, key_name[k], err, errlen);
		snprintf(v->v[k], VAL_MAX, "%s", val);
		v->given[k] = true;
	}
	return 0;
}

static int parse_env(const char *const *envp, struct vals *v, char *err, size_t errlen)
{
	for (; envp && *envp; envp++) {
		const char *eq = strchr(*envp, '=');
		int k;

		if (!eq || (k = key_of(*envp, (size_t)(eq - *envp))) < 0)
			continue;
		if (strlen(eq + 1) >= VAL_MAX)
			return too_long("", 0, key_name[k], err, errlen);
		snprintf(v->v[k], VAL_MAX, "%s", eq + 1);
		v->given[k] = true;
	}
	return 0;
}

/* A name that cannot be taken for an option or break a command line:
 * printable, no blanks, quotes or shell metacharacters. */
static bool name_ok(const char *s)
{
	if (!*s || *s == '-')
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c >= 0x7f || c == '/' || c == '\'' || c == '"' || c == '\\' || c == ';' || c == '$' ||
		    c == '`' || c == '|' || c == '&' || c == '(' || c == ')' || c == '<' || c == '>')
			return false;
	}
	return true;
}

static int address(const char *key, const char *s, bool v6, char *out, char *err, size_t errlen)
{
	unsigned char b[16];
	char sb[72];

	if (inet_pton(v6 ? AF_INET6 : AF_INET, s, b) != 1)
		return errmsg(-EINVAL, err, errlen, "%s '%s' is not an IPv%c address", key, shown(s, sb, sizeof(sb)),
			      v6 ? '6' : '4');
	snprintf(out, TOPOLOGY_ADDR_MAX, "%s", s);
	return 0;
}

int topology_parse(const char *text, const char *const *envp, const char *what, struct topology *t, char *err,
		   size_t errlen)
{
	struct vals *v = calloc(1, sizeof(*v));
	const char *src = text ? what : "the environment";
	char sb[72];
	int rc;

	memset(t, 0, sizeof(*t));
	if (!v)
		return errmsg(-ENOMEM, err, errlen, "out of memory");
	if ((rc = parse_env(envp, v, err, errlen)) || (text && (rc = parse_file(text, what, v, err, errlen))))
		goto out;
	rc = -EINVAL;
	if (!v->v[K_NETIF][0]) {
		errmsg(rc, err, errlen, "%s has no NETIF: name the interface under test (NETIF=eth1)", src);
		goto out;
	}
	if (strlen(v->v[K_NETIF]) >= TOPOLOGY_IFNAMSIZ || !name_ok(v->v[K_NETIF])) {
		errmsg(rc, err, errlen, "NETIF '%s' is not an interface name", shown(v->v[K_NETIF], sb, sizeof(sb)));
		goto out;
	}
	snprintf(t->netif, sizeof(t->netif), "%s", v->v[K_NETIF]);
	if (!strcmp(v->v[K_REMOTE_TYPE], "netns")) {
		t->remote_type = TOPOLOGY_NETNS;
	} else if (!strcmp(v->v[K_REMOTE_TYPE], "ssh")) {
		t->remote_type = TOPOLOGY_SSH;
	} else {
		if (v->given[K_REMOTE_TYPE])
			errmsg(rc, err, errlen, "REMOTE_TYPE '%s': wirerate knows netns and ssh",
			       shown(v->v[K_REMOTE_TYPE], sb, sizeof(sb)));
		else
			errmsg(rc, err, errlen, "%s has no REMOTE_TYPE: netns or ssh", src);
		goto out;
	}
	if (!v->v[K_REMOTE_ARGS][0]) {
		errmsg(rc, err, errlen, "%s has no REMOTE_ARGS: the peer's %s", src,
		       t->remote_type == TOPOLOGY_NETNS ? "namespace name" : "host for ssh");
		goto out;
	}
	if (!name_ok(v->v[K_REMOTE_ARGS]) ||
	    (t->remote_type == TOPOLOGY_NETNS && !strcmp(v->v[K_REMOTE_ARGS], "..")) ||
	    (t->remote_type == TOPOLOGY_NETNS && !strcmp(v->v[K_REMOTE_ARGS], "."))) {
		errmsg(rc, err, errlen, "REMOTE_ARGS '%s' is not a %s", shown(v->v[K_REMOTE_ARGS], sb, sizeof(sb)),
		       t->remote_type == TOPOLOGY_NETNS ? "namespace name" : "host name ([USER@]HOST)");
		goto out;
	}
	snprintf(t->remote_args, sizeof(t->remote_args), "%s", v->v[K_REMOTE_ARGS]);
	for (int fam = 0; fam < 2; fam++) {
		int l = fam ? K_LOCAL_V6 : K_LOCAL_V4, r = fam ? K_REMOTE_V6 : K_REMOTE_V4;

		if (!v->v[l][0] != !v->v[r][0]) {
			errmsg(rc, err, errlen, "%s without %s: give both ends of the pair", key_name[v->v[l][0] ? l : r],
			       key_name[v->v[l][0] ? r : l]);
			goto out;
		}
		if (v->v[l][0] &&
		    ((rc = address(key_name[l], v->v[l], fam, fam ? t->local_v6 : t->local_v4, err, errlen)) ||
		     (rc = address(key_name[r], v->v[r], fam, fam ? t->remote_v6 : t->remote_v4, err, errlen))))
			goto out;
		rc = -EINVAL;
	}
	if (!t->local_v4[0] && !t->local_v6[0]) {
		errmsg(rc, err, errlen, "%s has no addresses: give LOCAL_V4 and REMOTE_V4, or LOCAL_V6 and REMOTE_V6", src);
		goto out;
	}
	if (!strcmp(t->local_v4[0] ? t->local_v4 : t->local_v6, t->local_v4[0] ? t->remote_v4 : t->remote_v6)) {
		errmsg(rc, err, errlen, "the local and remote addresses are the same");
		goto out;
	}
	rc = 0;
out:
	free(v);
	return rc;
}

const char *topology_remote_name(enum topology_remote r)
{
	return r == TOPOLOGY_SSH ? "ssh" : "netns";
}

void topology_describe(const struct topology *t, char *buf, size_t len)
{
	int n = snprintf(buf, len, "NETIF=%s", t->netif);

	if (n >= 0 && (size_t)n < len && t->local_v4[0])
		n += snprintf(buf + n, len - (size_t)n, " LOCAL_V4=%s REMOTE_V4=%s", t->local_v4, t->remote_v4);
	if (n >= 0 && (size_t)n < len && t->local_v6[0])
		n += snprintf(buf + n, len - (size_t)n, " LOCAL_V6=%s REMOTE_V6=%s", t->local_v6, t->remote_v6);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " REMOTE_TYPE=%s REMOTE_ARGS=%s", topology_remote_name(t->remote_type),
			 t->remote_args);
}
