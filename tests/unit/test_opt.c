/* The option parser (src/cli/opt.c): the forms of an option and its value,
 * the errors, the positionals, the generic setters, and the usage and JSON
 * generated from one table. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/ns.h"

struct t {
	const char *name, *opt;
	bool sw, opt_given;
	uint64_t num, dur;
	unsigned int small;
	int own_calls;
	bool num_given, dur_given;	/* set by the generic setters through opt->id */
};

static int set_own(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	((struct t *)ctx)->own_calls++;
	if (!strcmp(v, "bad")) {
		snprintf(err, errlen, "'%s' is not good", v);
		return -EINVAL;
	}
	if (!strcmp(v, "named")) {
		snprintf(err, errlen, "--sw and --own exclude each other");
		return -EINVAL;
	}
	return 0;
}

static int set_opt(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct t *t = ctx;

	t->opt_given = true;
	t->opt = v;
	return 0;
}

#define T(f) OPT_FIELD(struct t, f)

static const struct opt t_opts[] = {
	{ OPT_STR("name", "TEXT", T(name), "a string"), .group = "first group" },
	{ OPT_BOOL("sw", T(sw), "a switch"), .shortname = 'x' },
	{ OPT_U64("num", "N", T(num), 1, 10, "a number 1..10"),
	  .shortname = 'n', .def = "1", .given = T(num_given) },
	{ OPT_UINT("small", "N", T(small), 0, 5, "an unsigned int 0..5"), .group = "second group" },
	{ OPT_NS("dur", "T", T(dur), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR,
		 "a duration 10ms..1h\n"
		 "second line"),
	  .def = "1s", .given = T(dur_given) },
	{ OPT_CUSTOM("own", OPT_VALUE, "X", set_own, "its own setter") },
	{ OPT_CUSTOM("opt", OPT_OPTIONAL, "LIST", set_opt, "an optional value") },
	{ NULL },
};

static const struct opt *const t_tables[] = { t_opts, NULL };

static const struct opt_cmd t_cmd = {
	.name = "tcmd",
	.synopsis = "[OPTIONS] [ARG...]",
	.about = "About the test command.\n",
	.notes = "Notes after the options.\n",
	.tables = t_tables,
};

/* argv from a NULL-ended list of words, argv[0] the command */
static int run(const struct opt_cmd *cmd, struct t *t, struct cli *cli, char **args, int maxargs,
	       int *nargs, ...)
{
	char *argv[32];
	void *ctx[] = { t };
	va_list ap;
	int argc = 0;
	const char *w;

	argv[argc++] = (char *)cmd->name;
	va_start(ap, nargs);
	while ((w = va_arg(ap, const char *)))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	memset(t, 0, sizeof(*t));
	memset(cli, 0, sizeof(*cli));
	return opt_parse(cmd, ctx, cli, argc, argv, args, maxargs, nargs);
}

#define RUN(...) run(&t_cmd, &t, &cli, args, 4, &nargs, __VA_ARGS__, (const char *)NULL)

/* What cli_error printed on stderr during f(), through a pipe. */
static char errbuf[4096];

static void err_begin(int *saved, int p[2])
{
	fflush(stderr);
	assert_int_equal(pipe(p), 0);
	*saved = dup(2);
	dup2(p[1], 2);
}

static const char *err_end(int saved, int p[2])
{
	ssize_t n;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(p[1]);
	n = read(p[0], errbuf, sizeof(errbuf) - 1);
	errbuf[n > 0 ? n : 0] = '\0';
	close(p[0]);
	return errbuf;
}

#define EXPECT_ERR(msg, ...)                                   \
	do {                                                   \
		int saved_, p_[2], rc_;                        \
		err_begin(&saved_, p_);                        \
		rc_ = RUN(__VA_ARGS__);                        \
		assert_string_equal(err_end(saved_, p_), msg); \
		assert_int_equal(rc_, -EINVAL);                \
	} while (0)

