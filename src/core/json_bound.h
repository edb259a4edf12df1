/* What a JSON text from someone else may make a parser build, checked on
 * the bytes before it is parsed. json-c spends some 700 bytes on an empty
 * object and about 100 on a number, so a line of "{}," costs two
 * hundred times its size: the text's containers (objects and arrays) and
 * values are counted and bounded, whatever its length. */
#ifndef WR_CORE_JSON_BOUND_H
#define WR_CORE_JSON_BOUND_H

#include <stddef.h>

struct json_bound {
	size_t containers;	/* objects and arrays */
	size_t values;		/* every value, containers, keys' values and elements */
};

/* 0 when text[0..len) holds at most b's containers and values, else
 * -E2BIG with a reason in err naming what and the bound. Not a parser:
 * a text this passes may still not be JSON. */
int json_bound_check(const char *text, size_t len, const struct json_bound *b, char *err, size_t errlen);

#endif
