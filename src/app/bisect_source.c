#include "app/bisect_source.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bisect_run.h"
#include "os/command.h"
#include "os/fs.h"

int app_bisect_source_git(const char *tree, const char *const *args, char **out, char *err, size_t errlen)
{
	char tmp[] = "/tmp/wirerate-git.XXXXXX", *argv[32];
	int fd = mkstemp(tmp), a = 0, st;
	long n;

	if (out)
		*out = NULL;
	if (fd < 0) {
		snprintf(err, errlen, "a temporary file: %s", strerror(errno));
		return -errno;
	}
	close(fd);
	argv[a++] = "git";
	argv[a++] = "-C";
	argv[a++] = (char *)tree;
	for (int i = 0; args[i] && a < 31; i++)
		argv[a++] = (char *)args[i];
	argv[a] = NULL;
	st = command_run(argv, NULL, tmp, BISECTSRC_GIT_TIMEOUT_MS, NULL, err, errlen);
	if (st == -ENOENT)
		snprintf(err, errlen, "git is not installed (Debian: apt-get install git)");
	if (st >= 0 && out) {
		size_t cap = 1 << 16;
		char *buf = malloc(cap);
		FILE *f = fopen(tmp, "r");

		n = 0;
		while (buf && f) {
			size_t r = fread(buf + n, 1, cap - (size_t)n - 1, f);

			n += (long)r;
			if (r == 0)
				break;
			if ((size_t)n + 1 == cap) {
				char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;

				if (!nb)
					break;
				buf = nb;
				cap *= 2;
			}
		}
		if (f)
			fclose(f);
		if (buf)
			buf[n] = '\0';
		*out = buf;
		if (!buf)
			st = -ENOMEM;
	}
	unlink(tmp);
	return st;
}

/* git's one line of output, its newline cut, for an error. */
static void first_line(const char *s, char *out, size_t len)
{
	size_t n = s ? strcspn(s, "\n") : 0;

	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), s ? s : "");
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
}

int app_bisect_source_checkout(const char *tree, const char *rev, char *err, size_t errlen)
{
	const char *args[] = { "-c", "advice.detachedHead=false", "checkout", "-q", rev, "--", NULL };
	char *out = NULL;
	int st = app_bisect_source_git(tree, args, &out, err, errlen);

	if (st > 0) {
		first_line(out, err, errlen);
		st = -EIO;
	}
	free(out);
	return st;
}

int app_bisect_source_head(const char *tree, char *out, size_t len, char *err, size_t errlen)
{
	const char *branch[] = { "symbolic-ref", "-q", "--short", "HEAD", NULL };
	const char *commit[] = { "rev-parse", "--verify", "HEAD", NULL };
	char *o = NULL;
	int st = app_bisect_source_git(tree, branch, &o, err, errlen);

	if (st > 0) {
		free(o);
		o = NULL;
		st = app_bisect_source_git(tree, commit, &o, err, errlen);
	}
	if (st > 0) {
		first_line(o, err, errlen);
		st = -EINVAL;
	}
	if (!st)
		first_line(o, out, len);
	free(o);
	return st;
}

int app_bisect_source_dirty(const char *tree, char *err, size_t errlen)
{
	const char *args[] = { "status", "--porcelain", "--untracked-files=no", NULL };
	char *o = NULL;
	int st = app_bisect_source_git(tree, args, &o, err, errlen);

	if (st > 0) {
		first_line(o, err, errlen);
		st = -EINVAL;
	} else if (!st)
		st = o && *o ? 1 : 0;
	free(o);
	return st;
}

int app_bisect_source_tree(char *tree, size_t len, char *err, size_t errlen)
{
	char real[PATH_MAX], why[512];
	int rc;

	if (!realpath(tree, real)) {
		snprintf(err, errlen, "--tree %.200s: %s", tree, strerror(errno));
		return -EINVAL;
	}
	if (strlen(real) >= len) {
		snprintf(err, errlen, "--tree: a path too long");
		return -EINVAL;
	}
	snprintf(tree, len, "%s", real);
	if ((rc = app_bisect_source_dirty(tree, why, sizeof(why))) < 0) {
		snprintf(err, errlen, "--tree %.200s is not a git work tree: %s", tree, why);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "--tree %.200s has uncommitted changes: commit or stash them first "
			 "(each candidate is checked out)", tree);
		return -EINVAL;
	}
	return 0;
}

void app_bisect_source_kernel(const struct app_bisect *b, size_t i, char *kernel, size_t klen, char *modules,
			      size_t mlen)
{
	const struct app_bisect_spec *s = &b->spec;

	kernel[0] = modules[0] = '\0';
	if (s->kernels[0])
		snprintf(kernel, klen, "%s", b->c[i].id);
	else if (s->boot[0])
		snprintf(kernel, klen, "%.2048s/%.2048s", s->tree, s->boot);
	if (kernel[0] && s->modules[0])
		snprintf(modules, mlen, "%.2048s/%.2048s", s->tree, s->modules);
}

/* rev as a full commit hash: 0, or -EINVAL with err. */
static int resolve(const char *tree, const char *what, const char *rev, char *full, size_t len, char *err,
		   size_t errlen)
{
	char spec[256], line[200];
	const char *args[] = { "rev-parse", "--verify", "-q", spec, NULL };
	char *o = NULL;
	int st;

	if (rev[0] == '-') {
		snprintf(err, errlen, "--%s: '%.64s' is not a commit", what, rev);
		return -EINVAL;
	}
	snprintf(spec, sizeof(spec), "%.200s^{commit}", rev);
	st = app_bisect_source_git(tree, args, &o, err, errlen);
	if (st > 0) {
		snprintf(err, errlen, "--%s: '%.64s' is not a commit in %.200s", what, rev, tree);
		st = -EINVAL;
	} else if (!st) {
		first_line(o, line, sizeof(line));
		snprintf(full, len, "%.71s", line);
		if (strlen(full) < 40) {
			snprintf(err, errlen, "--%s: git said '%.64s'", what, line);
			st = -EINVAL;
		}
	}
	free(o);
	return st;
}

