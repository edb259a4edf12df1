/* Null firewall rules in a forward path (a firewall loaded but matching
 * nothing: each packet pays for every rule it is tested against), through
 * libnftables. Call from inside the target namespace. */
#ifndef WR_OS_NFT_H
#define WR_OS_NFT_H

#include <stddef.h>
#include <stdint.h>

#define NFT_TABLE "wirerate"
#define NFT_RULES_MAX 100000

/* Replace wirerate's forward chain with n rules that match nothing
 * (n = 0 removes the table). */
int nft_null_rules_set(unsigned int n, char *err, size_t errlen);
/* Rules in wirerate's forward chain, 0 when there is no table; -errno. */
int nft_null_rules_count(char *err, size_t errlen);

/* The whole ruleset as `nft list ruleset` prints it, malloc'ed (empty
 * when there is none); -errno with a reason. */
int nft_ruleset_text(char **text, char *err, size_t errlen);
/* An nft rule that counts (an inline counter) and ends in drop. */
struct nft_drop_rule {
	char family[8];
	char table[64];
	char chain[64];
	uint64_t handle;
	uint64_t packets, bytes;
};
/* Every such rule of the ruleset, but wirerate's own null rules (they
 * count nothing and are many), at most max into out; *n says how many.
 * nftables missing or an empty ruleset: 0 with *n 0. -errno only when the
 * output cannot be read. */
int nft_drop_counters(struct nft_drop_rule *out, unsigned int max, unsigned int *n, char *err,
		      size_t errlen);

#endif
