/* Counting a JSON text's containers and values; see json_bound.h. */
#include "core/json_bound.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

int json_bound_check(const char *text, size_t len, const struct json_bound *b, char *err, size_t errlen)
{
	size_t containers = 0, values = 0;
	bool in_str = false, esc = false, in_scalar = false;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (in_str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '{':
		case '[':
			containers++;
			values++;
			in_scalar = false;
			break;
		case '"':
			in_str = true;
			values++;	/* a key is counted as a value: it costs as much */
			in_scalar = false;
			break;
		case ' ': case '\t': case '\r': case '\n':
		case ',': case ':': case '}': case ']':
			in_scalar = false;
			break;
		default:	/* a number, true, false, null: one value per run of bytes */
			if (!in_scalar)
				values++;
			in_scalar = true;
			break;
		}
		if (containers > b->containers || values > b->values) {
			snprintf(err, errlen, "over %zu %s in one document: refused before parsing",
				 containers > b->containers ? b->containers : b->values,
				 containers > b->containers ? "objects and arrays" : "values");
			return -E2BIG;
		}
	}
	return 0;
}
