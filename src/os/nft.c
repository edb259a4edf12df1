#include "os/nft.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nftables/libnftables.h>

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
