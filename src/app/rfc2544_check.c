/* rfc2544's option rules: the defaults, the size list, the test words,
 * and the options checked against each other and the traffic options. */
#include "app/rfc2544_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial_check.h"
#include "core/frame.h"

void app_rfc2544_check_defaults(struct app_rfc2544_opts *o)
{
	*o = (struct app_rfc2544_opts){ .pdr = 0.005, .precision = 0.005, .repeat = 1, .nsizes = 7,
				      .sizes = { 64, 128, 256, 512, 1024, 1280, 1518 } };
}

int app_rfc2544_check_sizes_parse(struct app_rfc2544_opts *o, const char *s, char *err, size_t errlen)
{
	char *list = strdup(s), *save = NULL;
	int rc = 0;

	if (!list) {
		snprintf(err, errlen, "--sizes: out of memory");
		return -ENOMEM;
	}
	o->nsizes = 0;
	for (char *t = strtok_r(list, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (o->nsizes == RFC2544_MAX_SIZES) {
			snprintf(err, errlen, "--sizes: at most %d sizes", RFC2544_MAX_SIZES);
			rc = -EINVAL;
		} else if (units_size_parse(t, 1, FRAME_MAX, &v, err, errlen)) {
			rc = -EINVAL;
		} else {
			o->sizes[o->nsizes++] = (unsigned int)v;
		}
	}
	free(list);
	if (!rc && !o->nsizes) {
		snprintf(err, errlen, "--sizes: give sizes like 64,512,1518");
		rc = -EINVAL;
	}
	return rc;
}

int app_rfc2544_check_tests_parse(struct app_rfc2544_opts *o, char *const *args, int nargs, char *err, size_t errlen)
{
	unsigned int all = 0, k;

	for (k = 0; k < APP_RFC2544_NTESTS; k++)
		all |= app_rfc2544_tests[k].bit;
	for (int i = 0; i < nargs; i++) {
		for (k = 0; k < APP_RFC2544_NTESTS && strcmp(args[i], app_rfc2544_tests[k].arg); k++)
			;
		if (k < APP_RFC2544_NTESTS) {
			o->tests |= app_rfc2544_tests[k].bit;
		} else if (!strcmp(args[i], "all")) {
			o->tests |= all;
		} else {
			snprintf(err, errlen, "unexpected argument '%s'", args[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int app_rfc2544_check(struct app_rfc2544_opts *o, struct trial_setup *to, bool sizes_given, char *err, size_t errlen)
{
	if (!o->tests)
		o->tests = RFC2544_THROUGHPUT;
	o->imix = to->req.imix_set;
	if (o->imix && sizes_given) {
		snprintf(err, errlen, "--sizes and --imix: a list of sizes or one IMIX row, not both");
		return -EINVAL;
	}
	if (to->req.ipv6_flag && !sizes_given)
		o->sizes[0] = FRAME_MIN_TAGGED_V6;	/* RFC 5180's 78 has no room for the tag */
	if (app_trial_check(to, "1kpps", err, errlen))
		return -EINVAL;
	if (to->req.duration_set) {
		snprintf(err, errlen, "use --trial-time, not --duration (the search chooses trial lengths)");
		return -EINVAL;
	}
	return 0;
}
