#include "core/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of text: [*p, end) with end at '\n' or NUL; advances *p. */
bool text_line(const char **p, const char **start, size_t *len)
{
	const char *s = *p, *e;

	if (!*s)
		return false;
	e = strchr(s, '\n');
	if (!e)
		e = s + strlen(s);
	*start = s;
	*len = (size_t)(e - s);
	*p = *e ? e + 1 : e;
	return true;
}

const char *text_skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* A number of the given base that ends at a blank or the line's end;
 * returns the position after it or NULL. */
const char *text_num(const char *s, const char *end, int base, uint64_t *v)
{
	char *e;

	if (s >= end || !isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return NULL;
	errno = 0;
	*v = strtoull(s, &e, base);
	if (errno || e > end || (e < end && *e != ' ' && *e != '\t'))
		return NULL;
	return e;
}

const char *text_kv_get(const char *text, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key), ll;
	const char *p = text ? text : "", *s;

	while (text_line(&p, &s, &ll))
		if (ll > kl && !strncmp(s, key, kl) && s[kl] == '=') {
			snprintf(val, len, "%.*s", (int)(ll - kl - 1), s + kl + 1);
			return val;
		}
	return NULL;
}
