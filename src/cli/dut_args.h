/* --dut, --ssh-option and --dut-agent: which device under test a command
 * reads, declared once for every command that takes them. The setters
 * write the struct dut_target at the entry's offset in the command's
 * struct: DUTOPT_ENTRIES(OPT_FIELD(struct cpu_opts, dut), "group"). */
#ifndef WR_CLI_DUT_ARGS_H
#define WR_CLI_DUT_ARGS_H

#include "cli/opt.h"
#include "core/duttarget.h"

int dut_args_set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dut_args_set_ssh_option(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dut_args_set_agent(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);

#define DUTOPT_ENTRIES(off, group, dflt, what)                                                         \
	{ "dut", 0, OPT_VALUE, "TARGET", group, dflt,                                                 \
	  what ":\nlab[:PREFIX], local, or ssh:[USER@]HOST[:PORT] (runs\n"                           \
	  "'wirerate agent' there through the system's ssh)", dut_args_set_dut, off },                  \
	{ "ssh-option", 0, OPT_VALUE, "OPT", NULL, NULL,                                              \
	  "passed to ssh as -o OPT (repeatable), e.g. IdentityFile=~/.ssh/lab", dut_args_set_ssh_option, off }, \
	{ "dut-agent", 0, OPT_VALUE, "CMD", NULL, "wirerate", "the wirerate command on the DUT",       \
	  dut_args_set_agent, off }

/* --profile, --profile-hz and --profile-top, for a command that samples
 * where the DUT's CPUs spend a run's time (dut/profile.h): the fields
 * they set, by offset, and what --profile says it samples. */
#define PROFILEOPT_ENTRIES(on, hz, top, what)                                                          \
	{ "profile", 0, OPT_NOARG, NULL, NULL, NULL,                                                  \
	  what " (cpu-clock sampling,\nnamed from the DUT's /proc/kallsyms): the top functions\n"     \
	  "and the share in softirq", opt_set_true, on },                                             \
	{ "profile-hz", 0, OPT_VALUE, "HZ", NULL, "999", "--profile's sampling rate per CPU", opt_set_uint, \
	  hz, 1, PROFILE_HZ_MAX },                                                                    \
	{ "profile-top", 0, OPT_VALUE, "N", NULL, "10", "--profile's entries kept", opt_set_uint, top, 1, \
	  PROFILE_TOP_MAX }

#endif
