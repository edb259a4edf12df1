/* What every command shares: the one-line error, the exit status of a
 * failed step, the privilege check; see cli.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "render/out.h"

void cli_verror(const char *fmt, va_list ap)
{
	char small[1024], *big = NULL;
	va_list again;
	int n;

	fflush(stdout);
	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small) && (big = malloc((size_t)n + 1)))
		vsnprintf(big, (size_t)n + 1, fmt, again);
	va_end(again);
	/* Errors carry names and text from the command line, the store and
	 * the host: one line, and nothing in it may drive the terminal. */
	fputs("wirerate: ", stderr);
	out_put_text(stderr, n < 0 ? fmt : big ? big : small, false);
	fputc('\n', stderr);
	free(big);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
}

int cli_fail(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
	return status;
}

bool cli_have_root(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	bool ok = false;

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long cap;

		if (sscanf(line, "CapEff: %llx", &cap) == 1) {
			/* CAP_NET_ADMIN (12) and CAP_SYS_ADMIN (21) */
			ok = (cap >> 12 & 1) && (cap >> 21 & 1);
			break;
		}
	}
	fclose(f);
	return ok;
}

int cli_status(int rc)
{
	if (!rc)
		return 0;
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}
