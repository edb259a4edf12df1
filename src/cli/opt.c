/* Options declared once: the parser, the usage and the JSON; see opt.h. */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/units.h"
#include "store/db.h"
#include "render/out.h"

/* Every command's own two, after its tables. */
static const struct opt common_opts[] = {
	{ OPT_CUSTOM("json", OPT_NOARG, NULL, NULL, "machine-readable output"), .shortname = 'j' },
	{ OPT_CUSTOM("help", OPT_NOARG, NULL, NULL, "this help"), .shortname = 'h' },
	{ NULL },
};

#define HELP_COL 22	/* where the help text starts in the usage */

static const struct opt *find_long(const struct opt_cmd *cmd, const char *name, size_t len, int *table)
{
	for (int t = 0; cmd->tables[t]; t++)
		for (const struct opt *o = cmd->tables[t]; o->name; o++)
			if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
				*table = t;
				return o;
			}
	for (const struct opt *o = common_opts; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
			*table = -1;
			return o;
		}
	return NULL;
}

static const struct opt *find_short(const struct opt_cmd *cmd, char c, int *table)
{
	for (int t = 0; cmd->tables[t]; t++)
		for (const struct opt *o = cmd->tables[t]; o->name; o++)
			if (o->shortname && o->shortname == c) {
				*table = t;
				return o;
			}
	for (const struct opt *o = common_opts; o->name; o++)
		if (o->shortname == c) {
			*table = -1;
			return o;
		}
	return NULL;
}

/* Whether the setter's reason names an option ("--name") outside the
 * value it quotes: "'--json' is not a number" (the value of an option
 * given without one) still gets the option's name in front. */
static bool names_option(const char *why, const char *value)
{
	size_t vl = value ? strlen(value) : 0;

	for (const char *p = strstr(why, "--"); p; p = strstr(p + 1, "--")) {
		bool quoted = false;

		for (const char *q = vl ? strstr(why, value) : NULL; q && q <= p; q = strstr(q + 1, value))
			if (q > why && q[-1] == '\'' && q[vl] == '\'' && p + 2 <= q + vl) {
				quoted = true;
				break;
			}
		if (!quoted)
			return true;
	}
	return false;
}

int opt_apply(const struct opt *o, void *ctx, const char *value, char *err, size_t errlen)
{
	char why[512];
	int rc;

	why[0] = '\0';
	if (!o->set)
		return 0;
	if (!(rc = o->set(ctx, o, value, why, sizeof(why))))
		return 0;
	if (!why[0])
		snprintf(why, sizeof(why), "bad value '%s'", value ? value : "");
	if (names_option(why, value))
		snprintf(err, errlen, "%s", why);
	else
		snprintf(err, errlen, "--%s: %s", o->name, why);
	return -EINVAL;
}

static int parse(const struct opt_cmd *cmd, void *const *ctx, struct cli *cli, int argc, char **argv,
		 char **args, int maxargs, int *nargs, char *err, size_t errlen, bool *by_setter)
{
	bool only_args = false;

	*nargs = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *value = NULL;
		const struct opt *o = NULL;
		int t = -1, rc;

		if (only_args || a[0] != '-' || !a[1]) {
			if (*nargs >= maxargs) {
				snprintf(err, errlen, "unexpected argument '%s'", a);
				return -EINVAL;
			}
			args[(*nargs)++] = argv[i];
			if (cmd->stop_at_arg)
				only_args = true;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			o = find_long(cmd, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), &t);
			if (o && eq) {
				if (o->arg == OPT_NOARG) {
					snprintf(err, errlen, "option '--%s' takes no value", o->name);
					return -EINVAL;
				}
				value = eq + 1;
			}
		} else {
			/* -m1025 as getopt takes it; a switch stands alone */
			o = find_short(cmd, a[1], &t);
			if (o && a[2]) {
				if (o->arg == OPT_NOARG)
					o = NULL;
				else
					value = a + 2;
			}
		}
		if (!o) {
			snprintf(err, errlen, "unknown option '%s' (see 'wirerate %s --help')", a, cmd->name);
			return -EINVAL;
		}
		if (o->arg == OPT_VALUE && !value) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "option '%s' needs a value", a);
				return -EINVAL;
			}
			value = argv[++i];
		}
		if (t < 0) {
			if (!strcmp(o->name, "help")) {
				opt_usage(stdout, cmd);
				return OPT_HELP;
			}
			cli->json = true;
			continue;
		}
		if ((rc = opt_apply(o, ctx[t], value, err, errlen))) {
			*by_setter = true;
			return rc;
		}
	}
	return 0;
}

