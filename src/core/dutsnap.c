#include "core/dutsnap.h"

#include <stdlib.h>
#include <string.h>

void dutsnap_clear(struct dutsnap *s)
{
	if (!s)
		return;
	free(s->proc_stat);
	free(s->proc_interrupts);
	free(s->proc_softirqs);
	free(s->proc_softnet);
	memset(s, 0, sizeof(*s));
}

const struct dutsnap_if *dutsnap_if_find(const struct dutsnap *s, const char *name)
{
	for (unsigned int i = 0; i < s->nif; i++)
		if (!strcmp(s->ifs[i].name, name))
			return &s->ifs[i];
	return NULL;
}
