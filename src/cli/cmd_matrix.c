/* wirerate matrix AXES... [--prefix P] [--no-xdp] [--label L] [--tag T] [--db FILE]
 *                 [--html FILE] [--fail-on-regression PCT] -- trial|rfc2544 [OPTIONS]
 *
 * The same test across lab configurations: every combination of the axes'
 * values is one configuration; for each the lab is built afresh with it and
 * the test runs in a process of its own (the wirerate binary again), its run
 * stored with the configuration as its label and a tag shared by the whole
 * matrix. Then the runs go to 'wirerate report': the table by frame size
 * and the table by configuration, with verdicts against the first. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cli/cli.h"
#include "cli/storeopt.h"
#include "store/db.h"
#include "render/out.h"
#include "lab/lab.h"

#define MATRIX_MAX	64	/* configurations */
#define AXIS_VALUES_MAX	16
#define ARGV_MAX	512

static const char matrix_usage[] =
	"usage: wirerate matrix AXES... [OPTIONS] -- trial|rfc2544 [TEST OPTIONS]\n"
	"\n"
	"Runs the same test once per lab configuration: every combination of the\n"
	"axes' values. For each, the lab is built afresh with that configuration\n"
	"and the test runs and is stored (label: the configuration; one tag for the\n"
	"whole matrix). Then 'wirerate report' compares the runs: a table by size\n"
	"(rows are frame sizes, columns are configurations) and one by setup (rows\n"
	"are configurations, kpps), each against the first configuration.\n"
	"\n"
	"axes ('lab up' options, each a comma-separated list of values, or repeated):\n"
	"  --placement LIST    e.g. bound,split,free (the DUT's IRQ placement)\n"
	"  --rules LIST        e.g. 0,100,1000 (null firewall rules in the DUT)\n"
	"  --dut-cpus CPUS     one CPU list per occurrence: --dut-cpus 1 --dut-cpus 0-1\n"
	"  --shape LIST        e.g. 50kpps,100kpps\n"
	"  --mtu LIST          e.g. 1500,9000\n"
	"  --queues LIST       e.g. 1,2\n"
	"\n"
	"options:\n"
	"  --prefix P          the lab's namespace prefix (default wr-). A lab already up\n"
	"                      with this prefix is taken down first; the matrix takes its\n"
	"                      own down at the end, also on failure or Ctrl-C\n"
	"  --no-xdp            every configuration's DUT in skb mode ('lab up --no-xdp')\n"
	"  --label TEXT        put in front of each run's label (the configuration)\n"
	"  --tag TEXT          an extra tag on every run (repeatable)\n"
	"  --db FILE           the results database (default as for 'wirerate runs')\n"
	"  --html FILE         the report as an HTML page too\n"
	"  --fail-on-regression PCT   exit 3 when a configuration is worse than the\n"
	"                      first by more than PCT percent beyond noise\n"
	"  --json              the configurations, their run ids and the report's JSON\n"
	"\n"
	"The test's options follow '--': any of trial's or rfc2544's, except the\n"
	"ones the matrix sets (--prefix, --tx, --rx, --label, --db, --no-store, --json).\n"
	"At most 64 configurations.\n"
	"\n"
	"exit status: 0; 1 runtime failure; 2 bad input; 3 regression (with\n"
	"--fail-on-regression); 130 interrupted (the runs finished so far stay stored)\n";

struct axis {
	const char *opt;	/* the lab up option */
	const char *name;	/* in labels */
	bool lists;		/* a value may be a comma-separated list */
	int n;
	char *v[AXIS_VALUES_MAX];
};

static volatile sig_atomic_t stop_sig;
static volatile pid_t child_pid;

/* A signal a process sent to the matrix alone goes on to the running test;
 * the terminal's Ctrl-C reaches the test itself (one process group). */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_sig = sig;
	if (child_pid > 0 && si && si->si_code <= 0)
		kill(child_pid, sig);
}

