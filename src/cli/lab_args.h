/* lab's options (src/cli/lab_args.c): the table and the parse, which the
 * matrix and bisect use too: they set a lab's options through the
 * table's entries, as 'lab up' takes them, with no command line. */
#ifndef WR_CLI_LAB_ARGS_H
#define WR_CLI_LAB_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"
#include "lab/lab.h"

/* lab's options as given so far, and the last one given that only 'lab
 * up' takes */
struct lab_args {
	struct lab_spec spec;
	const struct opt *up_only;
	char dut_cpus[64];		/* as given: a CPU list, or with --kernel a vCPU count */
	const struct opt *vm_only;	/* the last option given that needs --kernel */
	char **words;			/* the words among the options (malloc'd) */
	int nwords;
};

/* 'lab' and its options as cmd_lab takes them (argv[0] is "lab"), checked
 * as 'lab up' would check them, without acting: OPT_GO with *out and
 * *action set, or OPT_EXIT with *status (opt.h).
 * cmd (may be NULL: no exec then): for 'lab exec', the command's words,
 * NULL-ended, malloc'd (one free). */
enum opt_result lab_args_parse(struct cli *cli, int argc, char **argv, struct lab_spec *out, const char **action,
			       char ***cmd, int *status);

/* The same in steps, for a command that builds a lab of its own: la at
 * the defaults; the entry of lab's option name ("placement"), NULL when
 * there is none; a value set through an entry, as the parse sets it; the
 * options among argv's words (argv[0] a command's name) set in turn, the
 * other words kept; then the end of the parse as 'lab up' would end it
 * (the words kept before "up"), with *out set. Each says why not on
 * stderr as lab does: OPT_GO to go on, or OPT_EXIT with *status (opt.h;
 * 0 after --help). lab_args_free frees the words kept. */
void lab_args_init(struct lab_args *la);
const struct opt *lab_args_opt(const char *name);
enum opt_result lab_args_set(struct lab_args *la, const struct opt *o, const char *value, int *status);
enum opt_result lab_args_options(struct cli *cli, struct lab_args *la, int argc, char **argv, int *status);
enum opt_result lab_args_up(struct lab_args *la, struct lab_spec *out, int *status);
void lab_args_free(struct lab_args *la);

#endif
