/* The tester's own ceiling per port type and frame size, measured back to
 * back by 'wirerate calibrate' and kept in a small text file so that later
 * trials above it say so. One line per (port type, size):
 *   <port-type> <size> <frames/s> <receiver-kept-up 0|1> <unix-time> <kernel> [line=A-B:NS]
 * where <port-type> is the path, with "*N" for N generator threads ("xdp*2"),
 * and the optional last field is one cache line's time from the generator's
 * CPU A to the analyzer's CPU B when the ceiling was measured (sys/cpulat.h).
 */
#ifndef WR_STORE_CALIB_H
#define WR_STORE_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct calib_entry {
	char port_type[24];
	unsigned int size;
	double pps;
	bool rx_ok;
	int64_t when;
	char kernel[96];
	char line_cpus[24];	/* "0-1": the generator's and the analyzer's CPU; "" unknown */
	double line_ns;		/* one cache line between them; 0: unknown */
};

/* The default file: $WIRERATE_STATE_DIR, $XDG_STATE_HOME/wirerate or
 * ~/.local/state/wirerate, then "/calibration". */
void calib_default_path(char *buf, size_t len);
/* Find the entry for (port_type, size); -ENOENT when there is none. A
 * malformed file is -EINVAL with a reason. */
/* 0 when path is absent or a calibration file; else -errno or -EINVAL
 * with err saying why (a file that is not one is never written over). */
int calib_check(const char *path, char *err, size_t errlen);
int calib_lookup(const char *path, const char *port_type, unsigned int size,
		 struct calib_entry *e, char *err, size_t errlen);
/* Add or replace e's line, writing a new file and renaming it over the old
 * one so that a crash never leaves half a file. */
int calib_store(const char *path, const struct calib_entry *e, char *err, size_t errlen);

#endif
