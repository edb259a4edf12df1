/* Times for people: Unix time as local calendar time. */
#ifndef WR_OS_TIMEFMT_H
#define WR_OS_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

#define TIMEFMT_UNKNOWN "?"
/* Unix time t as local time in strftime format fmt, into buf. A time
 * with no calendar date (a year beyond what struct tm holds) or a result
 * that does not fit gives TIMEFMT_UNKNOWN and -ERANGE. */
int timefmt_local(char *buf, size_t len, int64_t t, const char *fmt);

#endif