static void test_value_forms(void **state)
{
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	assert_int_equal(RUN("--name", "a b"), 0);
	assert_string_equal(t.name, "a b");
	assert_int_equal(RUN("--name=x=y"), 0);
	assert_string_equal(t.name, "x=y");
	assert_int_equal(RUN("--name="), 0);
	assert_string_equal(t.name, "");
	/* the next word is the value, even one that looks like an option */
	assert_int_equal(RUN("--name", "--sw"), 0);
	assert_string_equal(t.name, "--sw");
	assert_false(t.sw);
	assert_int_equal(RUN("-n", "7"), 0);
	assert_int_equal(t.num, 7);
	assert_int_equal(RUN("-n3"), 0);
	assert_int_equal(t.num, 3);
	assert_int_equal(RUN("-x"), 0);
	assert_true(t.sw);
	assert_int_equal(RUN("--sw"), 0);
	assert_true(t.sw);
	assert_int_equal(RUN("--opt"), 0);
	assert_true(t.opt_given);
	assert_null(t.opt);
	assert_int_equal(RUN("--opt=a,b"), 0);
	assert_string_equal(t.opt, "a,b");
	assert_int_equal(nargs, 0);
}

static void test_errors(void **state)
{
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	EXPECT_ERR("wirerate: tcmd: option '--sw' takes no value\n", "--sw=1");
	EXPECT_ERR("wirerate: tcmd: option '--name' needs a value\n", "--name");
	EXPECT_ERR("wirerate: tcmd: option '-n' needs a value\n", "-n");
	EXPECT_ERR("wirerate: tcmd: unknown option '--bogus' (see 'wirerate tcmd --help')\n", "--bogus");
	EXPECT_ERR("wirerate: tcmd: unknown option '-Z' (see 'wirerate tcmd --help')\n", "-Z");
	/* exact names only: no prefixes */
	EXPECT_ERR("wirerate: tcmd: unknown option '--nam' (see 'wirerate tcmd --help')\n", "--nam", "x");
	/* a switch does not bundle or take an attached value */
	EXPECT_ERR("wirerate: tcmd: unknown option '-xn' (see 'wirerate tcmd --help')\n", "-xn");
	/* -j is --json and takes no value */
	EXPECT_ERR("wirerate: tcmd: unknown option '-jx' (see 'wirerate tcmd --help')\n", "-jx");
}

static void test_setter_errors(void **state)
{
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	EXPECT_ERR("wirerate: tcmd: --own: 'bad' is not good\n", "--own", "bad");
	/* a reason that names an option is left as it is */
	EXPECT_ERR("wirerate: tcmd: --sw and --own exclude each other\n", "--own", "named");
	/* an option quoted as the value does not count as named */
	EXPECT_ERR("wirerate: tcmd: --num: '--sw' is not a decimal whole number (1..10)\n", "--num", "--sw");
	/* the first error ends the parse */
	EXPECT_ERR("wirerate: tcmd: --own: 'bad' is not good\n", "--own", "bad", "--own", "ok");
	assert_int_equal(t.own_calls, 1);
}

static void test_generic_ranges(void **state)
{
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	assert_int_equal(RUN("--num", "1", "--small", "0"), 0);
	assert_int_equal(t.num, 1);
	assert_int_equal(t.small, 0);
	/* a value taken is marked given; one refused or not given is not */
	assert_true(t.num_given);
	assert_false(t.dur_given);
	assert_int_equal(RUN("--num", "10", "--small", "5"), 0);
	assert_int_equal(t.num, 10);
	assert_int_equal(t.small, 5);
	EXPECT_ERR("wirerate: tcmd: --num: '0' out of range: must be 1..10\n", "--num", "0");
	EXPECT_ERR("wirerate: tcmd: --num: '11' out of range: must be 1..10\n", "--num", "11");
	EXPECT_ERR("wirerate: tcmd: --num: '' is not a decimal whole number (1..10)\n", "--num", "");
	EXPECT_ERR("wirerate: tcmd: --small: '6' out of range: must be 0..5\n", "--small", "6");
	EXPECT_ERR("wirerate: tcmd: --small: '-1' is not a decimal whole number (0..5)\n", "--small", "-1");
	assert_int_equal(RUN("--dur", "10ms"), 0);
	assert_int_equal(t.dur, 10 * NSEC_PER_MSEC);
	assert_int_equal(RUN("--dur", "1h"), 0);
	assert_int_equal(t.dur, NSEC_PER_HOUR);
	assert_true(t.dur_given);
	assert_int_not_equal(RUN("--dur", "9ms"), 0);
	assert_false(t.dur_given);
	assert_int_not_equal(RUN("--dur", "61m"), 0);
	assert_int_not_equal(RUN("--dur", "zz"), 0);
}

