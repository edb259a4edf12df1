/* --dut, --ssh-option and --dut-agent: which device under test a command
 * reads, declared once for every command that takes them. The setters
 * write the struct dut_target at the entry's offset in the command's
 * struct: DUTOPT_ENTRIES(OPT_FIELD(struct cpu_opts, dut), "group", the
 * default, what --dut names). */
#ifndef WR_CLI_DUT_ARGS_H
#define WR_CLI_DUT_ARGS_H

#include "cli/opt.h"
#include "core/duttarget.h"

int dut_args_set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dut_args_set_ssh_option(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dut_args_set_agent(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
/* --dut-ports LIST: the DUT's interface names, split into buf (of
 * buflen) in place, up to DUTSNAP_IF_MAX in ports; 0, or -EINVAL. */
int dut_args_ports(const char *v, char *buf, size_t buflen, const char **ports, unsigned int *n, char *err,
		   size_t errlen);

#define DUTOPT_ENTRIES(field, grp, dflt, what)                                                                  \
	{ OPT_CUSTOM("dut", OPT_VALUE, "TARGET", dut_args_set_dut,                                              \
		     what ":\nlab[:PREFIX], local, ssh:[USER@]HOST[:PORT] (runs\n"                              \
		     "'wirerate agent' there through the system's ssh), or\n"                                  \
		     "netns:NAME (a network namespace of this host)"),                                          \
	  .group = (grp), .def = (dflt), .off = (field) },                                                      \
	{ OPT_CUSTOM("ssh-option", OPT_VALUE, "OPT", dut_args_set_ssh_option,                                   \
		     "passed to ssh as -o OPT (repeatable), e.g. IdentityFile=~/.ssh/lab"),                     \
	  .off = (field) },                                                                                     \
	{ OPT_CUSTOM("dut-agent", OPT_VALUE, "CMD", dut_args_set_agent, "the wirerate command on the DUT"),     \
	  .def = "wirerate", .off = (field) }

/* --profile, --profile-hz and --profile-top, for a command that samples
 * where the DUT's CPUs spend a run's time (dut/profile.h): the fields
 * they set, by offset, and what --profile says it samples. */
#define PROFILEOPT_ENTRIES(on, hz, top, what)                                                                   \
	{ OPT_BOOL("profile", on,                                                                               \
		   what " (cpu-clock sampling,\nnamed from the DUT's /proc/kallsyms): the top functions\n"      \
		   "and the share in softirq") },                                                               \
	{ OPT_UINT("profile-hz", "HZ", hz, 1, PROFILE_HZ_MAX, "--profile's sampling rate per CPU"),             \
	  .def = "999" },                                                                                       \
	{ OPT_UINT("profile-top", "N", top, 1, PROFILE_TOP_MAX, "--profile's entries kept"), .def = "10" }

#endif
