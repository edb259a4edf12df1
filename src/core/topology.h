/* A two-endpoint pair as the kernel's driver selftests describe it
 * (tools/testing/selftests/drivers/net/README.rst): NETIF, the interface
 * of the host under test; LOCAL_V4/LOCAL_V6, its addresses; REMOTE_V4/
 * REMOTE_V6, the peer's; REMOTE_TYPE, where the peer is (netns: a
 * namespace of this host named by REMOTE_ARGS; ssh: the host REMOTE_ARGS
 * reached by ssh). Given as variables in the environment or as a
 * net.config file of KEY=value lines (# comments, values in quotes as a
 * shell writes them); the file's values win, as the selftests' loader
 * has it, and keys it does not know are left alone. Pure: the text and
 * the environment in, the pair out; no I/O. */
#ifndef WR_CORE_TOPOLOGY_H
#define WR_CORE_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

enum topology_remote { TOPOLOGY_NETNS, TOPOLOGY_SSH };

#define TOPOLOGY_IFNAMSIZ 16
#define TOPOLOGY_ADDR_MAX 46

struct topology {
	char netif[TOPOLOGY_IFNAMSIZ];
	/* "" when not given; at least one family has both ends */
	char local_v4[TOPOLOGY_ADDR_MAX], remote_v4[TOPOLOGY_ADDR_MAX];
	char local_v6[TOPOLOGY_ADDR_MAX], remote_v6[TOPOLOGY_ADDR_MAX];
	enum topology_remote remote_type;
	char remote_args[256];		/* the namespace's name, or ssh's [USER@]HOST */
};

/* text: the net.config file's content (NULL: none, the environment
 * alone); envp: the environment (NULL-terminated "KEY=value", may be
 * NULL); what: how errors name the file ("net.config"). 0, or -EINVAL
 * with a one-line reason: a line that is not KEY=value or has an open
 * quote, no NETIF, a REMOTE_TYPE other than netns or ssh, no REMOTE_ARGS
 * (or one that is not a name: a namespace name, or [USER@]HOST without
 * spaces or leading '-'), a family given at one end only, neither
 * family, an address that is not one. */
int topology_parse(const char *text, const char *const *envp, const char *what, struct topology *t, char *err,
		   size_t errlen);

/* "netns" or "ssh". */
const char *topology_remote_name(enum topology_remote r);

/* The pair in a few words: "NETIF=eth1 LOCAL_V4=... REMOTE_TYPE=ssh
 * REMOTE_ARGS=dut". */
void topology_describe(const struct topology *t, char *buf, size_t len);

#endif