static void test_positionals(void **state)
{
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	/* in any order with the options; "-" is a word */
	assert_int_equal(RUN("a", "--sw", "b", "-", "--num", "2"), 0);
	assert_int_equal(nargs, 3);
	assert_string_equal(args[0], "a");
	assert_string_equal(args[1], "b");
	assert_string_equal(args[2], "-");
	assert_true(t.sw);
	assert_int_equal(t.num, 2);
	EXPECT_ERR("wirerate: tcmd: unexpected argument 'e'\n", "a", "b", "c", "d", "e");
	/* -- ends the options */
	assert_int_equal(RUN("--sw", "--", "--num", "-x"), 0);
	assert_int_equal(nargs, 2);
	assert_string_equal(args[0], "--num");
	assert_string_equal(args[1], "-x");
	assert_int_equal(t.num, 0);
	/* none wanted */
	{
		int saved, p[2], rc;

		err_begin(&saved, p);
		rc = run(&t_cmd, &t, &cli, args, 0, &nargs, "x", (const char *)NULL);
		assert_string_equal(err_end(saved, p), "wirerate: tcmd: unexpected argument 'x'\n");
		assert_int_equal(rc, -EINVAL);
	}
}

static void test_stop_at_arg(void **state)
{
	struct opt_cmd c = t_cmd;
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs;

	c.stop_at_arg = true;
	assert_int_equal(run(&c, &t, &cli, args, 4, &nargs, "--sw", "sub", "--num", "2", (const char *)NULL), 0);
	assert_true(t.sw);
	assert_int_equal(t.num, 0);
	assert_int_equal(nargs, 3);
	assert_string_equal(args[0], "sub");
	assert_string_equal(args[1], "--num");
	assert_string_equal(args[2], "2");
}

static void test_help_and_json(void **state)
{
	struct opt_cmd c = t_cmd;
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs, saved;
	FILE *devnull = fopen("/dev/null", "w");

	assert_non_null(devnull);
	assert_int_equal(RUN("--json"), 0);
	assert_true(cli.json);
	assert_int_equal(RUN("--sw"), 0);
	assert_false(cli.json);
	/* -j is --json for every command */
	assert_int_equal(run(&c, &t, &cli, args, 4, &nargs, "-j", (const char *)NULL), 0);
	assert_true(cli.json);
	/* --help prints the usage on stdout and stops there */
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(devnull), 1);
	assert_int_equal(RUN("--help", "--bogus"), OPT_HELP);
	assert_int_equal(RUN("--sw", "-h"), OPT_HELP);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fclose(devnull);
	assert_true(t.sw);
}

static void test_bare_errors(void **state)
{
	struct opt_cmd c = t_cmd;
	struct t t;
	struct cli cli;
	char *args[4];
	int nargs, saved, p[2], rc;

	c.bare_errors = true;
	err_begin(&saved, p);
	rc = run(&c, &t, &cli, args, 4, &nargs, "--own", "bad", (const char *)NULL);
	assert_string_equal(err_end(saved, p), "wirerate: --own: 'bad' is not good\n");
	assert_int_equal(rc, -EINVAL);
	/* the parser's own errors keep the command's name */
	err_begin(&saved, p);
	rc = run(&c, &t, &cli, args, 4, &nargs, "--bogus", (const char *)NULL);
	assert_string_equal(err_end(saved, p), "wirerate: tcmd: unknown option '--bogus' (see 'wirerate tcmd --help')\n");
	assert_int_equal(rc, -EINVAL);
}

