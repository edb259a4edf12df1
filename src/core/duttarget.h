/* --dut TARGET: which device under test a command measures.
 *   lab[:PREFIX]                 the embedded lab (default prefix wr-)
 *   local                        this host is the DUT
 *   ssh:[USER@]HOST[:PORT]       a box reached with the system's ssh(1)
 *   netns:NAME                   a network namespace of this host (ip netns's
 *                                NAME): the peer of a selftests pair
 * Pure parsing, so the rules are unit-tested. */
#ifndef WR_CORE_DUTTARGET_H
#define WR_CORE_DUTTARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"

#define DUT_HOST_MAX 253
#define DUT_USER_MAX 32
#define DUT_PREFIX_MAX 24
#define DUT_SSH_OPTS_MAX 16
#define DUT_NETNS_MAX 63

enum dut_kind { DUT_NONE, DUT_LAB, DUT_LOCAL, DUT_SSH, DUT_NETNS };

struct dut_target {
	bool given;				/* --dut was on the command line */
	enum dut_kind kind;
	char prefix[DUT_PREFIX_MAX + 1];	/* lab */
	char netns[DUT_NETNS_MAX + 1];		/* netns: the namespace's name */
	char user[DUT_USER_MAX + 1];		/* ssh: empty for ssh's default */
	char host[DUT_HOST_MAX + 1];		/* ssh */
	unsigned int port;			/* ssh: 0 for ssh's default */
	const char *ssh_opts[DUT_SSH_OPTS_MAX];	/* --ssh-option, as given */
	unsigned int nssh_opts;
	const char *agent;			/* the remote command (default "wirerate") */
	unsigned int connect_timeout_s;		/* ssh ConnectTimeout */
	/* CPUs a local agent (lab, local) keeps off, so that reading the
	 * DUT does not take the CPUs it measures: the lab's DUT CPUs. */
	struct cpuset avoid;
};

/* Parse s into t (t's ssh options and agent are kept). -EINVAL with a
 * one-line reason naming --dut and the accepted forms. */
int duttarget_parse(const char *s, struct dut_target *t, char *err, size_t errlen);

/* After the options are parsed: --ssh-option and --dut-agent only with
 * --dut ssh:. 0, or -EINVAL with the reason. */
int duttarget_check(const struct dut_target *t, char *err, size_t errlen);
/* "lab wr-", "local", "ssh:user@host:22", "netns:NAME". */
void duttarget_name(const struct dut_target *t, char *buf, size_t len);

#endif
