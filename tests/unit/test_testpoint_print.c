/* Test points (core/testpoint.c) and their two writers: the exact KTAP
 * text (render/ktap_print.c) for each status and for hostile strings,
 * the KCIDB document (render/kcidb_print.c) read back with json-c, and
 * the origins it refuses.
 *
 * With WR_TESTPOINT_OUT=DIR, the sample set's KTAP and KCIDB documents
 * are also written to DIR/testpoint.ktap and DIR/testpoint.json (and the
 * hostile set's to DIR/hostile.*), for tests/ktap_check.sh and
 * tests/kcidb_check.py. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "core/testpoint.h"
#include "render/kcidb_print.h"
#include "render/ktap_print.h"

#define UUID "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"

static void path_is(const char *in, const char *want)
{
	char buf[TESTPOINT_PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", in);
	testpoint_path_clean(buf);
	assert_string_equal(buf, want);
}

static void test_path_clean(void **state)
{
	(void)state;
	path_is("a..b", "a.b");
	path_is(".a.", "a");
	path_is("x y", "x_y");
	path_is("", "");
	path_is("wirerate.ndr.64", "wirerate.ndr.64");
	path_is("...", "");
	path_is("a#b.c/d\n", "a_b.c_d_");
	path_is("w.rfc2544-x_1", "w.rfc2544-x_1");
}

static struct testpoint *add(struct testpoint_set *s, enum testpoint_status st, const char *path, bool have,
			     double v, const char *unit, const char *line)
{
	struct testpoint *t = testpoint_add(s, st, "%s", path);

	assert_non_null(t);
	t->have_value = have;
	t->value = v;
	snprintf(t->unit, sizeof(t->unit), "%s", unit);
	snprintf(t->line, sizeof(t->line), "%s", line);
	return t;
}

/* One point of each status, a line with a newline and a carriage return,
 * a config with a newline. */
static void sample(struct testpoint_set *s)
{
	struct testpoint_env *e = &s->env;

	memset(s, 0, sizeof(*s));
	snprintf(e->run_uuid, sizeof(e->run_uuid), UUID);
	snprintf(e->start_time, sizeof(e->start_time), "2026-12-07T23:41:10+00:00");
	snprintf(e->label, sizeof(e->label), "nightly");
	snprintf(e->test, sizeof(e->test), "rfc2544 throughput");
	snprintf(e->kernel, sizeof(e->kernel), "6.12.1-amd64");
	snprintf(e->config, sizeof(e->config), "placement=bound\nrules=0");
	snprintf(e->target, sizeof(e->target), "lab wr-");
	snprintf(e->arch, sizeof(e->arch), "x86_64");
	snprintf(e->version, sizeof(e->version), "1.4.0");
	add(s, TESTPOINT_PASS, "wirerate.rfc2544.ndr.64", true, 1234567.25, "frames/s", "2% above the baseline")
		->duration_s = 12.5;
	add(s, TESTPOINT_FAIL, "wirerate.rfc2544.ndr.128", true, 812345, "frames/s", "9% below\nthe baseline\r");
	add(s, TESTPOINT_SKIP, "wirerate.endpoint.send", false, 0, "", "no AF_XDP here");
	add(s, TESTPOINT_UNSURE, "wirerate.trial.fwd", true, 1.5, "%", "noise 3% > threshold 2%");
	add(s, TESTPOINT_DONE, "wirerate.stream.rate", true, 941.2, "Mbit/s", "");
	add(s, TESTPOINT_ERROR, "wirerate.trial.lat", false, 0, "ns", "the DUT # did not answer");
}