/* What fn printed, in a malloc'd string. */
static char *mem_print(void (*fn)(FILE *, const struct opt_cmd *), const struct opt_cmd *cmd)
{
	FILE *f = tmpfile();
	char *buf;
	long n;

	assert_non_null(f);
	fn(f, cmd);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_usage(void **state)
{
	char *u = mem_print(opt_usage, &t_cmd);
	const char *g1, *g2, *out;

	assert_non_null(strstr(u, "usage: wirerate tcmd [OPTIONS] [ARG...]\n"));
	assert_non_null(strstr(u, "About the test command.\n"));
	assert_non_null(strstr(u, "Notes after the options.\n"));
	g1 = strstr(u, "\nfirst group:\n");
	g2 = strstr(u, "\nsecond group:\n");
	out = strstr(u, "\noutput:\n");
	assert_non_null(g1);
	assert_non_null(g2);
	assert_non_null(out);
	assert_true(g1 < g2 && g2 < out);
	/* every option, with its help, under its group */
	for (const struct opt *o = t_opts; o->name; o++) {
		char head[64];
		const char *at, *nl;

		snprintf(head, sizeof(head), "--%s", o->name);
		at = strstr(u, head);
		assert_non_null(at);
		assert_true(at > g1 && at < out);
		assert_true((at > g2) == (o >= &t_opts[3]));
		nl = strchr(o->help, '\n');
		assert_non_null(strstr(at, nl ? "a duration 10ms..1h" : o->help));
	}
	assert_non_null(strstr(u, "  -x, --sw "));
	assert_non_null(strstr(u, "  -n, --num N "));
	assert_non_null(strstr(u, "  --opt[=LIST] "));
	assert_non_null(strstr(u, "(default 1s)"));
	assert_non_null(strstr(u, "\n                      second line"));
	assert_true(strstr(u, "--json") > out);
	assert_true(strstr(u, "-h, --help") > out);
	free(u);
}

/* A small JSON checker: one value and nothing after it. */
static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *js_value(const char *p);

static const char *js_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *js_seq(const char *p, char end, bool keyed)
{
	p = js_ws(p + 1);
	if (*p == end)
		return p + 1;
	for (;;) {
		if (keyed) {
			if (!(p = js_string(js_ws(p))))
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = js_value(p)))
			return NULL;
		p = js_ws(p);
		if (*p == end)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p)
{
	p = js_ws(p);
	if (*p == '{')
		return js_seq(p, '}', true);
	if (*p == '[')
		return js_seq(p, ']', false);
	if (*p == '"')
		return js_string(p);
	if (!strncmp(p, "true", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (!strncmp(p, "null", 4))
		return p + 4;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		char *end;

		strtod(p, &end);
		return end;
	}
	return NULL;
}

static void test_json(void **state)
{
	char *j = mem_print(opt_json, &t_cmd), *doc;
	const char *end;
	size_t n = strlen(j);

	/* opt_json writes members of the command's object */
	doc = malloc(n + 3);
	assert_non_null(doc);
	snprintf(doc, n + 3, "{%s}", j);
	end = js_value(doc);
	assert_non_null(end);
	assert_int_equal(*js_ws(end), '\0');
	assert_non_null(strstr(doc, "\"usage\":\"wirerate tcmd [OPTIONS] [ARG...]\""));
	for (const struct opt *o = t_opts; o->name; o++) {
		char key[64];

		snprintf(key, sizeof(key), "{\"name\":\"%s\"", o->name);
		assert_non_null(strstr(doc, key));
	}
	assert_non_null(strstr(doc, "\"name\":\"sw\",\"short\":\"x\",\"argument\":null"));
	assert_non_null(strstr(doc, "\"group\":\"second group\",\"default\":\"1s\","
				    "\"help\":\"a duration 10ms..1h\\nsecond line\""));
	assert_non_null(strstr(doc, "\"name\":\"opt\",\"short\":null,\"argument\":\"LIST\",\"optional_value\":true"));
	assert_non_null(strstr(doc, "{\"name\":\"json\""));
	assert_non_null(strstr(doc, "{\"name\":\"help\",\"short\":\"h\""));
	/* the checker refuses what is not JSON */
	assert_null(js_value("{\"a\":}"));
	assert_null(js_value("[1,]"));
	free(doc);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_setter_errors),
		cmocka_unit_test(test_generic_ranges),
		cmocka_unit_test(test_positionals),
		cmocka_unit_test(test_stop_at_arg),
		cmocka_unit_test(test_help_and_json),
		cmocka_unit_test(test_bare_errors),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
