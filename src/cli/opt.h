/* Options declared once. Each command describes its options in a table
 * of struct opt (name, short name, argument, group, default, help, and
 * the setter that checks the value and stores it in a field of the
 * command's own struct), a row each written with the named-field macros
 * at the end of this file; the parser, the usage text and `help --json`
 * all come from that one table, so they cannot drift apart. */
#ifndef WR_CLI_OPT_H
#define WR_CLI_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli;
struct opt;

enum opt_arg {
	OPT_NOARG,	/* a switch: --bidir */
	OPT_VALUE,	/* --rate 1Mpps or --rate=1Mpps */
	OPT_OPTIONAL,	/* --imix or --imix=LIST (never a separate word) */
};

/* Check value and store it in ctx (the command's struct); value is NULL
 * for a switch or an absent optional value. 0, or -EINVAL with a reason
 * in err: the parser prefixes it with the option's name unless the reason
 * names an option itself (an option quoted as the value, "'--json' is not
 * a number", does not count). Any failure is bad input: opt_parse returns
 * -EINVAL. */
typedef int (*opt_set_fn)(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);

struct opt {
	const char *name;	/* long name without "--"; NULL ends a table */
	char shortname;		/* 0: none */
	enum opt_arg arg;
	const char *meta;	/* the value's name in the usage: "T", "LIST" */
	const char *group;	/* the usage's section; NULL: the one before */
	const char *def;	/* the default as text (usage, help --json); NULL: none */
	const char *help;	/* what it does; '\n' starts another line */
	opt_set_fn set;
	size_t off;		/* the field in ctx the generic setters write */
	uint64_t min, max;	/* the range of the generic number setters */
	int id;			/* for a setter that serves several options */
	size_t given;		/* not 0: the bool in ctx (its offset) that the generic
				 * number and CPU list setters set when a value is given */
};

/* One table of options and the struct its setters write. A command's
 * options are one or more tables (its own, the traffic options, the
 * store's), parsed in one pass. */
struct opt_table {
	const struct opt *opts;
	void *ctx;
};

/* What a command says about itself: its usage line, the text around the
 * options, and its tables (ctx unused here: the declaration is static). */
struct opt_cmd {
	const char *name;		/* "cpu" */
	const char *synopsis;		/* after "usage: wirerate NAME " */
	const char *about;		/* before the options; may be NULL */
	const char *notes;		/* after the options; may be NULL */
	const struct opt *const *tables;	/* NULL ended */
	bool stop_at_arg;		/* options end at the first argument (matrix) */
	bool bare_errors;		/* a setter's reason without "NAME: " in front:
					 * lab's, whose messages matrix shares */
};

enum {
	OPT_HELP = 1,	/* opt_parse: --help was given and printed */
};

/* Parse argv (argv[0] is the command's name) against cmd's tables, whose
 * ctx are in ctx[] (same order). --json and --help are every command's.
 * A long option is "--name VALUE" or "--name=VALUE", the name exact; a
 * short one "-n VALUE" or "-nVALUE" (no bundling of switches).
 * The arguments that are not options are gathered in order into
 * args[0..*nargs) (at most maxargs; more is an error: a command with
 * its own message for too many, or words like 'lab up', passes argc and
 * counts them itself). Returns 0,
 * OPT_HELP after printing the usage on stdout, or -EINVAL after printing
 * a one-line error. */
int opt_parse(const struct opt_cmd *cmd, void *const *ctx, struct cli *cli, int argc, char **argv,
	      char **args, int maxargs, int *nargs);

/* opt_parse with every argument that is not an option gathered into
 * *words (the caller's to free; NULL after a failure): 0, OPT_HELP,
 * -EINVAL, or -ENOMEM after "NAME: out of memory". */
int opt_parse_words(const struct opt_cmd *cmd, void *const *ctx, struct cli *cli, int argc, char **argv,
		    char ***words, int *nwords);

/* One option's value through its setter, as opt_parse takes it: 0, or
 * -EINVAL with the setter's reason in err, the option's name in front
 * unless the reason names an option already (whatever the setter
 * returned, -ERANGE from a number out of range, the value was bad
 * input). For a command that sets another's options itself: the matrix
 * and bisect set the lab's. */
int opt_apply(const struct opt *o, void *ctx, const char *value, char *err, size_t errlen);

/* A failed opt_parse (or opt_parse_words) as the command's exit status:
 * 0 after --help, EXIT_RUNTIME for -ENOMEM, else EXIT_USAGE. */
int opt_status(int rc);

/* What a command's parse says: its X_args() and each check it makes
 * before the command acts. OPT_GO: the input is good, the command goes
 * on; OPT_EXIT: the command ends now, with the exit status the parse
 * wrote to its int *status (0 after --help, else after a one-line
 * error). */
enum opt_result {
	OPT_GO,
	OPT_EXIT,
};

/* OPT_EXIT with *status = st, for a parse that said why itself (or
 * printed the usage): "return opt_exit(status, EXIT_USAGE);". */
