/* The matrix's configurations and checks. */
#include "app/matrix_plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/db_runs.h"

void app_matrix_plan_init(struct app_matrix *m)
{
	static const struct app_matrix_plan_axis axes[APP_MATRIX_NAXES] = {
		{ .opt = "--placement", .name = "placement", .lists = true },
		{ .opt = "--rules", .name = "rules", .lists = true },
		{ .opt = "--dut-cpus", .name = "dut-cpus", .lists = false },
		{ .opt = "--shape", .name = "shape", .lists = true },
		{ .opt = "--mtu", .name = "mtu", .lists = true },
		{ .opt = "--queues", .name = "queues", .lists = true },
		/* a VM lab's: the DUT's kernel, and what its command line adds */
		{ .opt = "--kernel", .name = "kernel", .lists = true },
		{ .opt = "--kernel-cmdline", .name = "cmdline", .lists = false },
	};

	memset(m, 0, sizeof(*m));
	memcpy(m->axes, axes, sizeof(axes));
	m->nconf = 1;
}

int app_matrix_plan_axis(const struct app_matrix *m, const char *opt)
{
	for (int k = 0; k < APP_MATRIX_NAXES; k++)
		if (!strcmp(opt, m->axes[k].opt))
			return k;
	return -1;
}

int app_matrix_plan_add(struct app_matrix *m, int k, char *v, char *err, size_t errlen)
{
	struct app_matrix_plan_axis *ax = &m->axes[k];
	char *save = NULL, *tok;

	if (!ax->lists) {
		if (ax->n == APP_MATRIX_VALUES_MAX)
			goto many;
		ax->v[ax->n++] = v;
		return 0;
	}
	if (!*v || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
		snprintf(err, errlen, "%s '%s': give values separated by single commas", ax->opt, v);
		return -EINVAL;
	}
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ax->n == APP_MATRIX_VALUES_MAX)
			goto many;
		ax->v[ax->n++] = tok;
	}
	return 0;
many:
	snprintf(err, errlen, "%s: at most %d values", ax->opt, APP_MATRIX_VALUES_MAX);
	return -EINVAL;
}

int app_matrix_plan_count(struct app_matrix *m, char *err, size_t errlen)
{
	int naxes = 0, nconf = 1;

	for (int k = 0; k < APP_MATRIX_NAXES; k++) {
		if (!m->axes[k].n)
			continue;
		naxes++;
		if (nconf * m->axes[k].n > APP_MATRIX_MAX) {
			snprintf(err, errlen, "more than %d configurations", APP_MATRIX_MAX);
			return -EINVAL;
		}
		nconf *= m->axes[k].n;
	}
	if (!naxes) {
		snprintf(err, errlen, "give at least one axis (--placement, --rules, --dut-cpus, --shape, --mtu, --queues, "
			 "--kernel or --kernel-cmdline)");
		return -EINVAL;
	}
	m->nconf = nconf;
	return 0;
}

const char *app_matrix_plan_value(const struct app_matrix *m, int c, int k)
{
	int idx = c;

	if (!m->axes[k].n)
		return NULL;
	for (int j = 0; j < k; j++)
		if (m->axes[j].n)
			idx /= m->axes[j].n;
	return m->axes[k].v[idx % m->axes[k].n];
}

int app_matrix_plan_lab_argv(const struct app_matrix *m, int c, const char *prefix, bool no_xdp, char **argv)
{
	int la = 0;

	argv[la++] = "lab";
	argv[la++] = "--prefix";
	argv[la++] = (char *)prefix;
	for (int k = 0; k < APP_MATRIX_NAXES; k++) {
		if (!m->axes[k].n)
			continue;
		/* "none": the configuration without the option (no extra
		 * kernel arguments, against some) */
		if (!strcmp(app_matrix_plan_value(m, c, k), "none") && !strcmp(m->axes[k].name, "cmdline"))
			continue;
		argv[la++] = (char *)m->axes[k].opt;
		argv[la++] = (char *)app_matrix_plan_value(m, c, k);
	}
	if (no_xdp)
		argv[la++] = "--no-xdp";
	argv[la++] = "up";
	argv[la] = NULL;
	return la;
}

