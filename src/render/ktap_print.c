/* Test points as kselftest KTAP (render/ktap_print.h).
 *
 * The form is kselftest.h's, line for line:
 *
 *   TAP version 13
 *   # wirerate rfc2544 throughput on lab wr-: kernel 6.12.1, placement=bound
 *   # run 0f1e..., label nightly, started 2026-12-07T23:41:10+00:00
 *   1..4
 *   # wirerate.rfc2544.ndr.64: 1234567 frames/s; 2% above the baseline
 *   ok 1 wirerate.rfc2544.ndr.64
 *   # wirerate.rfc2544.ndr.128: 812345 frames/s; 9% below the baseline
 *   not ok 2 wirerate.rfc2544.ndr.128
 *   # wirerate.endpoint.send: no value; no AF_XDP here
 *   ok 3 wirerate.endpoint.send # SKIP no AF_XDP here
 *   # wirerate.trial.fwd: 1.5 %; noise 3% > threshold 2%
 *   ok 4 wirerate.trial.fwd # SKIP cannot tell: noise 3% > threshold 2%
 *   # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:2 error:0
 *
 * and no point is kselftest's whole-test skip, "1..0 # SKIP no test
 * points", without Totals (ksft_exit_skip's form).
 *
 * What the kernel's parser (kunit.py parse, tools/testing/kunit/
 * kunit_parser.py, Linux 6.12) required, checked against it
 * (tests/ktap_check.sh):
 * - "TAP version 13" is taken as it is (TAP 13 and 14, KTAP 1), so the
 *   header stays kselftest's; the "# Totals" line after the last result
 *   is ignored, not an error.
 * - Diagnostic lines go before the result line they are about: the
 *   parser gives the lines before a result to that test (and prints them
 *   when it fails), as Documentation/dev-tools/ktap.rst asks. The
 *   environment's lines therefore come before the plan: after it they
 *   would be taken as the first point's.
 * - A result line's name is "[^#]*" and must not be empty ("ok 1" alone,
 *   after its trailing spaces are cut, is not a result): an empty path is
 *   printed as "wirerate". A directive's text may hold '#'.
 * - It reads the file with Python's splitlines(), which ends a line at
 *   U+0085, U+2028 and U+2029 as well as at \n, \r, \v, \f and \x1c-\x1e:
 *   all of them become a space here, as every C0 and C1 control and DEL
 *   do, and a byte that is not UTF-8 becomes '?'.
 * - It stops reading at "List of all partitions:", "Kernel panic - not
 *   syncing: VFS:" or "reboot: System halted" anywhere in a line (the end
 *   of a kernel's console): their first ':' is written ';'.
 * - A diagnostic line "# Subtest: ..." opens a nested test: a point
 *   whose path is "Subtest" is written "# Subtest; ...".
 * - "1..0" is reported as an error ("0 tests run!"); kselftest's form is
 *   kept for no point all the same, and the check accepts it only when no
 *   test at all was expected. */
#include "render/ktap_print.h"
#include "render/out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

/* The console lines after which kunit.py stops reading (KTAP_END). */
static const char *const console_end[] = {
	"List of all partitions:",
	"Kernel panic - not syncing: VFS:",
	"reboot: System halted",
};

/* One line of output, put together before it is written: the rules hold
 * for the whole line, whatever parts its strings came from. */
struct line {
	char b[1024];
	size_t n;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		l->n += (size_t)r < sizeof(l->b) - l->n ? (size_t)r : sizeof(l->b) - l->n - 1;
}

/* The line and its newline into f, made such that nothing in it can end
 * the line, start another or stop a parser (the comment at the top). */
static void emit(FILE *f, struct line *l)
{
	const unsigned char *p = (const unsigned char *)l->b;
	char out[sizeof(l->b)];
	size_t w = 0;

	for (size_t i = 0, len; i < l->n; i += len) {
		len = out_utf8_len(p + i, l->n - i);
		if (len == 0) {
			out[w++] = '?';
			len = 1;
		} else if (len == 1) {
			out[w++] = p[i] < 0x20 || p[i] == 0x7f ? ' ' : (char)p[i];
		} else if ((len == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) ||
			   (len == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9))) {
			out[w++] = ' ';	/* C1 control, U+2028, U+2029 */
		} else {
			memcpy(out + w, p + i, len);
			w += len;
		}
	}
	out[w] = '\0';
	for (size_t k = 0; k < sizeof(console_end) / sizeof(console_end[0]); k++) {
		char *at;

		while ((at = strstr(out, console_end[k])))
			*strchr(at, ':') = ';';
	}
	if (strncmp(out, "# Subtest:", 10) == 0)
		out[9] = ';';	/* not a nested test's header */
	fwrite(out, 1, w, f);
	fputc('\n', f);
	l->n = 0;
	l->b[0] = '\0';
}

