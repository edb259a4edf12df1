/* Local time as text; see timefmt.h. */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "os/timefmt.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
int timefmt_local(char *buf, size_t len, int64_t t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	/* localtime_r fails (NULL) for a time whose year does not fit an int,
	 * as a damaged or planted row can hold; strftime's 0 leaves buf
	 * undefined. */
	if ((int64_t)tt == t && localtime_r(&tt, &tm) && len && strftime(buf, len, fmt, &tm))
		return 0;
	if (len)
		snprintf(buf, len, "%s", TIMEFMT_UNKNOWN);
	return -ERANGE;
}
#pragma GCC diagnostic pop