int app_matrix_plan_labels(struct app_matrix *m, const char *label, char *err, size_t errlen)
{
	for (int c = 0; c < m->nconf; c++) {
		char *l = m->labels[c];
		size_t len = 0, room = sizeof(m->labels[c]);

		l[0] = 0;
		if (label)
			len = (size_t)snprintf(l, room, "%s ", label);
		for (int k = 0; k < APP_MATRIX_NAXES && len < room; k++) {
			const struct app_matrix_plan_axis *ax = &m->axes[k];
			/* placement reads on its own: bound, split, free; and a
			 * kernel: 6.1.0-57-cloud-amd64 */
			bool named = strcmp(ax->name, "placement") && strcmp(ax->name, "kernel");

			if (ax->n < 2)
				continue;
			len += (size_t)snprintf(l + len, room - len, "%s%s%s%s", len && l[len - 1] != ' ' ? "," : "",
						named ? ax->name : "", named ? "=" : "", app_matrix_plan_value(m, c, k));
		}
		if (len && l[len < room ? len - 1 : room - 2] == ' ')
			l[strlen(l) - 1] = 0;
		if (!l[0])
			snprintf(l, room, "%s", label ? label : "matrix");
		/* a run's label holds 63 characters: never two runs cut alike */
		if (strlen(l) > APP_MATRIX_LABEL_MAX) {
			snprintf(err, errlen, "the label of configuration %d would be longer than 63 characters ('%.70s'): "
				 "shorten --label or use fewer axes", c + 1, l);
			return -EINVAL;
		}
	}
	return 0;
}

bool app_matrix_plan_reserved(const char *a, bool remote)
{
	/* The lab's matrix sets the ports; a real DUT's matrix sets what it
	 * changes on the DUT, and the test names the ports and the DUT. */
	static const char *const lab[] = { "--prefix", "--tx", "--rx", "--label", "--db", "--no-store",
					   "--json", "-j", "--dst-mac", NULL };
	static const char *const dut[] = { "--prefix", "--label", "--db", "--no-store", "--json", "-j",
					   "--dut-placement", "--dut-rules", NULL };
	const char *const *taken = remote ? dut : lab;

	/* Option names are exact (no abbreviations), with or without =. */
	for (int k = 0; taken[k]; k++) {
		size_t n = strlen(taken[k]);

		if (!strncmp(a, taken[k], n) && (!a[n] || a[n] == '='))
			return true;
	}
	return false;
}

bool app_matrix_plan_remote_dut(char **test, int ntest)
{
	for (int i = 0; i < ntest; i++) {
		const char *v = NULL;

		if (!strcmp(test[i], "--dut") && i + 1 < ntest)
			v = test[i + 1];
		else if (!strncmp(test[i], "--dut=", 6))
			v = test[i] + 6;
		if (v && strcmp(v, "lab") && strncmp(v, "lab:", 4))
			return true;
	}
	return false;
}

int app_matrix_plan_check_remote(const struct app_matrix *m, char *err, size_t errlen)
{
	for (int k = 0; k < APP_MATRIX_NAXES; k++)
		if (m->axes[k].n && strcmp(m->axes[k].opt, "--placement") && strcmp(m->axes[k].opt, "--rules")) {
			snprintf(err, errlen, "%s: a DUT of its own (--dut ssh: or local) has the axes --placement and "
				 "--rules; %s is the lab's", m->axes[k].opt, m->axes[k].opt);
			return -EINVAL;
		}
	return 0;
}

