#include "os/nft.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <nftables/libnftables.h>
#include <json-c/json.h>

static struct nft_ctx *ctx_new(char *err, size_t errlen)
{
	struct nft_ctx *c = nft_ctx_new(NFT_CTX_DEFAULT);

	if (!c) {
		snprintf(err, errlen, "cannot open nftables");
		return NULL;
	}
	if (nft_ctx_buffer_output(c) || nft_ctx_buffer_error(c)) {
		nft_ctx_free(c);
		snprintf(err, errlen, "cannot set up nftables output");
		return NULL;
	}
	return c;
}

static int run(struct nft_ctx *c, const char *cmd, char *err, size_t errlen)
{
	if (nft_run_cmd_from_buffer(c, cmd)) {
		const char *e = nft_ctx_get_error_buffer(c);
		size_t n;

		snprintf(err, errlen, "nftables: %s", e && *e ? e : "command failed");
		n = strlen(err);
		while (n && err[n - 1] == '\n')
			err[--n] = '\0';
		for (char *p = err; *p; p++)
			if (*p == '\n')
				*p = ' ';
		return -EIO;
	}
	return 0;
}

int nft_null_rules_set(unsigned int n, char *err, size_t errlen)
{
	struct nft_ctx *c;
	char *buf = NULL;
	size_t len, off;
	int rc;

	if (n > NFT_RULES_MAX)
		return -ERANGE;
	if (!(c = ctx_new(err, errlen)))
		return -ENOMEM;
	/* "add" then "delete" makes removal succeed whether or not it exists. */
	len = 256 + (size_t)n * 96;
	buf = malloc(len);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	off = (size_t)snprintf(buf, len,
		"add table inet " NFT_TABLE "\n"
		"delete table inet " NFT_TABLE "\n");
	if (n) {
		off += (size_t)snprintf(buf + off, len - off,
			"add table inet " NFT_TABLE "\n"
			"add chain inet " NFT_TABLE " forward { type filter hook forward priority filter; policy accept; }\n");
		/* Each rule compares source address and port: sources from
		 * 198.19.255.0/24, which nothing in the lab ever sends from. */
		for (unsigned int i = 0; i < n; i++)
			off += (size_t)snprintf(buf + off, len - off,
				"add rule inet " NFT_TABLE " forward ip saddr 198.19.255.%u udp sport %u drop\n",
				i % 254 + 1, 1024 + i / 254);
	}
	rc = run(c, buf, err, errlen);
out:
	free(buf);
	nft_ctx_free(c);
	return rc;
}

int nft_null_rules_count(char *err, size_t errlen)
{
	struct nft_ctx *c;
	const char *o;
	int n = 0;

	if (!(c = ctx_new(err, errlen)))
		return -ENOMEM;
	if (nft_run_cmd_from_buffer(c, "list tables inet")) {
		nft_ctx_free(c);
		snprintf(err, errlen, "nftables: cannot list tables");
		return -EIO;
	}
	o = nft_ctx_get_output_buffer(c);
	if (!o || !strstr(o, "table inet " NFT_TABLE "\n")) {
		nft_ctx_free(c);
		return 0;
	}
	if (nft_run_cmd_from_buffer(c, "list chain inet " NFT_TABLE " forward")) {
		nft_ctx_free(c);
		return 0;
	}
	o = nft_ctx_get_output_buffer(c);
	for (const char *p = o; p && (p = strstr(p, " drop\n")); p++)
		n++;
	nft_ctx_free(c);
	return n;
}

int nft_ruleset_text(char **text, char *err, size_t errlen)
{
	struct nft_ctx *c;
	const char *o;
	int rc = 0;

	*text = NULL;
	if (!(c = ctx_new(err, errlen)))
		return -ENOMEM;
	if ((rc = run(c, "list ruleset", err, errlen)) == 0) {
		o = nft_ctx_get_output_buffer(c);
		if (!(*text = strdup(o ? o : "")))
			rc = -ENOMEM;
	}
	nft_ctx_free(c);
	return rc;
}

