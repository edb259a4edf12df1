/* rfc2544's option rules, unit-tested without root: its defaults, the
 * --sizes list, the words that name the tests, and the options checked
 * against each other and the traffic options (app_trial_check). Each
 * returns 0, or -EINVAL with the reason in err. */
#ifndef WR_APP_RFC2544_CHECK_H
#define WR_APP_RFC2544_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "app/rfc2544_plan.h"
#include "app/trial_setup.h"

/* RFC 2544's goals and sizes: PDR 0.5%, width 0.5%, one search, the
 * seven sizes of 64 to 1518 bytes. */
void app_rfc2544_check_defaults(struct app_rfc2544_opts *o);
/* "64,512,1518" into o->sizes (-ENOMEM too). */
int app_rfc2544_check_sizes_parse(struct app_rfc2544_opts *o, const char *s, char *err, size_t errlen);
/* The test words ("throughput", "latency", "loss", "b2b", "all") into
 * o->tests. */
int app_rfc2544_check_tests_parse(struct app_rfc2544_opts *o, char *const *args, int nargs, char *err, size_t errlen);
/* After parsing: throughput when no test was named; --sizes or --imix;
 * the first size 84 for IPv6 unless sizes were given; the traffic
 * options' rules with 1 kpps for the rate; --trial-time, not --duration. */
int app_rfc2544_check(struct app_rfc2544_opts *o, struct trial_setup *to, bool sizes_given, char *err, size_t errlen);

#endif
