#include "render/out.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#define OUT_DEPTH 32

struct out {
	FILE *f;
	bool json;
	int depth;
	bool first[OUT_DEPTH];	/* nothing written yet at this level */
	char close[OUT_DEPTH];	/* '}' or ']' */
};

struct out *out_create(FILE *f, bool json)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->f = f;
	o->json = json;
	if (json) {
		fputc('{', f);
		o->first[0] = true;
		o->close[0] = '}';
	}
	return o;
}

void out_destroy(struct out *o)
{
	if (!o)
		return;
	if (o->json) {
		while (o->depth >= 0) {
			fputc(o->close[o->depth], o->f);
			o->depth--;
		}
		fputc('\n', o->f);
	}
	fflush(o->f);
	free(o);
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

size_t out_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned int cp;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* The next unit of s (n bytes left) as the terminal may see it: *used
 * bytes of s are consumed and their shown form goes to unit (at most
 * OUT_ESC_UNIT bytes with the NUL). C1 controls (U+0080-U+009F) are
 * escaped too: some terminals act on them as they do on ESC [. */
#define OUT_ESC_UNIT 17
static size_t text_unit(const unsigned char *s, size_t n, bool keep_nl, char *unit, size_t *used)
{
	size_t len = out_utf8_len(s, n);

	if (len == 0 || (len == 1 && (s[0] < 0x20 || s[0] == 0x7f) && !(keep_nl && s[0] == '\n'))) {
		*used = 1;
		return (size_t)snprintf(unit, OUT_ESC_UNIT, "\\x%02x", s[0]);
	}
	*used = len;
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return (size_t)snprintf(unit, OUT_ESC_UNIT, "\\x%02x\\x%02x", s[0], s[1]);
	memcpy(unit, s, len);
	unit[len] = '\0';
	return len;
}

char *out_escape_text(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), o = 0;
	char unit[OUT_ESC_UNIT];

	if (!len)
		return buf;
	for (size_t i = 0, used; i < n; i += used) {
		size_t ul = text_unit(p + i, n - i, false, unit, &used);

		if (o + ul >= len)
			break;	/* never half an escape or half a character */
		memcpy(buf + o, unit, ul);
		o += ul;
	}
	buf[o] = '\0';
	return buf;
}

void out_put_text(FILE *f, const char *s, bool keep_newline)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);
	char unit[OUT_ESC_UNIT];

	for (size_t i = 0, used; i < n; i += used)
		fwrite(unit, 1, text_unit(p + i, n - i, keep_newline, unit, &used), f);
}

void out_json_put_value(FILE *f, json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object: {
		bool first = true;

		fputc('{', f);
		json_object_object_foreach(v, key, val) {
			if (!first)
				fputc(',', f);
			first = false;
			out_json_put_string(f, key);
			fputc(':', f);
			out_json_put_value(f, val);
		}
		fputc('}', f);
		break;
	}
	case json_type_array:
		fputc('[', f);
		for (size_t i = 0, n = json_object_array_length(v); i < n; i++) {
			if (i)
				fputc(',', f);
			out_json_put_value(f, json_object_array_get_idx(v, i));
		}
		fputc(']', f);
		break;
	case json_type_string:
		out_json_put_string(f, json_object_get_string(v));
		break;
	default:	/* null, boolean, numbers: json-c's form has no text to check */
		fputs(v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "null", f);
		break;
	}
}

void out_json_put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);

	fputc('"', f);
	for (size_t i = 0, len; i < n; i += len) {
		len = out_utf8_len(p + i, n - i);
		if (len == 0) {
			/* Not UTF-8: JSON text must be, so the byte is replaced,
			 * as decoders do, rather than passed on. */
			fputs("\\ufffd", f);
			len = 1;
			continue;
		}
		if (len > 1) {
			unsigned int cp = len == 2 ? (p[i] & 0x1fu) << 6 | (p[i + 1] & 0x3fu) : 0;

			if (len == 2 && cp < 0xa0)
				fprintf(f, "\\u%04x", cp);	/* C1 control */
			else if (len == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 && (p[i + 2] == 0xa8 || p[i + 2] == 0xa9))
				fprintf(f, "\\u%04x", 0x2000u | (p[i + 2] & 0x3fu));	/* JS line ends */
			else
				fwrite(p + i, 1, len, f);
			continue;
		}
		switch (p[i]) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (p[i] < 0x20 || p[i] == 0x7f)
				fprintf(f, "\\u%04x", p[i]);
			else
				fputc(p[i], f);
		}
	}
	fputc('"', f);
}

