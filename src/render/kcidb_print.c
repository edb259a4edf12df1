/* Test points as a KCIDB I/O v5.3 document (render/kcidb_print.h).
 *
 * {"version":{"major":5,"minor":3},
 *  "checkouts":[{"id":"O:wirerate-kernel-6.12.1","origin":"O",
 *                "start_time":"...","misc":{"kernel_release":"6.12.1"}}],
 *  "builds":[{"id":"O:wirerate-kernel-6.12.1","origin":"O",
 *             "checkout_id":"O:wirerate-kernel-6.12.1","architecture":"x86_64",
 *             "misc":{"kernel_release":"6.12.1"}}],
 *  "tests":[{"id":"O:<run uuid>.1.wirerate.rfc2544.ndr.64","origin":"O",
 *            "build_id":"O:...","path":"wirerate.rfc2544.ndr.64","status":"PASS",
 *            "number":{"value":1234567,"unit":"frames/s"},"start_time":"...",
 *            "duration":12.5,"comment":"<the point's line>",
 *            "environment":{"comment":"<target>","misc":{"kernel":..,"config":..,
 *                           "target":..,"label":..,"test":..,"wirerate":<version>}},
 *            "misc":{"run_uuid":"..."}}, ...]}
 *
 * on one line. Only what is known is written: an empty string, a time
 * that is not RFC 3339, a duration below 0 and a figure that is not
 * finite (JSON has no NaN) are left out. The schema's "number" is for a
 * test that ran (PASS, FAIL, DONE, ERROR): a SKIP has none. UNSURE is
 * KCIDB's DONE, its comment "cannot tell: <line>" and its misc "unsure":
 * true. Every string goes through out_json_put_string (valid UTF-8, each
 * control escaped); ids, paths and the architecture are made of the
 * characters the schema's patterns allow. */
#include "render/kcidb_print.h"

#include "os/fs.h"
#include "render/out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* src into dst (cap bytes): ASCII letters and digits and the bytes of
 * keep stay (letters lowered when lower), every other byte is '_'. */