static int add_values(struct axis *ax, char *v)
{
	char *save = NULL, *tok;

	if (!ax->lists) {
		if (ax->n == AXIS_VALUES_MAX)
			goto many;
		ax->v[ax->n++] = v;
		return 0;
	}
	if (!*v || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		cli_error("matrix: %s '%s': give values separated by single commas", ax->opt, v);
		return EXIT_USAGE;
	}
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ax->n == AXIS_VALUES_MAX)
			goto many;
		ax->v[ax->n++] = tok;
	}
	return 0;
many:
	cli_error("matrix: %s: at most %d values", ax->opt, AXIS_VALUES_MAX);
	return EXIT_USAGE;
}

/* Run argv (the wirerate binary) and wait; its stdout to out_fd when >= 0
 * (else inherited). Returns its exit status, 128 + signal when killed, or
 * -1 when it could not be started. */
static int run_child(char **argv, int out_fd)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		/* a matrix killed outright stops its test (which keeps the lab's
		 * lock, inherited, until it has stopped) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(EXIT_RUNTIME);
		if (out_fd >= 0)
			dup2(out_fd, STDOUT_FILENO);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "wirerate: matrix: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(EXIT_RUNTIME);
	}
	child_pid = pid;
	/* a stop that came before the child was known is passed on now */
	if (stop_sig)
		kill(pid, stop_sig);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			child_pid = 0;
			return -1;
		}
	}
	child_pid = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The newest run with this tag, 0 when there is none. */
static int64_t newest_tagged(const char *db_path, const char *tag)
{
	struct db *db = NULL;
	sqlite3_stmt *st = NULL;
	char err[256];
	int64_t id = 0;

	if (db_open(db_path, false, &db, err, sizeof(err)))
		return 0;
	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT max(run_id) FROM tags WHERE tag = ?1", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			id = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	db_close(db);
	return id;
}

