#include "cli/dut_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "core/dutsnap.h"

static struct dut_target *target(void *ctx, const struct opt *opt)
{
	return (struct dut_target *)((char *)ctx + opt->off);
}

int dut_args_set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct dut_target *t = target(ctx, opt);

	t->given = true;
	return duttarget_parse(v, t, err, errlen);
}

int dut_args_set_ssh_option(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct dut_target *t = target(ctx, opt);

	/* ssh -o takes KEY=VALUE or "KEY VALUE"; a leading '-' would be read
	 * as another option of ssh's. */
	if (!*v || *v == '-' || strchr(v, '\n') || t->nssh_opts == DUT_SSH_OPTS_MAX) {
		snprintf(err, errlen, "--ssh-option '%s': expected an ssh -o option such as IdentityFile=~/.ssh/lab "
			 "(up to %d)", v, DUT_SSH_OPTS_MAX);
		return -EINVAL;
	}
	t->ssh_opts[t->nssh_opts++] = v;
	return 0;
}

int dut_args_set_agent(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	if (!*v || *v == '-' || strchr(v, '\n') || strlen(v) > 256) {
		snprintf(err, errlen, "--dut-agent '%s': expected the wirerate command on the DUT, e.g. /usr/local/bin/wirerate", v);
		return -EINVAL;
	}
	target(ctx, opt)->agent = v;
	return 0;
}

int dut_args_ports(const char *v, char *buf, size_t buflen, const char **ports, unsigned int *n, char *err,
		   size_t errlen)
{
	char *save = NULL;

	if (!*v || strlen(v) >= buflen) {
		snprintf(err, errlen, "--dut-ports '%s': expected the DUT's interface names, e.g. eth1,eth2", v);
		return -EINVAL;
	}
	snprintf(buf, buflen, "%s", v);
	*n = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n == DUTSNAP_IF_MAX || strlen(t) >= IF_NAMESIZE || strchr(t, '/') || *t == '.') {
			snprintf(err, errlen, "--dut-ports '%s': up to %d interface names of at most %d characters",
				 v, DUTSNAP_IF_MAX, IF_NAMESIZE - 1);
			return -EINVAL;
		}
		ports[(*n)++] = t;
	}
	return 0;
}
