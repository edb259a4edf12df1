#include "cli/storeopt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* A label or tag is shown in text tables, one run a line: a newline, tab
 * or escape in it would break or forge them. */
static bool has_control(const char *v)
{
	for (; *v; v++)
		if (iscntrl((unsigned char)*v))
			return true;
	return false;
}

int storeopt_take(struct storeopt *s, int argc, char **argv, char *err, size_t errlen)
{
	static const char *const valued[] = { "--db", "--label", "--tag", NULL };
	int out = 1;

	memset(s, 0, sizeof(*s));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *name = NULL, *v = NULL;
		int got;

		if (!strcmp(a, "--no-store")) {
			s->no_store = true;
			continue;
		}
		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if ((got = cli_take_valued(argc, argv, &i, valued, &name, &v, err, errlen)) < 0)
			return got;
		if (!got) {
			argv[out++] = argv[i];
			continue;
		}
		if (!strcmp(name, "--db")) {
			if (!*v || strlen(v) >= sizeof(s->path)) {
				snprintf(err, errlen, "--db: give a file name");
				return -EINVAL;
			}
			snprintf(s->path, sizeof(s->path), "%s", v);
			s->path_set = true;
		} else if (has_control(v)) {
			snprintf(err, errlen, "%s: no control characters (newline, tab, escape ...)", name);
			return -EINVAL;
		} else if (strlen(v) > 63 || (!*v && name[2] == 't')) {
			snprintf(err, errlen, "%s '%.80s': 1 to 63 characters", name, v);
			return -EINVAL;
		} else if (!strcmp(name, "--label")) {
			s->label = v;
		} else if (s->ntags == STOREOPT_MAX_TAGS) {
			snprintf(err, errlen, "--tag: at most %d tags", STOREOPT_MAX_TAGS);
			return -EINVAL;
		} else {
			s->tags[s->ntags++] = v;
		}
	}
	argv[out] = NULL;
	return out;
}

void storeopt_end(struct storeopt *s, const char *status, const char *headline)
{
	char err[512];
	int64_t id = s->run_id;

	if (app_store_end(s, status, headline, err, sizeof(err)))
		cli_error("warning: run %lld not marked %s in %s: %s", (long long)id, status, s->path, err);
}
