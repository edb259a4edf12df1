/* The output emitter on hostile strings: JSON that is valid UTF-8 with
 * every control character escaped, text with control bytes, DEL, C1 and
 * bytes that are not UTF-8 shown as \xNN, and times that have no date. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "render/out.h"

/* What f received, NUL terminated; the caller frees it. */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

static char *json_of(const char *s)
{
	struct mem m;

	mem_open(&m);
	out_json_put_string(m.f, s);
	return mem_close(&m);
}

static void json_is(const char *in, const char *want)
{
	char *got = json_of(in);

	assert_string_equal(got, want);
	free(got);
}

static void text_is(const char *in, const char *want)
{
	char buf[256];

	assert_string_equal(out_escape_text(buf, sizeof(buf), in), want);
}

/* s holds only valid UTF-8 with no C0, DEL or C1 control. */
static void assert_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		size_t l = out_utf8_len(p + i, n - i);

		if (l == 0 || (l == 1 && (p[i] < 0x20 || p[i] == 0x7f)) || (l == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0))
			fail_msg("byte %zu (0x%02x) of '%s' is not clean", i, p[i], s);
		i += l;
	}
}

static void json_escapes(void **st)
{
	json_is(NULL, "\"\"");
	json_is("plain", "\"plain\"");
	json_is("q\"b\\s\n\t\r", "\"q\\\"b\\\\s\\n\\t\\r\"");
	json_is("\x1b[31mred", "\"\\u001b[31mred\"");
	json_is("\x01\x7f", "\"\\u0001\\u007f\"");
	/* valid UTF-8 passes, C1 controls and the JS line ends are escaped */
	json_is("\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80\"");
	json_is("\xc2\x9b" "1m", "\"\\u009b1m\"");
	json_is("a\xe2\x80\xa8" "b\xe2\x80\xa9", "\"a\\u2028b\\u2029\"");
	/* not UTF-8: one U+FFFD per byte */
	json_is("\xff", "\"\\ufffd\"");
	json_is("a\xfe\xff" "b", "\"a\\ufffd\\ufffdb\"");
	json_is("\xc0\xaf", "\"\\ufffd\\ufffd\"");			/* overlong '/' */
	json_is("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");		/* overlong, 3 bytes */
	json_is("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* overlong, 4 bytes */
	json_is("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");		/* surrogate D800 */
	json_is("\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"");		/* surrogate DFFF */
	json_is("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");	/* above U+10FFFF */
	json_is("\xf5\x80", "\"\\ufffd\\ufffd\"");
	json_is("\xe2\x9c", "\"\\ufffd\\ufffd\"");			/* truncated at the end */
	json_is("\xe2\x9c" "A", "\"\\ufffd\\ufffdA\"");			/* cut by ASCII */
	json_is("\xf0\x9f\x98", "\"\\ufffd\\ufffd\\ufffd\"");
	json_is("\x80", "\"\\ufffd\"");					/* lone continuation */
}

static void text_escapes(void **st)
{
	text_is(NULL, "");
	text_is("plain \\ \"q\"", "plain \\ \"q\"");
	text_is("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	text_is("\x1b]0;title\x07", "\\x1b]0;title\\x07");
	text_is("a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd");
	text_is("\x7f", "\\x7f");
	text_is("\xff", "\\xff");
	text_is("\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80", "\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80");
	text_is("\xc2\x9b" "31m", "\\xc2\\x9b31m");			/* C1 CSI */
	text_is("\xc2\xa0", "\xc2\xa0");				/* U+00A0 is printable */
	text_is("\xc0\xaf", "\\xc0\\xaf");
	text_is("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	text_is("\xed\xa0\x80", "\\xed\\xa0\\x80");
	text_is("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	text_is("x\xe2\x9c", "x\\xe2\\x9c");
	text_is("\xe2\x9c" "A", "\\xe2\\x9cA");
}

/* A short buffer cuts between two units, never inside an escape or a
 * character, and is always terminated. */
static void text_cut_short(void **st)
{
	char buf[8];

	memset(buf, 'Z', sizeof(buf));
	assert_string_equal(out_escape_text(buf, 6, "ab\x1b"), "ab");
	assert_string_equal(out_escape_text(buf, 7, "ab\x1b"), "ab\\x1b");
	assert_string_equal(out_escape_text(buf, 4, "\xf0\x9f\x98\x80"), "");
	assert_string_equal(out_escape_text(buf, 5, "\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
	assert_string_equal(out_escape_text(buf, 1, "abc"), "");
	buf[0] = 'Z';
	out_escape_text(buf, 0, "abc");
	assert_int_equal(buf[0], 'Z');	/* nothing written at all */
}

/* out_put_text: newlines kept only when asked; out_str and out_text
 * escape in text mode, whatever the format around them. */
static void emitter_text(void **st)
{
	struct mem m;
	struct out *o;
	char *got;

	mem_open(&m);
	out_put_text(m.f, "a\nb\x1b", true);
	out_put_text(m.f, "|c\nd", false);
	got = mem_close(&m);
	assert_string_equal(got, "a\nb\\x1b|c\\x0ad");
	free(got);

	mem_open(&m);
	o = out_create(m.f, false);
	out_str(o, "label", "[%-8s]", "\x1b[2J\xff");
	out_str(o, "peer", " %s\n", "ok\n");
	out_text(o, "%s|%s\n", "t\x1b" "c", "\xc0\xaf");
	out_destroy(o);
	got = mem_close(&m);
	assert_string_equal(got, "[\\x1b[2J\\xff] ok\\x0a\nt\\x1bc|\\xc0\\xaf\n");
	free(got);

	/* longer than the emitter's own buffers */
	char *big = malloc(5000);

	assert_non_null(big);
	memset(big, '\x1b', 4999);
	big[4999] = '\0';
	mem_open(&m);
	o = out_create(m.f, false);
	out_str(o, "k", "%s", big);
	out_text(o, "%s", big);
	out_destroy(o);
	got = mem_close(&m);
	assert_int_equal(strlen(got), 2 * 4 * 4999);
	assert_null(strchr(got, '\x1b'));
	free(got);
	free(big);
}

static void emitter_json(void **st)
{
	struct mem m;
	struct out *o;
	char *got;

	mem_open(&m);
	o = out_create(m.f, true);
	out_str(o, "label\xff", NULL, "\x1b[31m\xff");
	out_text(o, "%s", "ignored in JSON");
	out_destroy(o);
	got = mem_close(&m);
	assert_string_equal(got, "{\"label\\ufffd\":\"\\u001b[31m\\ufffd\"}\n");
	free(got);
}

/* Random bytes, many times: JSON and text both come out clean. The seed
 * is fixed, so a failure repeats. */
static void random_bytes_clean(void **st)
{
	unsigned int seed = 12345;
	char in[64], text[4 * sizeof(in) + 1];

	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand_r(&seed) % (sizeof(in) - 1));

		for (size_t i = 0; i < n; i++) {
			int r = rand_r(&seed);

			/* lean to the bytes that start or continue sequences */
			in[i] = (char)(r & 1 ? 0x80 | (r >> 1 & 0x7f) : r >> 1 & 0xff);
			if (!in[i])
				in[i] = 'x';
		}
		in[n] = '\0';
		char *j = json_of(in);

		assert_clean(j);
		free(j);
		assert_clean(out_escape_text(text, sizeof(text), in));
		assert_true(strlen(text) <= 4 * n);
	}
}

static void time_format(void **st)
{
	char buf[32];

	setenv("TZ", "UTC", 1);
	assert_int_equal(timefmt_local(buf, sizeof(buf), 1700000000, "%Y-%m-%d %H:%M:%S"), 0);
	assert_string_equal(buf, "2023-11-14 22:13:20");
	assert_int_equal(timefmt_local(buf, sizeof(buf), 0, "%Y-%m-%dT%H:%M:%S"), 0);
	assert_string_equal(buf, "1970-01-01T00:00:00");
	/* as report and cpu --json give it: with the offset from UTC */
	assert_int_equal(timefmt_local(buf, sizeof(buf), 0, "%Y-%m-%dT%H:%M:%S%z"), 0);
	assert_string_equal(buf, "1970-01-01T00:00:00+0000");
	/* years that do not fit struct tm's int */
	assert_int_equal(timefmt_local(buf, sizeof(buf), 9000000000000000000LL, "%Y"), -ERANGE);
	assert_string_equal(buf, TIMEFMT_UNKNOWN);
	assert_int_equal(timefmt_local(buf, sizeof(buf), INT64_MAX, "%Y"), -ERANGE);
	assert_string_equal(buf, TIMEFMT_UNKNOWN);
	assert_int_equal(timefmt_local(buf, sizeof(buf), INT64_MIN, "%Y"), -ERANGE);
	assert_string_equal(buf, TIMEFMT_UNKNOWN);
	/* a date, but not room for it */
	assert_int_equal(timefmt_local(buf, 5, 1700000000, "%Y-%m-%d"), -ERANGE);
	assert_string_equal(buf, TIMEFMT_UNKNOWN);
	assert_int_equal(timefmt_local(buf, 0, 1700000000, "%Y"), -ERANGE);
}

/* What out_json_doc makes of a src holding len bytes of doc: the whole
 * output of an out (JSON or text) with one value before it; the caller
 * frees it. */
static char *doc_out(const char *doc, size_t len, bool json)
{
	FILE *src = tmpfile();
	struct mem m;
	struct out *o;

	assert_non_null(src);
	assert_int_equal(fwrite(doc, 1, len, src), len);	/* left at its end: out_json_doc rewinds */
	mem_open(&m);
	o = out_create(m.f, json);
	out_u64(o, "n", "n %llu\n", 1);
	out_json_doc(o, "doc", src);
	out_destroy(o);
	fclose(src);
	return mem_close(&m);
}

/* A child's document under its key as it is (inner newlines and spaces
 * kept, trailing newlines dropped), null for an empty one; nothing in
 * text. */
static void json_doc(void **st)
{
	const char *doc = "{\"a\": [1,\n 2],\n\"b\": \"x\\ny\"}\n\n";
	char *got;

	(void)st;
	got = doc_out(doc, strlen(doc), true);
	assert_string_equal(got, "{\"n\":1,\"doc\":{\"a\": [1,\n 2],\n\"b\": \"x\\ny\"}}\n");
	free(got);
	got = doc_out("[]", 2, true);
	assert_string_equal(got, "{\"n\":1,\"doc\":[]}\n");
	free(got);
	got = doc_out("", 0, true);
	assert_string_equal(got, "{\"n\":1,\"doc\":null}\n");
	free(got);
	/* newlines alone are no document either: null, not a missing value */
	got = doc_out("\n\n", 2, true);
	assert_string_equal(got, "{\"n\":1,\"doc\":null}\n");
	free(got);
	/* in text: only what the text calls print */
	got = doc_out(doc, strlen(doc), false);
	assert_string_equal(got, "n 1\n");
	free(got);
	got = doc_out("", 0, false);
	assert_string_equal(got, "n 1\n");
	free(got);
}

/* Longer than out_json_doc's 8 KiB reads: newlines that end one read are
 * held back, and go out when text follows in a later read (also across a
 * read of newlines only), and are dropped when none does. */
static void json_doc_chunks(void **st)
{
	enum { CHUNK = 8192 };
	size_t cap = 4 * CHUNK, n, body;
	static char doc[4 * 8192], want[4 * 8192];
	char *got;

	(void)st;

	/* the first read ends "\n\n", the second starts "\n" then text */
	body = CHUNK - 2;
	memset(doc, ' ', body);
	memcpy(doc, "[\"", 2);
	memcpy(doc + body - 2, "\",", 2);
	memcpy(doc + body, "\n\n", 2);
	memcpy(doc + CHUNK, "\n1]\n\n\n", 6);
	n = CHUNK + 6;
	snprintf(want, cap, "{\"n\":1,\"doc\":%.*s\n\n\n1]}\n", (int)body, doc);
	got = doc_out(doc, n, true);
	assert_int_equal(strlen(got), strlen(want));
	assert_string_equal(got, want);
	free(got);

	/* 100 newlines end the first read, the second is newlines only, text
	 * in the third: all 100 + 8192 kept */
	body = CHUNK - 100;
	memset(doc, ' ', body);
	memcpy(doc, "[1,", 3);
	memset(doc + body, '\n', 100 + CHUNK);
	memcpy(doc + 2 * CHUNK, "2]\n", 3);
	n = 2 * CHUNK + 3;
	memcpy(want, "{\"n\":1,\"doc\":", 13);
	memcpy(want + 13, doc, 2 * CHUNK + 2);
	memcpy(want + 13 + 2 * CHUNK + 2, "}\n", 3);
	got = doc_out(doc, n, true);
	assert_int_equal(strlen(got), strlen(want));
	assert_string_equal(got, want);
	free(got);

	/* the same with no third read: every newline held back is dropped */
	memcpy(doc + body - 1, "]", 1);
	n = 2 * CHUNK;
	snprintf(want, cap, "{\"n\":1,\"doc\":%.*s}\n", (int)body, doc);
	got = doc_out(doc, n, true);
	assert_string_equal(got, want);
	free(got);

	/* a document of exactly one read, its last byte a newline */
	memset(doc, ' ', CHUNK);
	memcpy(doc, "[\n", 2);
	memcpy(doc + CHUNK - 3, "]\n\n", 3);
	snprintf(want, cap, "{\"n\":1,\"doc\":%.*s}\n", CHUNK - 2, doc);
	got = doc_out(doc, CHUNK, true);
	assert_string_equal(got, want);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_escapes), cmocka_unit_test(text_escapes),
		cmocka_unit_test(text_cut_short), cmocka_unit_test(emitter_text),
		cmocka_unit_test(emitter_json), cmocka_unit_test(random_bytes_clean),
		cmocka_unit_test(time_format), cmocka_unit_test(json_doc),
		cmocka_unit_test(json_doc_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