/* The point's name: its path made valid again (the set may have been
 * filled by hand), "wirerate" when nothing is left. */
static const char *name_of(const struct testpoint *t, char *buf)
{
	memcpy(buf, t->path, TESTPOINT_PATH_MAX - 1);
	buf[TESTPOINT_PATH_MAX - 1] = '\0';
	testpoint_path_clean(buf);
	return *buf ? buf : "wirerate";
}

/* ", <word><v>" when v is not empty, without the comma first after "# ". */
static void part(struct line *l, const char *word, const char *v)
{
	if (*v)
		add(l, "%s%s%s", l->n > 2 ? ", " : "", word, v);
}

/* The environment's one or two diagnostic lines, only what is known. */
static void env_lines(FILE *f, const struct testpoint_env *e)
{
	struct line l = { .n = 0 };

	if (*e->test || *e->target || *e->kernel || *e->config) {
		add(&l, "# wirerate");
		if (*e->test)
			add(&l, " %s", e->test);
		if (*e->target)
			add(&l, " on %s", e->target);
		if (*e->kernel)
			add(&l, ": kernel %s", e->kernel);
		if (*e->config)
			add(&l, "%s%s", *e->kernel ? ", " : ": ", e->config);
		emit(f, &l);
	}
	if (*e->run_uuid || *e->label || *e->start_time || *e->arch || *e->version) {
		add(&l, "# ");
		part(&l, "run ", e->run_uuid);
		part(&l, "label ", e->label);
		part(&l, "started ", e->start_time);
		part(&l, "arch ", e->arch);
		part(&l, "wirerate ", e->version);
		emit(f, &l);
	}
}

/* "# name: figure unit; line" just before the point's result. */
static void point_line(FILE *f, const struct testpoint *t, const char *name)
{
	struct line l = { .n = 0 };

	add(&l, "# %s: ", name);
	if (t->have_value && isfinite(t->value)) {
		double a = fabs(t->value);

		/* whole frames/s and bits/s in full, no exponent */
		if (a >= 1e5 && a < 1e15)
			add(&l, "%.0f", t->value);
		else
			add(&l, "%.6g", t->value);
		if (*t->unit)
			add(&l, " %s", t->unit);
	} else {
		add(&l, "no value");
	}
	if (*t->line)
		add(&l, "; %s", t->line);
	emit(f, &l);
}

static void result_line(FILE *f, unsigned int num, const struct testpoint *t, const char *name)
{
	struct line l = { .n = 0 };
	bool ok = t->status != TESTPOINT_FAIL && t->status != TESTPOINT_ERROR;

	add(&l, "%s %u %s", ok ? "ok" : "not ok", num, name);
	if (t->status == TESTPOINT_SKIP)
		add(&l, " # SKIP%s%s", *t->line ? " " : "", t->line);
	else if (t->status == TESTPOINT_UNSURE)
		add(&l, " # SKIP cannot tell%s%s", *t->line ? ": " : "", t->line);
	emit(f, &l);
}

int ktap_print(FILE *f, const struct testpoint_set *s)
{
	struct testpoint_counts c;

	if (!f || !s || (s->n && !s->p))
		return -EINVAL;
	errno = 0;
	fputs("TAP version 13\n", f);
	env_lines(f, &s->env);
	if (s->n == 0) {
		fputs("1..0 # SKIP no test points\n", f);
	} else {
		fprintf(f, "1..%u\n", s->n);
		for (unsigned int i = 0; i < s->n; i++) {
			char buf[TESTPOINT_PATH_MAX];
			const char *name = name_of(&s->p[i], buf);

			point_line(f, &s->p[i], name);
			result_line(f, i + 1, &s->p[i], name);
		}
		c = testpoint_count(s);
		fprintf(f, "# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:%u\n", c.pass + c.done, c.fail,
			c.skip + c.unsure, c.error);
	}
	if (fflush(f) || ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}

int ktap_print_stdout(const struct testpoint_set *s)
{
	int rc = ktap_print(stdout, s);

	if (!rc && fflush(stdout))
		rc = -errno;
	return rc;
}
