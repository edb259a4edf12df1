/* Test points: one figure a run checked, for a CI's result collection
 * (core/testpoint.h). */
#include "core/testpoint.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct testpoint *testpoint_add(struct testpoint_set *s, enum testpoint_status st, const char *fmt, ...)
{
	struct testpoint *t;
	va_list ap;

	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 16;
		struct testpoint *p = realloc(s->p, cap * sizeof(*p));

		if (!p)
			return NULL;
		s->p = p;
		s->cap = cap;
	}
	t = &s->p[s->n++];
	memset(t, 0, sizeof(*t));
	t->status = st;
	t->duration_s = -1;
	va_start(ap, fmt);
	vsnprintf(t->path, sizeof(t->path), fmt, ap);
	va_end(ap);
	testpoint_path_clean(t->path);
	return t;
}

void testpoint_set_free(struct testpoint_set *s)
{
	free(s->p);
	s->p = NULL;
	s->n = s->cap = 0;
}

static bool path_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

void testpoint_path_clean(char *path)
{
	size_t r, w = 0;

	for (r = 0; path[r]; r++) {
		unsigned char c = (unsigned char)path[r];

		if (c == '.') {
			/* no leading dot, no empty part */
			if (w && path[w - 1] != '.')
				path[w++] = '.';
			continue;
		}
		path[w++] = path_byte(c) ? (char)c : '_';
	}
	while (w && path[w - 1] == '.')
		w--;
	path[w] = '\0';
}

struct testpoint_counts testpoint_count(const struct testpoint_set *s)
{
	struct testpoint_counts c = { 0 };

	for (unsigned int i = 0; i < s->n; i++) {
		switch (s->p[i].status) {
		case TESTPOINT_PASS: c.pass++; break;
		case TESTPOINT_FAIL: c.fail++; break;
		case TESTPOINT_SKIP: c.skip++; break;
		case TESTPOINT_DONE: c.done++; break;
		case TESTPOINT_UNSURE: c.unsure++; break;
		case TESTPOINT_ERROR: c.error++; break;
		}
	}
	return c;
}

const char *testpoint_kcidb_status(enum testpoint_status st)
{
	switch (st) {
	case TESTPOINT_PASS: return "PASS";
	case TESTPOINT_FAIL: return "FAIL";
	case TESTPOINT_SKIP: return "SKIP";
	case TESTPOINT_DONE: return "DONE";
	case TESTPOINT_UNSURE: return "DONE";
	case TESTPOINT_ERROR: return "ERROR";
	}
	return "ERROR";
}

bool testpoint_origin_ok(const char *origin)
{
	if (!origin || !*origin)
		return false;
	for (const char *p = origin; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}
