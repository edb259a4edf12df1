/* Time units as whole numbers of nanoseconds (and the few other scales
 * the code counts in), so that no raw 1000000000 is written twice, and
 * nanoseconds turned into seconds, milliseconds and microseconds. */
#ifndef WR_CORE_NS_H
#define WR_CORE_NS_H

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define USEC_PER_SEC 1000000ULL
#define MSEC_PER_SEC 1000ULL
#define NSEC_PER_MIN (60ULL * NSEC_PER_SEC)
#define NSEC_PER_HOUR (3600ULL * NSEC_PER_SEC)
#define NSEC_PER_DAY (86400ULL * NSEC_PER_SEC)

/* A count of nanoseconds in a larger unit, for printing and rates. */
static inline double ns_to_s(double ns)
{
	return ns / (double)NSEC_PER_SEC;
}

static inline double ns_to_ms(double ns)
{
	return ns / (double)NSEC_PER_MSEC;
}

static inline double ns_to_us(double ns)
{
	return ns / (double)NSEC_PER_USEC;
}

#endif
