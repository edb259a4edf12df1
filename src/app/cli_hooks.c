#include "app/cli_hooks.h"

#include <stdarg.h>
#include <stdio.h>

void app_cli_hooks_say(const struct app_cli_hooks *cli, enum app_say how, const char *fmt, ...)
{
	char line[8192];
	va_list ap;

	if (!cli)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	cli->say(cli->ctx, how, line);
}