/* ---- counters of the rules that drop ---- */

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v) : NULL;
}

static uint64_t ju64(json_object *o, const char *key)
{
	json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return 0;
	x = json_object_get_int64(v);
	return x > 0 ? (uint64_t)x : 0;
}

/* Add the rules of one JSON listing that count and drop. */
static void drops_of(const char *text, struct nft_drop_rule *out, unsigned int max, unsigned int *n)
{
	json_object *root = json_tokener_parse(text), *arr;
	size_t len;

	if (!root)
		return;
	if (!json_object_object_get_ex(root, "nftables", &arr) || !json_object_is_type(arr, json_type_array))
		goto out;
	len = json_object_array_length(arr);
	for (size_t i = 0; i < len && *n < max; i++) {
		json_object *item = json_object_array_get_idx(arr, i), *rule, *expr, *cnt = NULL;
		bool drop = false;
		const char *fam, *tab, *ch;

		if (!item || !json_object_object_get_ex(item, "rule", &rule) ||
		    !json_object_object_get_ex(rule, "expr", &expr) || !json_object_is_type(expr, json_type_array))
			continue;
		for (size_t j = 0; j < json_object_array_length(expr); j++) {
			json_object *e = json_object_array_get_idx(expr, j), *v;

			if (!e || !json_object_is_type(e, json_type_object))
				continue;
			/* an inline counter is an object; a named one is a
			 * string (its counts live in the named object) */
			if (json_object_object_get_ex(e, "counter", &v) && json_object_is_type(v, json_type_object))
				cnt = v;
			if (json_object_object_get_ex(e, "drop", &v))
				drop = true;
		}
		fam = jstr(rule, "family");
		tab = jstr(rule, "table");
		ch = jstr(rule, "chain");
		if (!cnt || !drop || !fam || !tab || !ch)
			continue;
		struct nft_drop_rule *r = &out[(*n)++];

		memset(r, 0, sizeof(*r));
		snprintf(r->family, sizeof(r->family), "%s", fam);
		snprintf(r->table, sizeof(r->table), "%s", tab);
		snprintf(r->chain, sizeof(r->chain), "%s", ch);
		r->handle = ju64(rule, "handle");
		r->packets = ju64(cnt, "packets");
		r->bytes = ju64(cnt, "bytes");
	}
out:
	json_object_put(root);
}

/* ---- the tables, straight from nf_tables' netlink ---- */

/* libnftables' "list tables" fills its whole cache, every rule of every
 * table included: 12 ms with the lab's 1000 null rules. A dump of the
 * tables alone costs a few us. */
#define NFT_TABLES_MAX 64

struct nft_table_ref {
	char family[8];
	char name[64];
};

struct table_list {
	struct nft_table_ref *t;
	unsigned int n, max;
};

static const char *family_name(uint8_t f)
{
	switch (f) {
	case NFPROTO_INET: return "inet";
	case NFPROTO_IPV4: return "ip";
	case NFPROTO_IPV6: return "ip6";
	case NFPROTO_ARP: return "arp";
	case NFPROTO_BRIDGE: return "bridge";
	case NFPROTO_NETDEV: return "netdev";
	default: return NULL;
	}
}

static int table_cb(const struct nlmsghdr *nlh, void *data)
{
	struct table_list *l = data;
	const struct nfgenmsg *nfg;
	const struct nlattr *a;
	const char *fam;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*nfg)) || l->n >= l->max)
		return MNL_CB_OK;
	nfg = mnl_nlmsg_get_payload(nlh);
	if (!(fam = family_name(nfg->nfgen_family)))
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*nfg)) {
		if (mnl_attr_get_type(a) != NFTA_TABLE_NAME || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
			continue;
		snprintf(l->t[l->n].family, sizeof(l->t[l->n].family), "%s", fam);
		snprintf(l->t[l->n].name, sizeof(l->t[l->n].name), "%s", mnl_attr_get_str(a));
		l->n++;
		break;
	}
	return MNL_CB_OK;
}