void app_matrix_plan_dut_argv(const struct app_matrix *m, int c, char **targv)
{
	int ta = 0;
	const char *v;

	while (targv[ta])
		ta++;
	if ((v = app_matrix_plan_value(m, c, app_matrix_plan_axis(m, "--placement")))) {
		targv[ta++] = "--dut-placement";
		targv[ta++] = (char *)v;
	}
	if ((v = app_matrix_plan_value(m, c, app_matrix_plan_axis(m, "--rules")))) {
		targv[ta++] = "--dut-rules";
		targv[ta++] = (char *)v;
	}
	targv[ta] = NULL;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

int app_matrix_plan_check_own(const char *label, const char *const *tags, int ntags, const char *db, const char *html,
			 const char *fail_pct, char *err, size_t errlen)
{
	struct stat sb;

	if (label && (!*label || strlen(label) > 40)) {
		snprintf(err, errlen, "--label '%.60s': 1 to 40 characters (the configuration follows it)", label);
		return -EINVAL;
	}
	if (label && has_control(label)) {
		snprintf(err, errlen, "--label: no control characters");
		return -EINVAL;
	}
	for (int t = 0; t < ntags; t++) {
		if (!*tags[t] || strlen(tags[t]) > 63 || has_control(tags[t])) {
			snprintf(err, errlen, "--tag '%.70s': 1 to 63 characters, no control characters", tags[t]);
			return -EINVAL;
		}
	}
	if (db && !*db) {
		snprintf(err, errlen, "--db: give a file name");
		return -EINVAL;
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
			snprintf(err, errlen, "--html '%.70s': give a file in a directory that exists", html);
			return -EINVAL;
		}
	}
	if (fail_pct) {
		char *end;
		double v = strtod(fail_pct, &end);

		if (end == fail_pct || *end || !isfinite(v) || v < 0) {
			snprintf(err, errlen, "--fail-on-regression '%.40s': give a percentage, 0 or more", fail_pct);
			return -EINVAL;
		}
	}
	return 0;
}

void app_matrix_plan_test_argv(char **targv, char **test, int ntest, const char *prefix, const char *label,
			  const char *mtag, const char *const *tags, int ntags, const char *db_path)
{
	int ta = 0;

	targv[ta++] = "wirerate";
	for (int i = 0; i < ntest; i++)
		targv[ta++] = test[i];
	if (prefix) {
		targv[ta++] = "--prefix";
		targv[ta++] = (char *)prefix;
	}
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

int64_t app_matrix_plan_newest_run(const char *db_path, const char *tag)
{
	struct db *db = NULL;
	char err[256];
	int64_t id = 0;

	if (db_open(db_path, false, &db, err, sizeof(err)))
		return 0;
	db_runs_tag_newest(db, tag, &id, err, sizeof(err));
	db_close(db);
	return id;
}

void app_matrix_plan_report_argv(char **argv, char ids[][24], const int64_t *run_ids, int nconf, bool json,
			    const char *db_path, const char *html, const char *fail_pct)
{
	int a = 0;

	argv[a++] = "wirerate";
	if (json)
		argv[a++] = "--json";
	argv[a++] = "report";
	for (int c = 0; c < nconf; c++) {
		snprintf(ids[c], 24, "%lld", (long long)run_ids[c]);
		argv[a++] = ids[c];
	}
	argv[a++] = "--db";
	argv[a++] = (char *)db_path;
	if (html) {
		argv[a++] = "--html";
		argv[a++] = (char *)html;
	}
	if (fail_pct) {
		argv[a++] = "--fail-on-regression";
		argv[a++] = (char *)fail_pct;
	}
	argv[a] = NULL;
}

int app_matrix_plan_check_test(char **test, int ntest, int ntags, bool *remote, char *err, size_t errlen)
{
	*remote = app_matrix_plan_remote_dut(test, ntest);
	for (int i = 1; i < ntest; i++) {
		/* the test would print its help and the matrix run on */
		if (!strcmp(test[i], "--help") || !strcmp(test[i], "-h")) {
			snprintf(err, errlen, "%s among the test's options: for them, see 'wirerate %s --help'", test[i],
				 test[0]);
			return -EINVAL;
		}
		if (app_matrix_plan_reserved(test[i], *remote)) {
			snprintf(err, errlen, "%s is the matrix's to set, not the test's (see 'wirerate matrix --help')",
				 test[i]);
			return -EINVAL;
		}
	}
	/* the label, tag, store and lab the matrix adds, and the DUT's axes */
	if (ntest + 2 * ntags + 12 > APP_MATRIX_ARGV_MAX) {
		snprintf(err, errlen, "too many test options");
		return -EINVAL;
	}
	return 0;
}