enum opt_result opt_exit(int *status, int st);
/* The one-line error, as cli_error says it, then OPT_EXIT with
 * *status = st: "return opt_fail(status, EXIT_USAGE, "trial: %s", err);". */
enum opt_result opt_fail(int *status, int st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The usage text generated from the declaration. */
void opt_usage(FILE *f, const struct opt_cmd *cmd);

/* The declaration as JSON (for help --json): the usage line, the text
 * before and after the options ("about", "notes"; "" when none), and the
 * options with their groups, arguments, defaults and help. The manual
 * pages and the shell completion are made from it (scripts/manpages.py). */
void opt_json(FILE *f, const struct opt_cmd *cmd);

/* Generic setters: the field at opt->off. The number setters (and
 * opt_set_cpuset) also set the bool at opt->given when it is not 0, so
 * that a command knows a value was given, even one equal to the default. */
int opt_set_true(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);	/* bool */
int opt_set_str(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);	/* const char * */
int opt_set_u64(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);	/* uint64_t in [min, max] */
int opt_set_uint(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);	/* unsigned int in [min, max] */
int opt_set_ns(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);	/* uint64_t ns, a duration in [min, max] */

/* A CPU list (struct cpuset at opt->off, not empty); the bool at
 * opt->given, when not 0, set to say it was given. */
int opt_set_cpuset(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);

/* A file to write or a results database (const char * at opt->off): not
 * empty, and in a directory that exists, so that a typo is an error, not
 * an empty store made somewhere new (the default store's directories are
 * made as they always were). opt_path_check is the check alone. */
int opt_path_check(const char *value, char *err, size_t errlen);
/* A --db value: a PostgreSQL URI (checked when it is opened), else a file
 * name as opt_path_check wants it. */
int opt_db_check(const char *value, char *err, size_t errlen);
/* A percentage from 0 to 100 ("5", "5%", "0.5") into *pct: 0, or -EINVAL
 * with "--NAME 'V': give a percentage from 0 to 100, e.g. 5". */
int opt_parse_pct(const char *name, const char *value, double *pct, char *err, size_t errlen);
/* One more store of several (--db given again): value checked
 * (opt_db_check) and put at db[*n], at most max. 0, or -EINVAL. */
int opt_add_db(const char *value, const char **db, unsigned int *n, unsigned int max, char *err, size_t errlen);
int opt_set_db(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);
int opt_set_path(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen);

#define OPT_FIELD(type, field) offsetof(type, field)

/* A table's rows, by kind: each macro names the fields of one kind of
 * option (the name, the value's name in the usage, the field it sets, by
 * offset: OPT_FIELD; a number's range; the help), and the row adds the
 * others it has by name: .group (it starts a group of the usage), then
 * .shortname, .def, and .given for a number or a CPU list whose presence
 * counts; for a setter of the command's own, .off, .min, .max and .id
 * when it reads them:
 *
 *	#define TO(field) OPT_FIELD(struct trial_setup, field)
 *	{ OPT_NS("duration", "T", TO(cfg.duration_ns), NSEC_PER_MSEC, NSEC_PER_DAY, "traffic time"),
 *	  .group = "timing", .shortname = 't', .def = "10s", .given = TO(duration_set) },
 *	{ OPT_CUSTOM("rate", OPT_VALUE, "RATE", set_rate, "per direction: 100kpps or 1Gbit") },
 *	{ NULL },
 */
#define OPT_BOOL(n, field, h)	/* a switch: the bool at field set */ \
	.name = (n), .arg = OPT_NOARG, .set = opt_set_true, .off = (field), .help = (h)
#define OPT_STR(n, m, field, h)	/* the value as it is, a const char * */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_str, .off = (field), .help = (h)
#define OPT_PATH(n, m, field, h)	/* a file to write (opt_set_path) */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_path, .off = (field), .help = (h)
#define OPT_DB(n, m, field, h)	/* a results database (opt_set_db) */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_db, .off = (field), .help = (h)
#define OPT_CPUSET(n, m, field, h)	/* a CPU list, a struct cpuset */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_cpuset, .off = (field), .help = (h)
#define OPT_UINT(n, m, field, lo, hi, h)	/* an unsigned int in [lo, hi] */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_uint, .off = (field), .min = (lo), .max = (hi), \
	.help = (h)
#define OPT_U64(n, m, field, lo, hi, h)	/* a uint64_t in [lo, hi] */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_u64, .off = (field), .min = (lo), .max = (hi), \
	.help = (h)
#define OPT_NS(n, m, field, lo, hi, h)	/* a duration in [lo, hi] ns, a uint64_t */ \
	.name = (n), .arg = OPT_VALUE, .meta = (m), .set = opt_set_ns, .off = (field), .min = (lo), .max = (hi), \
	.help = (h)
/* An option with a setter of its own, fn; a: OPT_NOARG, OPT_VALUE or OPT_OPTIONAL */
#define OPT_CUSTOM(n, a, m, fn, h) \
	.name = (n), .arg = (a), .meta = (m), .set = (fn), .help = (h)

#endif
