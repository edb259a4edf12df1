/* RFC 9971 search goals: the compact notation and the presets (goal.h). */
#include "core/goal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns.h"

#define GOAL_MAX_S	86400.0		/* one day: no longer trial or sum */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A non-negative decimal number (digits, at most one '.'), no sign, no
 * exponent, no "inf": strtod alone would take all of those. */
static int number(const char **p, double *v)
{
	const char *s = *p;
	size_t n = 0, dots = 0;
	char buf[32];

	while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.') {
		if (s[n] == '.')
			dots++;
		n++;
	}
	if (n == 0 || n >= sizeof(buf) || dots > 1 || (n == 1 && dots == 1))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtod(buf, NULL);
	if (!isfinite(*v))
		return -1;
	*p = s + n;
	return 0;
}

int goal_parse(const char *s, struct search_goal *g, char *err, size_t errlen)
{
	static const char order[] = "fdlewi";
	const char *p, *colon;
	double v[6] = { 0 };
	bool have[6] = { false };
	size_t last = 0, k;

	memset(g, 0, sizeof(*g));
	if (!s || !*s) {
		snprintf(err, errlen, "goal: empty; give e.g. 60f60d0l0e");
		return -EINVAL;
	}
	p = s;
	colon = strchr(s, ':');
	if (colon) {
		size_t n = (size_t)(colon - s);

		if (n == 0 || n >= GOAL_NAME_MAX) {
			snprintf(err, errlen, "goal '%.64s': the name must be 1 to %d characters", s, GOAL_NAME_MAX - 1);
			return -EINVAL;
		}
		for (k = 0; k < n; k++)
			if (!name_char(s[k])) {
				snprintf(err, errlen, "goal '%.64s': the name takes letters, digits, '_' and '-' only", s);
				return -EINVAL;
			}
		memcpy(g->name, s, n);
		g->name[n] = '\0';
		p = colon + 1;
	}
	while (*p) {
		double x;
		const char *u;

		if (number(&p, &x)) {
			snprintf(err, errlen, "goal '%.64s': expected a number at '%.16s' (form <s>f<s>d<%%>l<%%>e[<%%>w][<s>i])", s, p);
			return -EINVAL;
		}
		u = *p ? strchr(order, *p) : NULL;
		if (!u) {
			snprintf(err, errlen, "goal '%.64s': '%.8s' is not one of the units f d l e w i", s, p);
			return -EINVAL;
		}
		k = (size_t)(u - order);
		if (have[k] || (last > 0 && k < last)) {
			snprintf(err, errlen, "goal '%.64s': '%c' out of order or twice (order: f d l e w i)", s, *p);
			return -EINVAL;
		}
		have[k] = true;
		v[k] = x;
		last = k;
		p++;
	}
	for (k = 0; k < 4; k++)
		if (!have[k]) {
			snprintf(err, errlen, "goal '%.64s': the '%c' part is missing (required: f d l e)", s, order[k]);
			return -EINVAL;
		}
	if (v[0] <= 0 || v[0] > GOAL_MAX_S || v[0] * NSEC_PER_SEC < NSEC_PER_MSEC) {
		snprintf(err, errlen, "goal '%.64s': final trial duration %g s: give 0.001 to %g s", s, v[0], GOAL_MAX_S);
		return -EINVAL;
	}
	if (v[1] < v[0] || v[1] > GOAL_MAX_S) {
		snprintf(err, errlen, "goal '%.64s': duration sum %g s: give at least the final trial duration (%g s), at most %g s",
			 s, v[1], v[0], GOAL_MAX_S);
		return -EINVAL;
	}
	if (v[2] >= 100 || v[3] >= 100) {
		snprintf(err, errlen, "goal '%.64s': loss and exceed ratios are percent below 100", s);
		return -EINVAL;
	}
	if (have[4] && (v[4] <= 0 || v[4] >= 100)) {
		snprintf(err, errlen, "goal '%.64s': width %g%%: give above 0 and below 100", s, v[4]);
		return -EINVAL;
	}
	if (have[5] && (v[5] <= 0 || v[5] > v[0] || v[5] * NSEC_PER_SEC < NSEC_PER_MSEC)) {
		snprintf(err, errlen, "goal '%.64s': initial trial duration %g s: give 0.001 s up to the final (%g s)", s, v[5], v[0]);
		return -EINVAL;
	}
	g->final_ns = (uint64_t)llround(v[0] * NSEC_PER_SEC);
	g->sum_ns = (uint64_t)llround(v[1] * NSEC_PER_SEC);
	g->loss_ratio = v[2] / 100.0;
	g->exceed_ratio = v[3] / 100.0;
	g->width = have[4] ? v[4] / 100.0 : 0;
	g->initial_ns = have[5] ? (uint64_t)llround(v[5] * NSEC_PER_SEC) : 0;
	return 0;
}

