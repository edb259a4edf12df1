#include "cli/dut_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