static void key(struct out *o, const char *k)
{
	if (!o->first[o->depth])
		fputc(',', o->f);
	o->first[o->depth] = false;
	if (k && o->close[o->depth] == '}') {
		out_json_put_string(o->f, k);
		fputc(':', o->f);
	}
}

static void open_c(struct out *o, const char *k, char open, char close)
{
	if (!o->json || o->depth + 1 >= OUT_DEPTH)
		return;
	key(o, k);
	fputc(open, o->f);
	o->depth++;
	o->first[o->depth] = true;
	o->close[o->depth] = close;
}

static void close_c(struct out *o)
{
	if (!o->json || o->depth == 0)
		return;
	fputc(o->close[o->depth], o->f);
	o->depth--;
}

void out_obj_start(struct out *o, const char *k) { open_c(o, k, '{', '}'); }
void out_obj_end(struct out *o) { close_c(o); }
void out_arr_start(struct out *o, const char *k) { open_c(o, k, '[', ']'); }
void out_arr_end(struct out *o) { close_c(o); }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void out_str(struct out *o, const char *k, const char *fmt, const char *v)
{
	if (o->json) {
		key(o, k);
		out_json_put_string(o->f, v);
	} else if (fmt) {
		char small[512], *big = NULL;
		size_t need = 4 * strlen(v ? v : "") + 1;	/* every byte \xNN at worst */

		if (need > sizeof(small))
			big = malloc(need);	/* NULL: cut short in small */
		fprintf(o->f, fmt, big ? out_escape_text(big, need, v) : out_escape_text(small, sizeof(small), v));
		free(big);
	}
}

void out_u64(struct out *o, const char *k, const char *fmt, uint64_t v)
{
	if (o->json) {
		key(o, k);
		fprintf(o->f, "%llu", (unsigned long long)v);
	} else if (fmt) {
		fprintf(o->f, fmt, (unsigned long long)v);
	}
}

void out_i64(struct out *o, const char *k, const char *fmt, int64_t v)
{
	if (o->json) {
		key(o, k);
		fprintf(o->f, "%lld", (long long)v);
	} else if (fmt) {
		fprintf(o->f, fmt, (long long)v);
	}
}

void out_f64(struct out *o, const char *k, const char *fmt, double v)
{
	if (o->json) {
		key(o, k);
		if (isfinite(v))
			fprintf(o->f, "%.17g", v);
		else
			fputs("null", o->f);
	} else if (fmt) {
		fprintf(o->f, fmt, v);
	}
}

void out_bool(struct out *o, const char *k, const char *fmt, bool v)
{
	if (o->json) {
		key(o, k);
		fputs(v ? "true" : "false", o->f);
	} else if (fmt) {
		fprintf(o->f, fmt, v ? "on" : "off");
	}
}

void out_null(struct out *o, const char *k)
{
	if (o->json) {
		key(o, k);
		fputs("null", o->f);
	}
}

void out_json_doc(struct out *o, const char *k, FILE *src)
{
	char buf[8192];
	size_t n, held = 0;
	bool any = false;

	if (!o->json)
		return;
	key(o, k);
	rewind(src);
	while ((n = fread(buf, 1, sizeof(buf), src)) > 0) {
		size_t end = n;

		while (end && buf[end - 1] == '\n')
			end--;
		/* newlines held back that text follows go out */
		for (; end && held; held--)
			fputc('\n', o->f);
		fwrite(buf, 1, end, o->f);
		held += n - end;
		any |= end > 0;
	}
	/* nothing but newlines, or nothing: no document */
	if (!any)
		fputs("null", o->f);
}

void out_text(struct out *o, const char *fmt, ...)
{
	char small[1024], *big = NULL;
	va_list ap;
	int n;

	if (o->json)
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small) && (big = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	/* The format's own newlines end lines; anything else that could
	 * drive the terminal, from whichever argument, is shown escaped. */
	out_put_text(o->f, big ? big : small, true);
	free(big);
}
#pragma GCC diagnostic pop

void out_config(struct out *o, const char *key, const char *key_text, const char *config)
{
	const char *p = config ? config : "";

	if (!o->json)
		return;
	out_obj_start(o, key);
	while (*p) {
		char word[256], *eq;
		size_t n = strcspn(p, " ");

		if (n && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			if ((eq = strchr(word, '=')) && eq != word) {
				*eq = '\0';
				out_str(o, word, NULL, eq + 1);
			} else if (!eq) {
				out_bool(o, word, NULL, true);
			}
		}
		p += n;
		p += strspn(p, " ");
	}
	out_obj_end(o);
	out_str(o, key_text, NULL, config ? config : "");
}
