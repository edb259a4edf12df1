/* A set of CPU numbers, parsed from and printed as the kernel's list format
 * ("0-3,8") and as the hex mask that rps_cpus and smp_affinity take. */
#ifndef WR_CORE_CPUSET_H
#define WR_CORE_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPUSET_MAX 1024

struct cpuset {
	uint64_t bits[CPUSET_MAX / 64];
};

void cpuset_zero(struct cpuset *s);
void cpuset_add(struct cpuset *s, unsigned int cpu);
bool cpuset_has(const struct cpuset *s, unsigned int cpu);
unsigned int cpuset_count(const struct cpuset *s);
/* Lowest CPU in the set at or above from, or -1. */
int cpuset_next(const struct cpuset *s, unsigned int from);
/* The n-th CPU of the set (0-based), or -1. */
int cpuset_nth(const struct cpuset *s, unsigned int n);
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);
/* a minus b. */
void cpuset_diff(struct cpuset *out, const struct cpuset *a, const struct cpuset *b);
bool cpuset_subset(const struct cpuset *a, const struct cpuset *b);

/* "0-3,8,10-11"; whitespace and a trailing newline are allowed (sysfs). */
int cpuset_parse_list(const char *s, struct cpuset *out, char *err, size_t errlen);
/* "0-3,8" or "" for the empty set. */
void cpuset_format_list(const struct cpuset *s, char *buf, size_t len);
/* The mask format of rps_cpus: 32-bit hex words separated by commas,
 * most significant first ("00000000,00000003"); nwords 0 = as few as needed. */
void cpuset_format_mask(const struct cpuset *s, char *buf, size_t len);
/* Parse that mask format back. */
int cpuset_parse_mask(const char *s, struct cpuset *out, char *err, size_t errlen);

#endif
