/* Null firewall rules in a forward path (a firewall loaded but matching
 * nothing: each packet pays for every rule it is tested against), through
 * libnftables. Call from inside the target namespace. */
#ifndef WR_OS_NFT_H
#define WR_OS_NFT_H

#include <stddef.h>

#define NFT_TABLE "wirerate"
#define NFT_RULES_MAX 100000

/* Replace wirerate's forward chain with n rules that match nothing
 * (n = 0 removes the table). */
int nft_null_rules_set(unsigned int n, char *err, size_t errlen);
/* Rules in wirerate's forward chain, 0 when there is no table; -errno. */
int nft_null_rules_count(char *err, size_t errlen);

#endif