int opt_parse(const struct opt_cmd *cmd, void *const *ctx, struct cli *cli, int argc, char **argv,
	      char **args, int maxargs, int *nargs)
{
	bool by_setter = false;
	char err[768];
	int rc;

	err[0] = '\0';
	rc = parse(cmd, ctx, cli, argc, argv, args, maxargs, nargs, err, sizeof(err), &by_setter);
	if (rc < 0 && by_setter && cmd->bare_errors)
		cli_error("%s", err);
	else if (rc < 0)
		cli_error("%s: %s", cmd->name, err);
	return rc;
}

/* "  --name META" then the help, lines after the first at HELP_COL. */
static void usage_opt(FILE *f, const struct opt *o)
{
	char head[96];
	const char *h = o->help ? o->help : "";
	int n;

	if (o->shortname)
		n = snprintf(head, sizeof(head), "  -%c, --%s", o->shortname, o->name);
	else
		n = snprintf(head, sizeof(head), "  --%s", o->name);
	if (o->meta)
		n += snprintf(head + n, sizeof(head) - (size_t)n, o->arg == OPT_OPTIONAL ? "[=%s]" : " %s", o->meta);
	fputs(head, f);
	if (n + 2 > HELP_COL)
		fputs("  ", f);
	else
		fprintf(f, "%*s", HELP_COL - n, "");
	for (; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", HELP_COL, "");
	}
	if (o->def)
		fprintf(f, " (default %s)", o->def);
	fputc('\n', f);
}

void opt_usage(FILE *f, const struct opt_cmd *cmd)
{
	const char *group = NULL;

	fprintf(f, "usage: wirerate %s %s\n", cmd->name, cmd->synopsis ? cmd->synopsis : "[OPTIONS]");
	if (cmd->about)
		fprintf(f, "\n%s", cmd->about);
	fputc('\n', f);
	for (int t = 0; cmd->tables[t]; t++)
		for (const struct opt *o = cmd->tables[t]; o->name; o++) {
			if (o->group && (!group || strcmp(o->group, group))) {
				group = o->group;
				fprintf(f, "%s:\n", group);
			}
			usage_opt(f, o);
		}
	fprintf(f, "%s", group ? "output:\n" : "");
	for (const struct opt *o = common_opts; o->name; o++)
		usage_opt(f, o);
	if (cmd->notes)
		fprintf(f, "\n%s", cmd->notes);
}

static void json_opt(FILE *f, const struct opt *o, const char *group, bool first)
{
	fprintf(f, "%s{\"name\":", first ? "" : ",");
	out_json_put_string(f, o->name);
	fprintf(f, ",\"short\":");
	if (o->shortname) {
		char s[2] = { o->shortname, 0 };

		out_json_put_string(f, s);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"argument\":");
	if (o->arg == OPT_NOARG)
		fputs("null", f);
	else
		out_json_put_string(f, o->meta ? o->meta : "VALUE");
	fprintf(f, ",\"optional_value\":%s,\"group\":", o->arg == OPT_OPTIONAL ? "true" : "false");
	if (group)
		out_json_put_string(f, group);
	else
		fputs("null", f);
	fprintf(f, ",\"default\":");
	if (o->def)
		out_json_put_string(f, o->def);
	else
		fputs("null", f);
	fprintf(f, ",\"help\":");
	out_json_put_string(f, o->help ? o->help : "");
	fputc('}', f);
}

void opt_json(FILE *f, const struct opt_cmd *cmd)
{
	const char *group = NULL;
	bool first = true;

	fprintf(f, "\"usage\":");
	{
		char line[512];

		snprintf(line, sizeof(line), "wirerate %s %s", cmd->name, cmd->synopsis ? cmd->synopsis : "[OPTIONS]");
		out_json_put_string(f, line);
	}
	fprintf(f, ",\"about\":");
	out_json_put_string(f, cmd->about ? cmd->about : "");
	fprintf(f, ",\"notes\":");
	out_json_put_string(f, cmd->notes ? cmd->notes : "");
	fprintf(f, ",\"options\":[");
	for (int t = 0; cmd->tables[t]; t++)
		for (const struct opt *o = cmd->tables[t]; o->name; o++) {
			if (o->group)
				group = o->group;
			json_opt(f, o, group, first);
			first = false;
		}
	for (const struct opt *o = common_opts; o->name; o++) {
		json_opt(f, o, "output", first);
		first = false;
	}
	fputc(']', f);
}