static int grow(struct app_bisect *b, size_t n)
{
	struct app_bisect_cand *c = calloc(n, sizeof(*c));
	enum bisect_mark *m = calloc(n, sizeof(*m));

	if (!c || !m) {
		free(c);
		free(m);
		return -ENOMEM;
	}
	for (size_t i = 0; b->c && i < b->n; i++) {
		free(b->c[i].v);
		free(b->c[i].m);
	}
	free(b->c);
	free(b->marks);
	b->c = c;
	b->marks = m;
	b->n = n;
	return 0;
}

static int from_kernels(struct app_bisect *b, char *err, size_t errlen)
{
	char *copy = strdup(b->spec.kernels), *save = NULL;
	size_t n = 1;
	int rc;

	if (!copy)
		return -ENOMEM;
	for (const char *p = copy; *p; p++)
		n += *p == ',';
	if (n < 2) {
		snprintf(err, errlen, "--kernels: at least two, the good one first and the bad one last");
		free(copy);
		return -EINVAL;
	}
	if ((rc = grow(b, n))) {
		free(copy);
		return rc;
	}
	n = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		if (strlen(w) >= sizeof(b->c[0].id)) {
			snprintf(err, errlen, "--kernels: '%.40s...' is too long", w);
			rc = -EINVAL;
			break;
		}
		for (size_t k = 0; k < n; k++)
			if (!strcmp(b->c[k].id, w)) {
				snprintf(err, errlen, "--kernels: '%s' is given twice", w);
				rc = -EINVAL;
			}
		snprintf(b->c[n].id, sizeof(b->c[n].id), "%s", w);
		snprintf(b->c[n].shown, sizeof(b->c[n].shown), "%.47s", w);
		n++;
	}
	free(copy);
	if (!rc && n != b->n) {
		snprintf(err, errlen, "--kernels: an empty name in the list");
		rc = -EINVAL;
	}
	return rc;
}

/* One candidate from git log's "%H %h %s" line. */
static void cand_of(struct app_bisect_cand *c, const char *line, size_t len)
{
	const char *sp = memchr(line, ' ', len);
	size_t hl = sp ? (size_t)(sp - line) : len;

	snprintf(c->id, sizeof(c->id), "%.*s", (int)(hl < 64 ? hl : 64), line);
	snprintf(c->shown, sizeof(c->shown), "%.*s", (int)(sp ? len - hl - 1 : 0), sp ? sp + 1 : "");
	for (char *p = c->shown; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
}

static int from_git(struct app_bisect *b, char *err, size_t errlen)
{
	struct app_bisect_spec *s = &b->spec;
	char good[72], bad[72], range[160];
	const char *anc[] = { "merge-base", "--is-ancestor", good, bad, NULL };
	const char *log1[] = { "log", "-1", "--format=%H %h %s", good, "--", NULL };
	const char *logr[] = { "log", "--reverse", "--ancestry-path", "--format=%H %h %s", range, "--", NULL };
	char *o1 = NULL, *or = NULL;
	size_t n = 1;
	int rc, st;

	if ((rc = resolve(s->tree, "good", s->good, good, sizeof(good), err, errlen)) ||
	    (rc = resolve(s->tree, "bad", s->bad, bad, sizeof(bad), err, errlen)))
		return rc;
	if (!strcmp(good, bad)) {
		snprintf(err, errlen, "--good and --bad are the same commit (%.12s)", good);
		return -EINVAL;
	}
	if ((st = app_bisect_source_git(s->tree, anc, NULL, err, errlen)) < 0)
		return st;
	if (st) {
		snprintf(err, errlen, "--good %.12s is not an ancestor of --bad %.12s: not one line of history",
			 good, bad);
		return -EINVAL;
	}
	snprintf(range, sizeof(range), "%s..%s", good, bad);
	if ((st = app_bisect_source_git(s->tree, log1, &o1, err, errlen)) ||
	    (st = app_bisect_source_git(s->tree, logr, &or, err, errlen))) {
		if (st > 0) {
			snprintf(err, errlen, "git log failed in %.200s", s->tree);
			st = -EIO;
		}
		free(o1);
		free(or);
		return st;
	}
	for (const char *p = or; *p; p++)
		n += *p == '\n';
	if (n > BISECT_MAX_CANDIDATES)
		rc = -E2BIG;
	if (!rc)
		rc = grow(b, n);
	if (!rc) {
		size_t k = 0;

		cand_of(&b->c[k++], o1, strcspn(o1, "\n"));
		for (const char *p = or; *p && k < n;) {
			size_t l = strcspn(p, "\n");

			if (l >= 40)
				cand_of(&b->c[k++], p, l);
			p += l + (p[l] == '\n');
		}
		b->n = k;
		if (k < 2 || strcmp(b->c[k - 1].id, bad)) {
			snprintf(err, errlen, "git log of %.12s..%.12s did not end at --bad", good, bad);
			rc = -EIO;
		}
	} else if (rc == -E2BIG) {
		snprintf(err, errlen, "more than %d commits between --good and --bad", BISECT_MAX_CANDIDATES);
		rc = -EINVAL;
	}
	free(o1);
	free(or);
	return rc;
}

int app_bisect_source_candidates(struct app_bisect *b, char *err, size_t errlen)
{
	return b->spec.tree[0] ? from_git(b, err, errlen) : from_kernels(b, err, errlen);
}