/* The tables of this namespace; none when nf_tables is not there. */
static unsigned int tables_list(struct nft_table_ref *t, unsigned int max)
{
	struct table_list l = { .t = t, .max = max };
	struct mnl_socket *sk = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC);
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;
	unsigned int seq = (unsigned int)time(NULL), portid;
	int rc;

	if (!sk || !buf || mnl_socket_bind(sk, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out;
	portid = mnl_socket_get_portid(sk);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETTABLE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof(*nfg));
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = 0;
	if (mnl_socket_sendto(sk, nlh, nlh->nlmsg_len) < 0)
		goto out;
	/* bounded: a dump ends with NLMSG_DONE; an error ends it too */
	for (unsigned int i = 0; i < 1024; i++) {
		ssize_t n = mnl_socket_recvfrom(sk, buf, MNL_SOCKET_BUFFER_SIZE);

		if (n <= 0)
			break;
		rc = mnl_cb_run(buf, (size_t)n, seq, portid, table_cb, &l);
		if (rc <= 0)
			break;
	}
out:
	if (sk)
		mnl_socket_close(sk);
	free(buf);
	return l.n;
}

/* {"nftables": [{"list": {"table": {"family": F, "name": N}}}]} */
static json_object *list_table_cmd(const char *fam, const char *name)
{
	json_object *t = json_object_new_object(), *l = json_object_new_object();
	json_object *c = json_object_new_object(), *a = json_object_new_array();
	json_object *root = json_object_new_object();

	if (!t || !l || !c || !a || !root) {
		json_object_put(t);
		json_object_put(l);
		json_object_put(c);
		json_object_put(a);
		json_object_put(root);
		return NULL;
	}
	json_object_object_add(t, "family", json_object_new_string(fam));
	json_object_object_add(t, "name", json_object_new_string(name));
	json_object_object_add(l, "table", t);
	json_object_object_add(c, "list", l);
	json_object_array_add(a, c);
	json_object_object_add(root, "nftables", a);
	return root;
}

int nft_drop_counters(struct nft_drop_rule *out, unsigned int max, unsigned int *n, char *err, size_t errlen)
{
	struct nft_table_ref *tabs = calloc(NFT_TABLES_MAX, sizeof(*tabs));
	struct nft_ctx *c = NULL;
	unsigned int nt;

	*n = 0;
	if (!tabs)
		return -ENOMEM;
	/* Every table but ours: wirerate's null rules may be a hundred
	 * thousand, none with a counter. No other table, no libnftables. */
	nt = tables_list(tabs, NFT_TABLES_MAX);
	for (unsigned int i = 0; i < nt && *n < max; i++) {
		json_object *cmd;

		if (!strcmp(tabs[i].family, "inet") && !strcmp(tabs[i].name, NFT_TABLE))
			continue;
		if (!c) {
			if (!(c = nft_ctx_new(NFT_CTX_DEFAULT)))
				break;
			if (nft_ctx_buffer_output(c) || nft_ctx_buffer_error(c)) {
				nft_ctx_free(c);
				free(tabs);
				snprintf(err, errlen, "cannot set up nftables output");
				return -ENOMEM;
			}
			nft_ctx_output_set_flags(c, NFT_CTX_OUTPUT_JSON | NFT_CTX_OUTPUT_HANDLE);
		}
		/* The command in JSON too (a JSON context reads JSON first):
		 * any table name, a keyword or odd characters, is quoted right. */
		if (!(cmd = list_table_cmd(tabs[i].family, tabs[i].name)))
			continue;
		if (!nft_run_cmd_from_buffer(c, json_object_to_json_string_ext(cmd, JSON_C_TO_STRING_PLAIN)))
			drops_of(nft_ctx_get_output_buffer(c), out, max, n);
		json_object_put(cmd);
	}
	if (c)
		nft_ctx_free(c);
	free(tabs);
	return 0;
}