int goal_format(const struct search_goal *g, char *buf, size_t len)
{
	char w[32] = "", i[32] = "";

	if (g->width > 0)
		snprintf(w, sizeof(w), "%.6gw", g->width * 100.0);
	if (g->initial_ns)
		snprintf(i, sizeof(i), "%.6gi", ns_to_s((double)g->initial_ns));
	return snprintf(buf, len, "%s%s%.6gf%.6gd%.6gl%.6ge%s%s", g->name, g->name[0] ? ":" : "",
			ns_to_s((double)g->final_ns), ns_to_s((double)g->sum_ns),
			g->loss_ratio * 100.0, g->exceed_ratio * 100.0, w, i);
}

static const struct {
	const char *preset;
	const char *goals[2];
} presets[] = {
	{ "rfc2544", { "rfc2544:60f60d0l0e", NULL } },
	{ "tst009", { "tst009:60f120d0l50e", NULL } },
	{ "csit", { "ndr:1f21d0l50e0.5w", "pdr:1f21d0.5l50e0.5w" } },
	{ "quick", { "ndr:2f2d0l0e0.5w0.5i", "pdr:2f2d0.5l0e0.5w0.5i" } },
	{ "default", { "ndr:60f60d0l0e0.5w1i", "pdr:60f60d0.5l0e0.5w1i" } },
};

const char *goal_preset_names(void)
{
	return "rfc2544|tst009|csit|quick|default";
}

int goal_preset(const char *name, struct search_goal *g, unsigned int max, char *err, size_t errlen)
{
	size_t i;
	unsigned int n = 0;

	for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (strcmp(presets[i].preset, name) != 0)
			continue;
		for (size_t j = 0; j < 2 && presets[i].goals[j]; j++) {
			if (n >= max) {
				snprintf(err, errlen, "--preset %s: more than %u goals", name, max);
				return -EINVAL;
			}
			if (goal_parse(presets[i].goals[j], &g[n], err, errlen))
				return -EINVAL;
			n++;
		}
		return (int)n;
	}
	snprintf(err, errlen, "--preset '%.32s': unknown; give %s", name, goal_preset_names());
	return -EINVAL;
}

void goal_trial_output(double load, uint64_t duration_ns, uint64_t tx, uint64_t rx, struct trial_output *out)
{
	out->loss_ratio = tx ? (double)(tx - (rx < tx ? rx : tx)) / (double)tx : 0;
	out->effective_s = ns_to_s((double)duration_ns);
	out->forwarding_rate = load * (1 - out->loss_ratio);
}

bool goal_tolerates(const struct search_goal *b, const struct search_goal *a)
{
	/* a hair of slack: the products of ratios and sums are not exact */
	const double tol = 1e-9;
	double ga = (1 - a->exceed_ratio) * (double)a->sum_ns, gb = (1 - b->exceed_ratio) * (double)b->sum_ns;
	double ba = a->exceed_ratio * (double)a->sum_ns, bb = b->exceed_ratio * (double)b->sum_ns;

	if (b->loss_ratio < a->loss_ratio || b->exceed_ratio < a->exceed_ratio)
		return false;
	if (gb > ga * (1 + tol) || bb < ba * (1 - tol))
		return false;
	return b->final_ns == a->final_ns || (b->final_ns < a->final_ns && a->exceed_ratio == 0);
}