static const char sample_ktap[] =
	"TAP version 13\n"
	"# wirerate rfc2544 throughput on lab wr-: kernel 6.12.1-amd64, placement=bound rules=0\n"
	"# run " UUID ", label nightly, started 2026-12-07T23:41:10+00:00, arch x86_64, wirerate 1.4.0\n"
	"1..6\n"
	"# wirerate.rfc2544.ndr.64: 1234567 frames/s; 2% above the baseline\n"
	"ok 1 wirerate.rfc2544.ndr.64\n"
	"# wirerate.rfc2544.ndr.128: 812345 frames/s; 9% below the baseline \n"
	"not ok 2 wirerate.rfc2544.ndr.128\n"
	"# wirerate.endpoint.send: no value; no AF_XDP here\n"
	"ok 3 wirerate.endpoint.send # SKIP no AF_XDP here\n"
	"# wirerate.trial.fwd: 1.5 %; noise 3% > threshold 2%\n"
	"ok 4 wirerate.trial.fwd # SKIP cannot tell: noise 3% > threshold 2%\n"
	"# wirerate.stream.rate: 941.2 Mbit/s\n"
	"ok 5 wirerate.stream.rate\n"
	"# wirerate.trial.lat: no value; the DUT # did not answer\n"
	"not ok 6 wirerate.trial.lat\n"
	"# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:2 error:1\n";

/* Strings that would end a line, start one, open a nested test or stop
 * kunit.py's reading, and bytes that are not UTF-8. */
static void hostile(struct testpoint_set *s)
{
	struct testpoint *t;

	memset(s, 0, sizeof(*s));
	snprintf(s->env.test, sizeof(s->env.test), "trial\nok 9 forged");
	snprintf(s->env.target, sizeof(s->env.target), "List of all partitions");
	snprintf(s->env.kernel, sizeof(s->env.kernel), "6.1\xc2\x85ok 1 x");
	snprintf(s->env.label, sizeof(s->env.label), "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\xff" "\x1b[0m");
	snprintf(s->env.start_time, sizeof(s->env.start_time), "yesterday");
	snprintf(s->env.arch, sizeof(s->env.arch), "X86-64");
	add(s, TESTPOINT_PASS, "Subtest", false, 0, "", "");
	add(s, TESTPOINT_SKIP, "wirerate.reboot", false, 0, "", "reboot:\vSystem halted\f\x1c");
	add(s, TESTPOINT_FAIL, "wirerate.panic", true, NAN, "x", "Kernel panic - not syncing: VFS: # SKIP");
	/* filled by hand: a path the writers must make valid again */
	t = add(s, TESTPOINT_DONE, "x", true, INFINITY, "", "");
	snprintf(t->path, sizeof(t->path), "..a b#c..");
	t->duration_s = NAN;
	t = add(s, TESTPOINT_UNSURE, "x", true, -0.1, "\n", "");
	t->path[0] = '\0';
}

static const char hostile_ktap[] =
	"TAP version 13\n"
	"# wirerate trial ok 9 forged on List of all partitions; kernel 6.1 ok 1 x\n"
	"# label a b c? [0m, started yesterday, arch X86-64\n"
	"1..5\n"
	"# Subtest; no value\n"
	"ok 1 Subtest\n"
	"# wirerate.reboot: no value; reboot; System halted  \n"
	"ok 2 wirerate.reboot # SKIP reboot; System halted  \n"
	"# wirerate.panic: no value; Kernel panic - not syncing; VFS: # SKIP\n"
	"not ok 3 wirerate.panic\n"
	"# a_b_c: no value\n"
	"ok 4 a_b_c\n"
	"# wirerate: -0.1  \n"
	"ok 5 wirerate # SKIP cannot tell\n"
	"# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:2 error:0\n";

/* What a writer printed, NUL terminated; the caller frees it. */
static char *ktap_of(const struct testpoint_set *s, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = ktap_print(f, s);
	fclose(f);
	return buf;
}

static char *kcidb_of(const struct testpoint_set *s, const struct kcidb_ids *ids, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = kcidb_print(f, s, ids);
	fclose(f);
	return buf;
}

