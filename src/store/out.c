#include "store/out.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

void json_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
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
		json_put_string(o->f, k);
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
		json_put_string(o->f, v);
	} else if (fmt) {
		fprintf(o->f, fmt, v ? v : "");
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

void out_text(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		return;
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}
#pragma GCC diagnostic pop