int opt_set_true(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	*(bool *)((char *)ctx + opt->off) = true;
	return 0;
}

int opt_set_str(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	*(const char **)((char *)ctx + opt->off) = value;
	return 0;
}

/* A value taken: the bool at opt->given, when not 0, says it was given. */
static int given(void *ctx, const struct opt *opt, int rc)
{
	if (!rc && opt->given)
		*(bool *)((char *)ctx + opt->given) = true;
	return rc;
}

int opt_set_u64(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	return given(ctx, opt, units_u64_parse(value, opt->min, opt->max, (uint64_t *)((char *)ctx + opt->off), err, errlen));
}

int opt_set_uint(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	uint64_t v;
	int rc = units_u64_parse(value, opt->min, opt->max > UINT32_MAX ? UINT32_MAX : opt->max, &v, err, errlen);

	if (!rc)
		*(unsigned int *)((char *)ctx + opt->off) = (unsigned int)v;
	return given(ctx, opt, rc);
}

int opt_set_ns(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	return given(ctx, opt, units_duration_parse(value, opt->min, opt->max, (uint64_t *)((char *)ctx + opt->off), err,
					      errlen));
}

int opt_set_cpuset(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	struct cpuset *set = (struct cpuset *)((char *)ctx + opt->off);

	err[0] = '\0';
	if (cpuset_parse_list(value, set, err, errlen) || !cpuset_count(set)) {
		if (!*err)
			snprintf(err, errlen, "empty CPU list");
		return -EINVAL;
	}
	return given(ctx, opt, 0);
}

int opt_path_check(const char *value, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;

	if (!*value || strlen(value) >= sizeof(dir)) {
		snprintf(err, errlen, "give a file name");
		return -EINVAL;
	}
	memcpy(dir, value, strlen(value) + 1);
	/* dirname() of "x.db" is ".", of "/x.db" "/" */
	const char *d = dirname(dir);

	if (stat(d, &st)) {
		snprintf(err, errlen, "'%s': no directory %s (create it first)", value, d);
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "'%s': %s is not a directory", value, d);
		return -EINVAL;
	}
	return 0;
}

int opt_db_check(const char *value, char *err, size_t errlen)
{
	return db_is_uri(value) ? 0 : opt_path_check(value, err, errlen);
}

int opt_set_db(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	int rc = opt_db_check(value, err, errlen);

	return rc ? rc : opt_set_str(ctx, opt, value, err, errlen);
}

int opt_set_path(void *ctx, const struct opt *opt, const char *value, char *err, size_t errlen)
{
	int rc = opt_path_check(value, err, errlen);

	return rc ? rc : opt_set_str(ctx, opt, value, err, errlen);
}

int opt_parse_words(const struct opt_cmd *cmd, void *const *ctx, struct cli *cli, int argc, char **argv,
		    char ***words, int *nwords)
{
	int rc;

	if (!(*words = calloc((size_t)argc, sizeof(**words)))) {
		cli_error("%s: out of memory", cmd->name);
		return -ENOMEM;
	}
	if ((rc = opt_parse(cmd, ctx, cli, argc, argv, *words, argc, nwords))) {
		free(*words);
		*words = NULL;
	}
	return rc;
}

int opt_status(int rc)
{
	return rc == OPT_HELP ? 0 : rc == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
}

enum opt_result opt_exit(int *status, int st)
{
	*status = st;
	return OPT_EXIT;
}

enum opt_result opt_fail(int *status, int st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
	return opt_exit(status, st);
}

int opt_parse_pct(const char *name, const char *value, double *pct, char *err, size_t errlen)
{
	char *end;

	*pct = strtod(value, &end);
	if (end != value && !strcmp(end, "%"))
		end++;
	if (end == value || *end || !isfinite(*pct) || *pct < 0 || *pct > 100) {
		snprintf(err, errlen, "--%s '%s': give a percentage from 0 to 100, e.g. 5", name, value);
		return -EINVAL;
	}
	return 0;
}

int opt_add_db(const char *value, const char **db, unsigned int *n, unsigned int max, char *err, size_t errlen)
{
	int rc;

	if (*n == max) {
		snprintf(err, errlen, "--db: at most %u stores", max);
		return -EINVAL;
	}
	if ((rc = opt_db_check(value, err, errlen)))
		return rc;
	db[(*n)++] = value;
	return 0;
}
