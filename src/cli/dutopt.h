/* --dut, --ssh-option and --dut-agent: which device under test a command
 * reads, declared once for every command that takes them. The setters
 * write the struct dut_target at the entry's offset in the command's
 * struct: DUTOPT_ENTRIES(OPT_FIELD(struct cpu_opts, dut), "group"). */
#ifndef WR_CLI_DUTOPT_H
#define WR_CLI_DUTOPT_H

#include "cli/opt.h"
#include "core/duttarget.h"

int dutopt_set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dutopt_set_ssh_option(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
int dutopt_set_agent(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen);
/* After parsing: --ssh-option and --dut-agent only with --dut ssh:. */
int dutopt_check(const struct dut_target *t, char *err, size_t errlen);

#define DUTOPT_ENTRIES(off, group, dflt, what)                                                         \
	{ "dut", 0, OPT_VALUE, "TARGET", group, dflt,                                                 \
	  what ":\nlab[:PREFIX], local, or ssh:[USER@]HOST[:PORT] (runs\n"                           \
	  "'wirerate agent' there through the system's ssh)", dutopt_set_dut, off },                  \
	{ "ssh-option", 0, OPT_VALUE, "OPT", NULL, NULL,                                              \
	  "passed to ssh as -o OPT (repeatable), e.g. IdentityFile=~/.ssh/lab", dutopt_set_ssh_option, off }, \
	{ "dut-agent", 0, OPT_VALUE, "CMD", NULL, "wirerate", "the wirerate command on the DUT",       \
	  dutopt_set_agent, off }

#endif