static bool is_set_by_matrix(const char *a)
{
	static const char *const taken[] = { "--prefix", "--tx", "--rx", "--label", "--db", "--no-store",
					     "--json", "-j", "--dst-mac", NULL };

	size_t len = strcspn(a, "=");

	for (int k = 0; taken[k]; k++) {
		size_t n = strlen(taken[k]);

		if (!strncmp(a, taken[k], n) && (!a[n] || a[n] == '='))
			return true;
		/* getopt_long takes an abbreviation: --js for --json */
		if (a[0] == '-' && a[1] == '-' && len >= 3 && len < n && !strncmp(a, taken[k], len))
			return true;
	}
	return false;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* What the matrix hands to its tests and to the report, checked as they
 * would check it, so that no lab is built for a run that would refuse. */
static int check_own(const char *label, const char *const *tags, int ntags, const char *db, const char *html,
		     const char *fail_pct)
{
	struct stat sb;

	if (label && has_control(label)) {
		cli_error("matrix: --label: no control characters");
		return EXIT_USAGE;
	}
	for (int t = 0; t < ntags; t++) {
		if (!*tags[t] || strlen(tags[t]) > 63 || has_control(tags[t])) {
			cli_error("matrix: --tag '%.70s': 1 to 63 characters, no control characters", tags[t]);
			return EXIT_USAGE;
		}
	}
	if (db && !*db) {
		cli_error("matrix: --db: give a file name");
		return EXIT_USAGE;
	}
	if (html) {
		const char *slash = strrchr(html, '/');
		char dir[4096];

		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else
			snprintf(dir, sizeof(dir), "%.*s", slash == html ? 1 : (int)(slash - html), html);
		if (!*html || (slash && !slash[1]) || (!stat(html, &sb) && !S_ISREG(sb.st_mode)) ||
		    stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
			cli_error("matrix: --html '%.70s': give a file in a directory that exists", html);
			return EXIT_USAGE;
		}
	}
	if (fail_pct) {
		char *end;
		double v = strtod(fail_pct, &end);

		if (end == fail_pct || *end || !isfinite(v) || v < 0) {
			cli_error("matrix: --fail-on-regression '%.40s': give a percentage, 0 or more", fail_pct);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* The test's command line: its own options and the matrix's. */
static void test_argv(char **targv, char **test, int ntest, const char *prefix, const char *label, const char *mtag,
		      const char *const *tags, int ntags, const char *db_path)
{
	int ta = 0;

	targv[ta++] = "wirerate";
	for (int i = 0; i < ntest; i++)
		targv[ta++] = test[i];
	targv[ta++] = "--prefix";
	targv[ta++] = (char *)prefix;
	targv[ta++] = "--label";
	targv[ta++] = (char *)label;
	targv[ta++] = "--tag";
	targv[ta++] = (char *)mtag;
	for (int t = 0; t < ntags; t++) {
		targv[ta++] = "--tag";
		targv[ta++] = (char *)tags[t];
	}
	targv[ta++] = "--db";
	targv[ta++] = (char *)db_path;
	targv[ta] = NULL;
}

/* The test's own options, checked by the test itself with nothing built:
 * WIRERATE_PARSE_ONLY makes trial and rfc2544 stop after parsing. */
static int check_test(char **targv)
{
	int st;

	setenv("WIRERATE_PARSE_ONLY", "1", 1);
	st = run_child(targv, -1);
	unsetenv("WIRERATE_PARSE_ONLY");
	return st;
}

int cmd_matrix(struct cli *cli, int argc, char **argv)
{
	struct axis axes[] = {
		{ .opt = "--placement", .name = "placement", .lists = true },
		{ .opt = "--rules", .name = "rules", .lists = true },
		{ .opt = "--dut-cpus", .name = "dut-cpus", .lists = false },
		{ .opt = "--shape", .name = "shape", .lists = true },
		{ .opt = "--mtu", .name = "mtu", .lists = true },
		{ .opt = "--queues", .name = "queues", .lists = true },
	};
	enum { NAXES = sizeof(axes) / sizeof(axes[0]) };
	static const char *const valued[] = { "--placement", "--rules", "--dut-cpus", "--shape", "--mtu", "--queues",
					      "--prefix", "--label", "--tag", "--db", "--html",
					      "--fail-on-regression", NULL };
	const char *prefix = LAB_PREFIX_DEFAULT, *label = NULL, *db_opt = NULL, *html = NULL, *fail_pct = NULL;
	const char *tags[STOREOPT_MAX_TAGS - 1];	/* and the matrix's own */
	int ntags = 0, test_at = -1, rc = 0, nconf = 1, at = 0;
	bool no_xdp = false, between = false;
	char *targv[ARGV_MAX];
	int started = 0;
	int lock = -1;
	char err[512], db_path[4096], mtag[64];
	struct lab_spec specs[MATRIX_MAX];
	char labels[MATRIX_MAX][128];
	int64_t run_ids[MATRIX_MAX];

	for (int i = 1; i < argc; i++) {
		const char *name = NULL, *v = NULL;
		int got;

		if (!strcmp(argv[i], "--")) {
			test_at = i + 1;
			break;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(matrix_usage, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			cli->json = true;
			continue;
		}
		if (!strcmp(argv[i], "--no-xdp")) {
			no_xdp = true;
			continue;
		}
		if ((got = cli_take_valued(argc, argv, &i, valued, &name, &v, err, sizeof(err))) < 0) {
			cli_error("matrix: %s", err);
			return EXIT_USAGE;
		}
		if (!got) {
			cli_error(argv[i][0] == '-' ? "matrix: unknown option '%s' (see 'wirerate matrix --help')"
						    : "matrix: unexpected '%s': the test goes after '--'",
				  argv[i]);
			return EXIT_USAGE;
		}
		int k;

		for (k = 0; k < NAXES && strcmp(name, axes[k].opt); k++)
			;
		if (k < NAXES) {
			if ((rc = add_values(&axes[k], (char *)v)))
				return rc;
		} else if (!strcmp(name, "--prefix")) {
			prefix = v;
		} else if (!strcmp(name, "--label")) {
			label = v;
		} else if (!strcmp(name, "--tag")) {
			if (ntags == (int)(sizeof(tags) / sizeof(tags[0]))) {
				cli_error("matrix: --tag: at most %d", (int)(sizeof(tags) / sizeof(tags[0])));
				return EXIT_USAGE;
			}
			tags[ntags++] = v;
		} else if (!strcmp(name, "--db")) {
			db_opt = v;
		} else if (!strcmp(name, "--html")) {
			html = v;
		} else {
			fail_pct = v;
		}
	}
	if (test_at < 0 || test_at >= argc) {
		cli_error("matrix: give the test after '--': trial or rfc2544 and its options (see 'wirerate matrix --help')");
		return EXIT_USAGE;
	}
	if (strcmp(argv[test_at], "trial") && strcmp(argv[test_at], "rfc2544")) {
		cli_error("matrix: the test is trial or rfc2544, not '%s'", argv[test_at]);
		return EXIT_USAGE;
	}
	for (int i = test_at + 1; i < argc; i++) {
		if (is_set_by_matrix(argv[i])) {
			cli_error("matrix: %s is the matrix's to set, not the test's (see 'wirerate matrix --help')", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (argc - test_at + 2 * ntags + 12 > ARGV_MAX) {
		cli_error("matrix: too many test options");
		return EXIT_USAGE;
	}
	int naxes_set = 0;

	for (int k = 0; k < NAXES; k++) {
		if (!axes[k].n)
			continue;
		naxes_set++;
		if (nconf * axes[k].n > MATRIX_MAX) {
			cli_error("matrix: more than %d configurations", MATRIX_MAX);
			return EXIT_USAGE;
		}
		nconf *= axes[k].n;
	}
	if (!naxes_set) {
		cli_error("matrix: give at least one axis (--placement, --rules, --dut-cpus, --shape, --mtu or --queues)");
		return EXIT_USAGE;
	}
	if (label && (!*label || strlen(label) > 40)) {
		cli_error("matrix: --label '%.60s': 1 to 40 characters (the configuration follows it)", label);
		return EXIT_USAGE;
	}
	/* the matrix's own options, before anything is built or stored */
	if ((rc = check_own(label, tags, ntags, db_opt, html, fail_pct)))
		return rc;

	/* Every configuration checked as 'lab up' would check it, before any
	 * lab is built or test run. */
	for (int c = 0; c < nconf; c++) {
		char *largv[32];
		int la = 0, idx = c;
		const char *action;

		largv[la++] = "lab";
		largv[la++] = "--prefix";
		largv[la++] = (char *)prefix;
		for (int k = 0; k < NAXES; k++) {
			if (!axes[k].n)
				continue;
			largv[la++] = (char *)axes[k].opt;
			largv[la++] = axes[k].v[idx % axes[k].n];
			idx /= axes[k].n;
		}
		if (no_xdp)
			largv[la++] = "--no-xdp";
		largv[la++] = "up";
		largv[la] = NULL;
		if ((rc = lab_args_parse(cli, la, largv, &specs[c], &action)))
			return rc < 0 ? EXIT_USAGE : rc;
	}
	/* label: name=value for every axis with more than one value (just the
	 * value for placement: bound, split, free read on their own) */
	for (int c = 0; c < nconf; c++) {
		int idx = c;
		size_t len = 0;

		labels[c][0] = 0;
		if (label)
			len = (size_t)snprintf(labels[c], sizeof(labels[c]), "%s ", label);
		for (int k = 0; k < NAXES && len < sizeof(labels[c]); k++) {
			const char *val;

			if (!axes[k].n)
				continue;
			val = axes[k].v[idx % axes[k].n];
			idx /= axes[k].n;
			if (axes[k].n < 2)
				continue;
			len += (size_t)snprintf(labels[c] + len, sizeof(labels[c]) - len, "%s%s%s%s",
						len && labels[c][len - 1] != ' ' ? "," : "",
						strcmp(axes[k].name, "placement") ? axes[k].name : "",
						strcmp(axes[k].name, "placement") ? "=" : "", val);
		}
		if (len && labels[c][len < sizeof(labels[c]) ? len - 1 : sizeof(labels[c]) - 2] == ' ')
			labels[c][strlen(labels[c]) - 1] = 0;
		if (!labels[c][0])
			snprintf(labels[c], sizeof(labels[c]), "%s", label ? label : "matrix");
		/* a run's label holds 63 characters: never two runs cut alike */
		if (strlen(labels[c]) > 63) {
			cli_error("matrix: the label of configuration %d would be longer than 63 characters ('%.70s'): "
				  "shorten --label or use fewer axes", c + 1, labels[c]);
			return EXIT_USAGE;
		}
	}
	if (db_opt) {
		snprintf(db_path, sizeof(db_path), "%s", db_opt);
	} else if (db_default_path(db_path, sizeof(db_path), err, sizeof(err))) {
		cli_error("matrix: %s", err);
		return EXIT_USAGE;
	}
	snprintf(mtag, sizeof(mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	/* the test's own options, parsed by the test with nothing built */
	test_argv(targv, argv + test_at, argc - test_at, prefix, labels[0], mtag, tags, ntags, db_path);
	if ((rc = check_test(targv)))
		return rc < 0 ? EXIT_RUNTIME : rc;
	/* the lab is the matrix's until the end; its tests share its lock
	 * (inherited: it lasts while a test runs, even if the matrix dies) */
	if ((rc = lab_lock(prefix, "matrix", true, &lock, err, sizeof(err)))) {
		cli_error("matrix: %s", err);
		return EXIT_RUNTIME;
	}
	{
		char held[64];

		fcntl(lock, F_SETFD, 0);
		snprintf(held, sizeof(held), "%s:%d", prefix, lock);
		setenv(LAB_LOCK_ENV, held, 1);
	}

	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO }, old_int, old_term, old_hup;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	if (!cli->json) {
		char t[4 * sizeof(mtag)];

		printf("matrix: %d configuration(s) in lab %s, runs tagged %s\n", nconf, prefix,
		       out_escape_text(t, sizeof(t), mtag));
	}

	if (lab_down(prefix, err, sizeof(err))) {
		cli_error("matrix: lab down: %s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	for (int c = 0; c < nconf && !stop_sig; c++) {
		int st;

		at = c;
		started = c + 1;

		if (!cli->json) {
			char l[4 * sizeof(labels[0])];

			printf("matrix %d/%d: %s\n", c + 1, nconf, out_escape_text(l, sizeof(l), labels[c]));
			fflush(stdout);
		}
		if (lab_down(prefix, err, sizeof(err)) || lab_up(&specs[c], err, sizeof(err))) {
			cli_error("matrix: configuration %d (%s): lab up: %s", c + 1, labels[c], err);
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (stop_sig) {
			rc = 130;
			goto out;
		}
		test_argv(targv, argv + test_at, argc - test_at, prefix, labels[c], mtag, tags, ntags, db_path);
		if (cli->json) {
			FILE *null = fopen("/dev/null", "w");

			st = run_child(targv, null ? fileno(null) : -1);
			if (null)
				fclose(null);
		} else {
			st = run_child(targv, -1);
		}
		if (st < 0) {
			cli_error("matrix: cannot run the test: %s", strerror(errno));
			rc = EXIT_RUNTIME;
			goto out;
		}
		run_ids[c] = newest_tagged(db_path, mtag);
		if (st) {
			/* the test said why; a stop keeps the runs so far */
			rc = st == 130 || stop_sig ? 130 : st;
			if (rc != 130)
				cli_error("matrix: configuration %d (%s): the test failed (exit %d); the runs so far "
					  "are stored, tagged %s", c + 1, labels[c], st, mtag);
			goto out;
		}
		if (run_ids[c] <= (c ? run_ids[c - 1] : 0)) {
			cli_error("matrix: configuration %d (%s): the test stored no run in %s", c + 1, labels[c], db_path);
			rc = EXIT_RUNTIME;
			goto out;
		}
		if (!cli->json)
			printf("\n");
	}
	if (stop_sig) {
		rc = 130;
		between = started > 0;
	}
out:
	if (lab_down(prefix, err, sizeof(err))) {
		cli_error("matrix: lab down: %s", err);
		if (!rc)
			rc = EXIT_RUNTIME;
	}
	if (rc) {
		if (rc == 130) {
			if (!started)
				fprintf(stderr, "wirerate: matrix: stopped before configuration 1 of %d; nothing was run\n",
					nconf);
			else
				cli_error("matrix: stopped %s configuration %d of %d; the runs so far are stored, tagged %s",
					  between ? "after" : "in", at + 1, nconf, mtag);
		}
		goto restore;
	}

	/* The report over the runs, as 'wirerate report' prints it. */
	{
		char *rargv[MATRIX_MAX + 16], ids[MATRIX_MAX][24];
		int ra = 0;
		FILE *tmp = NULL;

		rargv[ra++] = "wirerate";
		if (cli->json)
			rargv[ra++] = "--json";
		rargv[ra++] = "report";
		for (int c = 0; c < nconf; c++) {
			snprintf(ids[c], sizeof(ids[c]), "%lld", (long long)run_ids[c]);
			rargv[ra++] = ids[c];
		}
		rargv[ra++] = "--db";
		rargv[ra++] = db_path;
		if (html) {
			rargv[ra++] = "--html";
			rargv[ra++] = (char *)html;
		}
		if (fail_pct) {
			rargv[ra++] = "--fail-on-regression";
			rargv[ra++] = (char *)fail_pct;
		}
		rargv[ra] = NULL;
		if (cli->json && !(tmp = tmpfile())) {
			cli_error("matrix: a temporary file: %s", strerror(errno));
			rc = EXIT_RUNTIME;
			goto restore;
		}
		fflush(stdout);
		rc = run_child(rargv, tmp ? fileno(tmp) : -1);
		if (rc < 0)
			rc = EXIT_RUNTIME;
		if (tmp) {
			char buf[8192];
			size_t n;

			printf("{\"tag\":");
			json_put_string(stdout, mtag);
			printf(",\"prefix\":");
			json_put_string(stdout, prefix);
			printf(",\"configurations\":[");
			for (int c = 0; c < nconf; c++) {
				int idx = c;
				bool first = true;

				printf("%s{\"label\":", c ? "," : "");
				json_put_string(stdout, labels[c]);
				printf(",\"run_id\":%lld,\"lab\":{", (long long)run_ids[c]);
				for (int k = 0; k < NAXES; k++) {
					if (!axes[k].n)
						continue;
					printf("%s", first ? "" : ",");
					first = false;
					json_put_string(stdout, axes[k].name);
					printf(":");
					json_put_string(stdout, axes[k].v[idx % axes[k].n]);
					idx /= axes[k].n;
				}
				printf("}}");
			}
			printf("],\"report\":");
			rewind(tmp);
			if (ftell(tmp) == 0 && fgetc(tmp) == EOF) {
				printf("null");
			} else {
				rewind(tmp);
				while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
					fwrite(buf, 1, n, stdout);
			}
			printf("}\n");
			fclose(tmp);
		}
	}
restore:
	unsetenv(LAB_LOCK_ENV);
	lab_unlock(&lock, prefix);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return rc;
}