static void clean(char *dst, size_t cap, const char *src, const char *keep, bool lower)
{
	size_t w = 0;

	for (; *src && w + 1 < cap; src++) {
		char c = *src;

		if (c >= 'A' && c <= 'Z' && lower)
			c = (char)(c - 'A' + 'a');
		dst[w++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
					   (c && strchr(keep, c))
				   ? c
				   : '_';
	}
	dst[w] = '\0';
}

static bool digits(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* s is an RFC 3339 date-time (the schema's "date-time"):
 * YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM), each field in its range. */
static bool rfc3339_valid(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec, oh, om;

	if (strlen(s) < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
	    !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2, &h) || s[13] != ':' ||
	    !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60)
		return false;
	if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	s += 19;
	if (*s == '.') {
		if (s[1] < '0' || s[1] > '9')
			return false;
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	}
	if ((*s == 'Z' || *s == 'z') && !s[1])
		return true;
	return (*s == '+' || *s == '-') && digits(s + 1, 2, &oh) && s[3] == ':' && digits(s + 4, 2, &om) &&
	       !s[6] && oh <= 23 && om <= 59;
}

/* A JSON object's members, each after a comma but the first. */
static void key(FILE *f, bool *first, const char *k)
{
	if (!*first)
		fputc(',', f);
	*first = false;
	out_json_put_string(f, k);
	fputc(':', f);
}

/* "k":"v", nothing when v is empty. */
static void str(FILE *f, bool *first, const char *k, const char *v)
{
	if (!v || !*v)
		return;
	key(f, first, k);
	out_json_put_string(f, v);
}

/* A finite double in the fewest digits that read back as the same. */
static void num(FILE *f, bool *first, const char *k, double v)
{
	char b[40];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*g", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	key(f, first, k);
	fputs(b, f);
}

static void checkout(FILE *f, const struct testpoint_env *e, const char *origin, const char *id)
{
	bool first = true;

	fputc('{', f);
	str(f, &first, "id", id);
	str(f, &first, "origin", origin);
	if (rfc3339_valid(e->start_time))
		str(f, &first, "start_time", e->start_time);
	if (*e->kernel) {
		bool m = true;

		key(f, &first, "misc");
		fputc('{', f);
		str(f, &m, "kernel_release", e->kernel);
		fputc('}', f);
	}
	fputc('}', f);
}

static void build(FILE *f, const struct testpoint_env *e, const char *origin, const char *id, const char *checkout_id)
{
	char arch[sizeof(e->arch)];
	bool first = true;

	clean(arch, sizeof(arch), e->arch, "_", true);
	fputc('{', f);
	str(f, &first, "id", id);
	str(f, &first, "origin", origin);
	str(f, &first, "checkout_id", checkout_id);
	str(f, &first, "architecture", arch);
	if (*e->kernel || strcmp(arch, e->arch)) {
		bool m = true;

		key(f, &first, "misc");
		fputc('{', f);
		str(f, &m, "kernel_release", e->kernel);
		if (strcmp(arch, e->arch))
			str(f, &m, "machine", e->arch);	/* uname -m as it was */
		fputc('}', f);
	}
	fputc('}', f);
}

/* The test's environment: the target, and what the run was. */
static void environment(FILE *f, bool *first, const struct testpoint_env *e)
{
	bool env = true, m = true;

	if (!*e->kernel && !*e->config && !*e->target && !*e->label && !*e->test && !*e->version)
		return;
	key(f, first, "environment");
	fputc('{', f);
	str(f, &env, "comment", e->target);
	key(f, &env, "misc");
	fputc('{', f);
	str(f, &m, "kernel", e->kernel);
	str(f, &m, "config", e->config);
	str(f, &m, "target", e->target);
	str(f, &m, "label", e->label);
	str(f, &m, "test", e->test);
	str(f, &m, "wirerate", e->version);
	fputs("}}", f);
}

static void test(FILE *f, const struct testpoint_set *s, unsigned int i, const char *origin, const char *build_id,
		 char *id, size_t idlen)
{
	const struct testpoint *t = &s->p[i];
	char run[sizeof(s->env.run_uuid)], path[TESTPOINT_PATH_MAX], comment[TESTPOINT_LINE_MAX + 16];
	bool first = true;

	/* the path made valid again (the set may have been filled by hand):
	 * the same name as the KTAP writer's */
	memcpy(path, t->path, sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	testpoint_path_clean(path);
	if (!*path)
		strcpy(path, "wirerate");
	clean(run, sizeof(run), s->env.run_uuid, "-", false);
	snprintf(id, idlen, "%s:%s.%u.%s", origin, *run ? run : "wirerate", i + 1, path);
	if (t->status == TESTPOINT_UNSURE)
		snprintf(comment, sizeof(comment), "cannot tell%s%s", *t->line ? ": " : "", t->line);
	else
		snprintf(comment, sizeof(comment), "%s", t->line);

	fputc('{', f);
	str(f, &first, "id", id);
	str(f, &first, "origin", origin);
	str(f, &first, "build_id", build_id);
	str(f, &first, "path", path);
	str(f, &first, "status", testpoint_kcidb_status(t->status));
	if (t->have_value && isfinite(t->value) && t->status != TESTPOINT_SKIP) {
		bool n = true;

		key(f, &first, "number");
		fputc('{', f);
		num(f, &n, "value", t->value);
		str(f, &n, "unit", t->unit);
		fputc('}', f);
	}
	if (rfc3339_valid(s->env.start_time))
		str(f, &first, "start_time", s->env.start_time);
	if (t->duration_s >= 0 && isfinite(t->duration_s))
		num(f, &first, "duration", t->duration_s);
	str(f, &first, "comment", comment);
	environment(f, &first, &s->env);
	if (*s->env.run_uuid || t->status == TESTPOINT_UNSURE) {
		bool m = true;

		key(f, &first, "misc");
		fputc('{', f);
		str(f, &m, "run_uuid", s->env.run_uuid);
		if (t->status == TESTPOINT_UNSURE) {
			key(f, &m, "unsure");
			fputs("true", f);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

int kcidb_print(FILE *f, const struct testpoint_set *s, const struct kcidb_ids *ids)
{
	const char *checkout_id, *build_id;
	char kernel[sizeof(s->env.kernel)], *made, *id;
	size_t olen, made_len, id_len;

	if (!f || !s || !ids || (s->n && !s->p) || !testpoint_origin_ok(ids->origin))
		return -EINVAL;
	olen = strlen(ids->origin);
	made_len = olen + sizeof(":wirerate-kernel-") + sizeof(kernel) + sizeof("unknown");
	id_len = olen + sizeof(s->env.run_uuid) + TESTPOINT_PATH_MAX + 16;
	made = malloc(made_len);
	id = malloc(id_len);
	if (!made || !id) {
		free(made);
		free(id);
		return -ENOMEM;
	}
	clean(kernel, sizeof(kernel), s->env.kernel, "._+-", false);
	snprintf(made, made_len, "%s:wirerate-kernel-%s", ids->origin, *kernel ? kernel : "unknown");
	checkout_id = ids->checkout_id && *ids->checkout_id ? ids->checkout_id : made;
	build_id = ids->build_id && *ids->build_id ? ids->build_id : made;

	errno = 0;
	fputs("{\"version\":{\"major\":5,\"minor\":3},\"checkouts\":[", f);
	checkout(f, &s->env, ids->origin, checkout_id);
	fputs("],\"builds\":[", f);
	build(f, &s->env, ids->origin, build_id, checkout_id);
	fputs("],\"tests\":[", f);
	for (unsigned int i = 0; i < s->n; i++) {
		if (i)
			fputc(',', f);
		test(f, s, i, ids->origin, build_id, id, id_len);
	}
	fputs("]}\n", f);
	free(made);
	free(id);
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}

int kcidb_print_file(const char *path, const struct testpoint_set *s, const struct kcidb_ids *ids, char *err,
		     size_t errlen)
{
	struct fs_out o;
	int rc, rc2;

	if ((rc = fs_out_open(&o, path))) {
		snprintf(err, errlen, "--kcidb %s: %s", path, strerror(-rc));
		return rc;
	}
	rc = kcidb_print(o.f, s, ids);
	rc2 = fs_out_close(&o, !rc);
	if (!rc && rc2)
		rc = rc2;
	if (rc)
		snprintf(err, errlen, "--kcidb %s: %s", path, strerror(-rc));
	return rc;
}
