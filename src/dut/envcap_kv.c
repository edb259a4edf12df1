/* The key/value half of envcap: no system calls, so the agent protocol's
 * decoder (and its fuzz target) uses it alone. */
#include "dut/envcap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void envcap_kv_set(struct envcap *e, const char *key, const char *fmt, ...)
{
	unsigned int i;
	va_list ap;

	for (i = 0; i < e->n; i++)
		if (!strcmp(e->kv[i].key, key))
			break;
	if (i == e->n) {
		if (e->n == ENVCAP_MAX)
			return;
		e->n++;
		snprintf(e->kv[i].key, sizeof(e->kv[i].key), "%s", key);
	}
	va_start(ap, fmt);
	vsnprintf(e->kv[i].value, sizeof(e->kv[i].value), fmt, ap);
	va_end(ap);
}

const char *envcap_kv_get(const struct envcap *e, const char *key)
{
	for (unsigned int i = 0; i < e->n; i++)
		if (!strcmp(e->kv[i].key, key))
			return e->kv[i].value;
	return NULL;
}
