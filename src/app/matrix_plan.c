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
		{ .name = "placement", .lists = true },
		{ .name = "rules", .lists = true },
		{ .name = "dut-cpus", .lists = false },
		{ .name = "shape", .lists = true },
		{ .name = "mtu", .lists = true },
		{ .name = "queues", .lists = true },
		/* a VM lab's: the DUT's kernel, and what its command line adds */
		{ .name = "kernel", .lists = true },
		{ .name = "cmdline", .lists = false },
	};

	memset(m, 0, sizeof(*m));
	memcpy(m->axes, axes, sizeof(axes));
	m->nconf = 1;
}

/* splitmix64: a seed's sequence, the same on every host. */
static uint64_t next_random(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int app_matrix_plan_schedule(int nconf, unsigned int rounds, bool interleave, enum app_matrix_order order,
			     uint64_t seed, struct app_matrix_step *out, int max, char *err, size_t errlen)
{
	int n = 0, perm[APP_MATRIX_MAX];
	uint64_t x = seed;

	if (nconf < 1 || nconf > APP_MATRIX_MAX || rounds < 1) {
		snprintf(err, errlen, "no configuration or no round");
		return -EINVAL;
	}
	if (!interleave || rounds == 1) {
		if (nconf + (nconf > 1) > max) {
			snprintf(err, errlen, "more than %d tests", max);
			return -EINVAL;
		}
		for (int c = 0; c < nconf; c++)
			out[n++] = (struct app_matrix_step){ .conf = c, .round = 1 };
		if (nconf > 1)
			out[n++] = (struct app_matrix_step){ .conf = 0, .round = 2, .drift_check = true };
		return n;
	}
	if ((long)nconf * rounds > max) {
		snprintf(err, errlen, "%d configurations x %u rounds: at most %d tests", nconf, rounds, max);
		return -EINVAL;
	}
	for (unsigned int r = 1; r <= rounds; r++) {
		for (int c = 0; c < nconf; c++)
			perm[c] = order == APP_MATRIX_ALTERNATE && !(r & 1) ? nconf - 1 - c : c;
		/* Fisher-Yates */
		for (int c = nconf - 1; order == APP_MATRIX_SHUFFLE && c > 0; c--) {
			int j = (int)(next_random(&x) % (uint64_t)(c + 1)), t = perm[c];

			perm[c] = perm[j];
			perm[j] = t;
		}
		for (int c = 0; c < nconf; c++)
			out[n++] = (struct app_matrix_step){ .conf = perm[c], .round = r };
	}
	return n;
}

int app_matrix_plan_axis(const struct app_matrix *m, const char *name)
{
	for (int k = 0; k < APP_MATRIX_NAXES; k++)
		if (!strcmp(name, m->axes[k].name))
			return k;
	return -1;
}

int app_matrix_plan_add(struct app_matrix *m, int k, char *v, char *err, size_t errlen)
{
	struct app_matrix_plan_axis *ax = k >= 0 && k < APP_MATRIX_NAXES ? &m->axes[k] : NULL;

	if (!ax) {
		snprintf(err, errlen, "no such axis");
		return -EINVAL;
	}
	if (ax->n == APP_MATRIX_VALUES_MAX) {
		snprintf(err, errlen, "at most %d values", APP_MATRIX_VALUES_MAX);
		return -EINVAL;
	}
	ax->v[ax->n++] = v;
	return 0;
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
		snprintf(err, errlen, "no axis has a value");
		return -ENOENT;
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

const char *app_matrix_plan_setting(const struct app_matrix *m, int c, int k)
{
	const char *v = app_matrix_plan_value(m, c, k);

	/* "none": the configuration without the setting (no extra kernel
	 * arguments, against some) */
	return v && !strcmp(v, "none") && !strcmp(m->axes[k].name, "cmdline") ? NULL : v;
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
		/* the same values twice (an A/A check: --rules 0,0): the label
		 * tells the configurations apart, for the report groups each
		 * one's rounds by it */
		for (int d = 0; d < c; d++)
			if (!strcmp(m->labels[d], l)) {
				len = strlen(l);
				snprintf(l + len, room - len, " (%d)", c + 1);
				break;
			}
		/* a run's label holds 63 characters: never two runs cut alike */
		if (strlen(l) > APP_MATRIX_LABEL_MAX) {
			snprintf(err, errlen, "the label of configuration %d would be longer than 63 characters ('%.70s'): "
				 "shorten --label or use fewer axes", c + 1, l);
			return -EINVAL;
		}
	}
	return 0;
}

int app_matrix_plan_check_remote(const struct app_matrix *m, int *axis)
{
	for (int k = 0; k < APP_MATRIX_NAXES; k++)
		if (m->axes[k].n && strcmp(m->axes[k].name, "placement") && strcmp(m->axes[k].name, "rules")) {
			*axis = k;
			return -EINVAL;
		}
	return 0;
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
