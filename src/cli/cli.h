/* The command table and what every subcommand shares. Only src/cli prints
 * to the user or decides the exit status. A command that Ctrl-C stops
 * catches it with os/stop.h. */
#ifndef WR_CLI_CLI_H
#define WR_CLI_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define EXIT_USAGE 2	/* bad input: option, value, missing privilege */
#define EXIT_RUNTIME 1	/* the request was fine, the host failed it */

enum cmd_needs {
	NEED_NONE = 0,
	NEED_ROOT = 1 << 0,	/* CAP_NET_ADMIN and CAP_SYS_ADMIN (namespaces) */
};

struct cli {
	bool json;
	const char *prog;
	/* The matrix checking a test's options in its own process: the
	 * command stops after parsing and checking them, before any lab,
	 * port or store is used. */
	bool check_only;
	/* Set by the command in check_only: about how long its run would
	 * take, in seconds (0: it cannot say). */
	double planned_s;
};

struct opt_cmd;
struct out;

/* The JSON contract's version: every document's "wirerate": {"schema"}. */
#define CLI_JSON_SCHEMA 1

/* The emitter for a command's output on stdout, text or JSON as cli says;
 * a JSON document starts with the "wirerate" header (cli_out.c). */
struct out *cli_out_create(const struct cli *cli, const char *command);
struct out *cli_out_create_json(bool json, const char *command);
/* The same header, for a document written by hand: '"wirerate":{...},'
 * on stdout, right after its '{'. */
void cli_out_json_header(const char *command);

struct cmd {
	const char *name;
	int (*fn)(struct cli *cli, int argc, char **argv);
	unsigned int needs;
	const char *summary;
	const struct opt_cmd *opts;	/* its declared options (help --json) */
};

/* One-line error on stderr, "wirerate: ..." */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_verror(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The same, then status back: "return cli_fail(EXIT_USAGE, ...);". */
int cli_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The exit status of a step that returned rc (0 or -errno): 0, EXIT_USAGE
 * for -EINVAL (the input was wrong), else EXIT_RUNTIME. */
int cli_status(int rc);

/* True when the process may administer networks and namespaces. */
bool cli_have_root(void);

int cmd_agent(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd agent_cmd;
int cmd_vm_guest(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd vm_guest_cmd;
int cmd_lab(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd lab_cmd;
int cmd_matrix(struct cli *cli, int argc, char **argv);
int cmd_bisect(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd bisect_cmd;
extern const struct opt_cmd matrix_cmd;
int cmd_probe(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd probe_cmd;
int cmd_trial(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd trial_cmd;
int cmd_calibrate(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd calibrate_cmd;
int cmd_cpu(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd cpu_cmd;
int cmd_soak(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd soak_cmd;
int cmd_stream(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd stream_cmd;
int cmd_rfc2544(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd rfc2544_cmd;
int cmd_runs(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd runs_cmd;
int cmd_report(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd report_cmd;
int cmd_gate(struct cli *cli, int argc, char **argv);
int cmd_pair(struct cli *cli, int argc, char **argv);
extern const struct opt_cmd pair_cmd;
extern const struct opt_cmd gate_cmd;

#endif