/* WR_TESTPOINT_OUT/<name>: the sample files for the scripts. */
static void save(const char *name, const char *text)
{
	const char *dir = getenv("WR_TESTPOINT_OUT");
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_ktap_sample(void **state)
{
	struct testpoint_set s;
	struct testpoint_counts c;
	char *got;
	int rc;

	(void)state;
	sample(&s);
	c = testpoint_count(&s);
	assert_int_equal(c.pass + c.fail + c.skip + c.done + c.unsure + c.error, 6);
	assert_int_equal(c.unsure, 1);
	got = ktap_of(&s, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, sample_ktap);
	save("testpoint.ktap", got);
	free(got);
	testpoint_set_free(&s);
}

static void test_ktap_hostile(void **state)
{
	struct testpoint_set s;
	char *got;
	int rc;

	(void)state;
	hostile(&s);
	got = ktap_of(&s, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, hostile_ktap);
	save("hostile.ktap", got);
	free(got);
	testpoint_set_free(&s);
}

static void test_ktap_empty(void **state)
{
	struct testpoint_set s;
	char *got;
	int rc;

	(void)state;
	memset(&s, 0, sizeof(s));
	got = ktap_of(&s, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "TAP version 13\n1..0 # SKIP no test points\n");
	save("empty.ktap", got);
	free(got);
	snprintf(s.env.kernel, sizeof(s.env.kernel), "6.12.1");
	got = ktap_of(&s, &rc);
	assert_string_equal(got, "TAP version 13\n# wirerate: kernel 6.12.1\n1..0 # SKIP no test points\n");
	free(got);
	assert_int_equal(ktap_print(stdout, NULL), -EINVAL);
}

/* A full disk: the failed write is said. */
static void test_write_fails(void **state)
{
	struct kcidb_ids ids = { .origin = "wr" };
	struct testpoint_set s;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	sample(&s);
	assert_int_equal(ktap_print(f, &s), -ENOSPC);
	clearerr(f);
	assert_int_equal(kcidb_print(f, &s, &ids), -ENOSPC);
	fclose(f);
	testpoint_set_free(&s);
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

static const char *sget(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}

static json_object *parse(const char *text)
{
	json_object *doc;

	/* one line, the newline last */
	assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1);
	doc = json_tokener_parse(text);
	assert_non_null(doc);
	return doc;
}

static void test_kcidb_sample(void **state)
{
	struct kcidb_ids ids = { .origin = "wr_ci" };
	json_object *doc, *v, *c, *b, *tests, *t, *env, *num;
	struct testpoint_set s;
	char *got;
	int rc;

	(void)state;
	sample(&s);
	got = kcidb_of(&s, &ids, &rc);
	assert_int_equal(rc, 0);
	save("testpoint.json", got);
	doc = parse(got);
	v = get(doc, "version");
	assert_int_equal(json_object_get_int(get(v, "major")), 5);
	assert_int_equal(json_object_get_int(get(v, "minor")), 3);

	assert_int_equal(json_object_array_length(get(doc, "checkouts")), 1);
	c = json_object_array_get_idx(get(doc, "checkouts"), 0);
	assert_string_equal(sget(c, "id"), "wr_ci:wirerate-kernel-6.12.1-amd64");
	assert_string_equal(sget(c, "origin"), "wr_ci");
	assert_string_equal(sget(c, "start_time"), "2026-12-07T23:41:10+00:00");
	assert_string_equal(sget(get(c, "misc"), "kernel_release"), "6.12.1-amd64");

	assert_int_equal(json_object_array_length(get(doc, "builds")), 1);
	b = json_object_array_get_idx(get(doc, "builds"), 0);
	assert_string_equal(sget(b, "id"), "wr_ci:wirerate-kernel-6.12.1-amd64");
	assert_string_equal(sget(b, "checkout_id"), "wr_ci:wirerate-kernel-6.12.1-amd64");
	assert_string_equal(sget(b, "architecture"), "x86_64");

	tests = get(doc, "tests");
	assert_int_equal(json_object_array_length(tests), 6);
	t = json_object_array_get_idx(tests, 0);
	assert_string_equal(sget(t, "id"), "wr_ci:" UUID ".1.wirerate.rfc2544.ndr.64");
	assert_string_equal(sget(t, "origin"), "wr_ci");
	assert_string_equal(sget(t, "build_id"), "wr_ci:wirerate-kernel-6.12.1-amd64");
	assert_string_equal(sget(t, "path"), "wirerate.rfc2544.ndr.64");
	assert_string_equal(sget(t, "status"), "PASS");
	num = get(t, "number");
	assert_true(json_object_get_double(get(num, "value")) == 1234567.25);
	assert_string_equal(sget(num, "unit"), "frames/s");
	assert_true(json_object_get_double(get(t, "duration")) == 12.5);
	assert_string_equal(sget(t, "start_time"), "2026-12-07T23:41:10+00:00");
	assert_string_equal(sget(t, "comment"), "2% above the baseline");
	env = get(t, "environment");
	assert_string_equal(sget(env, "comment"), "lab wr-");
	assert_string_equal(sget(get(env, "misc"), "config"), "placement=bound\nrules=0");
	assert_string_equal(sget(get(env, "misc"), "kernel"), "6.12.1-amd64");
	assert_string_equal(sget(get(env, "misc"), "wirerate"), "1.4.0");
	assert_string_equal(sget(get(env, "misc"), "test"), "rfc2544 throughput");
	assert_string_equal(sget(get(t, "misc"), "run_uuid"), UUID);

	t = json_object_array_get_idx(tests, 1);
	assert_string_equal(sget(t, "status"), "FAIL");
	assert_string_equal(sget(t, "comment"), "9% below\nthe baseline\r");
	assert_true(json_object_get_double(get(get(t, "number"), "value")) == 812345);
	assert_null(get(t, "duration"));

	t = json_object_array_get_idx(tests, 2);
	assert_string_equal(sget(t, "status"), "SKIP");
	assert_null(get(t, "number"));

	t = json_object_array_get_idx(tests, 3);
	assert_string_equal(sget(t, "status"), "DONE");
	assert_string_equal(sget(t, "comment"), "cannot tell: noise 3% > threshold 2%");
	assert_true(json_object_get_boolean(get(get(t, "misc"), "unsure")));
	assert_string_equal(sget(get(t, "number"), "unit"), "%");

	t = json_object_array_get_idx(tests, 4);
	assert_string_equal(sget(t, "id"), "wr_ci:" UUID ".5.wirerate.stream.rate");
	assert_string_equal(sget(t, "status"), "DONE");
	assert_null(get(t, "comment"));
	assert_true(json_object_get_double(get(get(t, "number"), "value")) == 941.2);

	t = json_object_array_get_idx(tests, 5);
	assert_string_equal(sget(t, "status"), "ERROR");
	assert_null(get(t, "number"));
	json_object_put(doc);
	free(got);

	/* the submitter's own ids, used as they are */
	ids.checkout_id = "wr_ci:checkout 1";
	ids.build_id = "wr_ci:build/1";
	got = kcidb_of(&s, &ids, &rc);
	assert_int_equal(rc, 0);
	doc = parse(got);
	c = json_object_array_get_idx(get(doc, "checkouts"), 0);
	b = json_object_array_get_idx(get(doc, "builds"), 0);
	assert_string_equal(sget(c, "id"), "wr_ci:checkout 1");
	assert_string_equal(sget(b, "id"), "wr_ci:build/1");
	assert_string_equal(sget(b, "checkout_id"), "wr_ci:checkout 1");
	assert_string_equal(sget(json_object_array_get_idx(get(doc, "tests"), 2), "build_id"), "wr_ci:build/1");
	json_object_put(doc);
	free(got);
	testpoint_set_free(&s);
}

static void test_kcidb_hostile(void **state)
{
	struct kcidb_ids ids = { .origin = "wr" };
	json_object *doc, *c, *b, *tests, *t;
	struct testpoint_set s;
	char *got;
	int rc;

	(void)state;
	hostile(&s);
	got = kcidb_of(&s, &ids, &rc);
	assert_int_equal(rc, 0);
	save("hostile.json", got);
	doc = parse(got);
	c = json_object_array_get_idx(get(doc, "checkouts"), 0);
	b = json_object_array_get_idx(get(doc, "builds"), 0);
	/* the release cleaned in the id, as it was in misc; no time that is
	 * not RFC 3339; the architecture made of [a-z0-9_] */
	assert_string_equal(sget(c, "id"), "wr:wirerate-kernel-6.1__ok_1_x");
	assert_string_equal(sget(get(c, "misc"), "kernel_release"), "6.1\xc2\x85ok 1 x");
	assert_null(get(c, "start_time"));
	assert_string_equal(sget(b, "architecture"), "x86_64");
	assert_string_equal(sget(get(b, "misc"), "machine"), "X86-64");
	tests = get(doc, "tests");
	assert_int_equal(json_object_array_length(tests), 5);
	t = json_object_array_get_idx(tests, 0);
	assert_string_equal(sget(t, "id"), "wr:wirerate.1.Subtest");
	assert_null(get(t, "start_time"));
	assert_null(get(t, "misc"));
	assert_string_equal(sget(get(t, "environment"), "comment"), "List of all partitions");
	/* NaN and infinity: no number */
	assert_null(get(json_object_array_get_idx(tests, 2), "number"));
	t = json_object_array_get_idx(tests, 3);
	assert_null(get(t, "number"));
	assert_null(get(t, "duration"));
	assert_string_equal(sget(t, "path"), "a_b_c");
	t = json_object_array_get_idx(tests, 4);
	assert_string_equal(sget(t, "path"), "wirerate");
	assert_string_equal(sget(t, "id"), "wr:wirerate.5.wirerate");
	assert_true(json_object_get_double(get(get(t, "number"), "value")) == -0.1);
	assert_string_equal(sget(get(t, "number"), "unit"), "\n");
	json_object_put(doc);
	free(got);
	testpoint_set_free(&s);

	/* no point: a checkout and a build, no test */
	memset(&s, 0, sizeof(s));
	got = kcidb_of(&s, &ids, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, "{\"version\":{\"major\":5,\"minor\":3},"
				 "\"checkouts\":[{\"id\":\"wr:wirerate-kernel-unknown\",\"origin\":\"wr\"}],"
				 "\"builds\":[{\"id\":\"wr:wirerate-kernel-unknown\",\"origin\":\"wr\","
				 "\"checkout_id\":\"wr:wirerate-kernel-unknown\"}],\"tests\":[]}\n");
	save("empty.json", got);
	free(got);
}

static void test_kcidb_origin(void **state)
{
	static const char *const bad[] = { "Bad Origin", "", "a:b", "wr-ci", "é" };
	struct kcidb_ids ids = { .origin = NULL };
	struct testpoint_set s;
	char *got;
	int rc;

	(void)state;
	sample(&s);
	for (size_t i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		ids.origin = i < sizeof(bad) / sizeof(bad[0]) ? bad[i] : NULL;
		assert_false(testpoint_origin_ok(ids.origin));
		got = kcidb_of(&s, &ids, &rc);
		assert_int_equal(rc, -EINVAL);
		assert_string_equal(got, "");	/* nothing written */
		free(got);
	}
	assert_true(testpoint_origin_ok("wirerate_ci2"));
	assert_int_equal(kcidb_print(stdout, &s, NULL), -EINVAL);
	testpoint_set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_clean),
		cmocka_unit_test(test_ktap_sample),
		cmocka_unit_test(test_ktap_hostile),
		cmocka_unit_test(test_ktap_empty),
		cmocka_unit_test(test_write_fails),
		cmocka_unit_test(test_kcidb_sample),
		cmocka_unit_test(test_kcidb_hostile),
		cmocka_unit_test(test_kcidb_origin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
