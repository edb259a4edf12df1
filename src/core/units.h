/* Parsing of numbers with units: rates (SI), sizes (IEC), durations.
 * Pure functions: no I/O. Each returns 0 or -EINVAL / -ERANGE and leaves a
 * one-line reason in err (naming the accepted form), for the CLI to print. */
#ifndef WR_CORE_UNITS_H
#define WR_CORE_UNITS_H

#include <stddef.h>
#include <stdint.h>

enum rate_kind {
	RATE_PPS,	/* frames per second */
	RATE_BPS,	/* bits per second on the wire (L1: frame + 20 B) */
	RATE_PCT,	/* percent of line rate */
};

struct rate {
	enum rate_kind kind;
	double value;	/* pps, bit/s or percent */
};

/* "100kpps", "1.5Mpps", "250000" or "250k" (pps), "1Gbit", "100Mbps", "40%". SI
 * multipliers (k = 1000). Zero, negative and non-finite values are refused. */
int units_rate_parse(const char *s, struct rate *r, char *err, size_t errlen);

/* A rate written back the way a user would, e.g. "100 kpps". */
void units_rate_format(const struct rate *r, char *buf, size_t len);

/* Unsigned integer in [min, max], decimal digits only: "010" is ten, and
 * "0x10", "+1", " 1" and "1e3" are refused. */
int units_u64_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t errlen);

/* Byte size with IEC multipliers: "64", "1518", "9k" (= 9216), "1MiB". */
int units_size_parse(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       char *err, size_t errlen);

/* Duration: "10s", "500ms", "2m", "250us", plain number = seconds.
 * Result in nanoseconds; must be in [min_ns, max_ns]. */
int units_duration_parse(const char *s, uint64_t min_ns, uint64_t max_ns,
		   uint64_t *ns, char *err, size_t errlen);

/* A ratio in [0, 1) as "0.005" or "0.5%": -EINVAL when it is not a
 * number, -ERANGE when it is out of range. */
int units_ratio_parse(const char *s, double *out);

/* Frames per second at line rate: Ethernet frame of size bytes (with FCS)
 * plus 20 bytes of preamble and inter-frame gap, on a link of bps. */
double units_linerate_pps(uint64_t bps, unsigned int frame_size);

/* A list of sizes as "64,128,256" in buf, always terminated, cut short
 * when it does not fit. Returns the length written, or len or more when
 * it was cut short. */
size_t units_sizes_join(char *buf, size_t len, const unsigned int *sizes, unsigned int n);

/* A time for a person: "40 s", "3 min", "1.5 h". */
void units_duration_text(double s, char *buf, size_t len);

#endif
