/* The children's command lines: what the app asks for, in the words each
 * command takes; the test's own words first, as the user gave them. */
#include "cli/child_args.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/matrix_plan.h"
#include "cli/cli.h"

/* The words, counted (argv NULL) or copied after argv's pointers. */
struct line {
	char **argv;
	char *at;
	int n;
	size_t size;
};

static void put(struct line *l, const char *w)
{
	size_t len = strlen(w) + 1;

	if (l->argv) {
		memcpy(l->at, w, len);
		l->argv[l->n] = l->at;
		l->at += len;
	}
	l->n++;
	l->size += len;
}

static void put_opt(struct line *l, const char *opt, const char *v)
{
	if (!v)
		return;
	put(l, opt);
	put(l, v);
}

static bool has(char *const *words, int n, const char *opt)
{
	for (int i = 0; i < n; i++)
		if (child_args_is(words[i], opt))
			return true;
	return false;
}

static void test_words(struct line *l, const struct app_child *w)
{
	char num[24];

	for (int i = 0; i < w->nwords; i++)
		put(l, w->words[i]);
	if (!has(w->words, w->nwords, "--prefix"))
		put_opt(l, "--prefix", w->prefix);
	if (w->repeat) {
		snprintf(num, sizeof(num), "%u", w->repeat);
		put_opt(l, "--repeat", num);
	}
	put_opt(l, "--label", w->label);
	if (w->round) {
		snprintf(num, sizeof(num), "%u", w->round);
		put_opt(l, "--round", num);
	}
	for (int t = 0; t < w->ntags; t++)
		put_opt(l, "--tag", w->tags[t]);
	put_opt(l, "--db", w->db);
	put_opt(l, "--dut-placement", w->placement);
	put_opt(l, "--dut-rules", w->rules);
}

static void report_words(struct line *l, const struct app_child *w)
{
	char id[24];

	put(l, "report");
	for (int i = 0; i < w->nruns; i++) {
		snprintf(id, sizeof(id), "%" PRId64, w->runs[i]);
		put(l, id);
	}
	put_opt(l, "--db", w->db);
	put_opt(l, "--html", w->html);
	put_opt(l, "--fail-on-regression", w->fail_pct);
}

static void words(struct line *l, const struct app_child *w)
{
	put(l, "wirerate");
	if (w->json)
		put(l, "--json");
	if (w->cmd == APP_CHILD_REPORT)
		report_words(l, w);
	else
		test_words(l, w);
}

char **child_args_build(void *ctx, const struct app_child *what)
{
	struct line l = { 0 };
	size_t room;

	(void)ctx;
	words(&l, what);
	room = ((size_t)l.n + 1) * sizeof(char *);
	if (!(l.argv = malloc(room + l.size)))
		return NULL;
	l.at = (char *)l.argv + room;
	l.n = 0;
	words(&l, what);
	l.argv[l.n] = NULL;
	return l.argv;
}

bool child_args_is(const char *word, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(word, opt, n) && (!word[n] || word[n] == '=');
}

bool child_args_remote(char *const *test, int ntest)
{
	for (int i = 0; i < ntest; i++) {
		const char *v = NULL;

		if (!strcmp(test[i], "--dut") && i + 1 < ntest)
			v = test[i + 1];
		else if (!strncmp(test[i], "--dut=", 6))
			v = test[i] + 6;
		if (v && strcmp(v, "lab") && strncmp(v, "lab:", 4))
			return true;
	}
	return false;
}

/* Whether a test option is one the matrix sets itself. */
static bool matrix_sets(const char *word, bool remote)
{
	/* The lab's matrix sets the ports; a real DUT's matrix sets what it
	 * changes on the DUT, and the test names the ports and the DUT. */
	static const char *const lab[] = { "--prefix", "--tx", "--rx", "--label", "--round", "--db", "--no-store",
					   "--json", "-j", "--dst-mac", NULL };
	static const char *const dut[] = { "--prefix", "--label", "--round", "--db", "--no-store", "--json", "-j",
					   "--dut-placement", "--dut-rules", NULL };
	const char *const *taken = remote ? dut : lab;

	/* Option names are exact (no abbreviations), with or without =. */
	for (int k = 0; taken[k]; k++)
		if (child_args_is(word, taken[k]))
			return true;
	return false;
}

/* The test's --repeat N taken out of its words (*ntest fewer), N in
 * *repeat (0: none): OPT_EXIT with *status when N is no number of rounds. */
static enum opt_result take_repeat(char **test, int *ntest, unsigned int *repeat, int *status)
{
	for (int i = 1; i < *ntest; i++) {
		const char *v = NULL;
		int words = 1;
		char *end;
		unsigned long n;

		if (!strcmp(test[i], "--repeat") && i + 1 < *ntest)
			v = test[i + 1], words = 2;
		else if (!strncmp(test[i], "--repeat=", 9))
			v = test[i] + 9;
		else
			continue;
		n = strtoul(v, &end, 10);
		if (!*v || *end || v[0] == '-' || n < 1 || n > APP_MATRIX_ROUNDS_MAX)
			return opt_fail(status, EXIT_USAGE, "matrix: the test's --repeat '%s': the matrix runs it as "
					"rounds, 1 to %d (or give --no-interleave)", v, APP_MATRIX_ROUNDS_MAX);
		*repeat = (unsigned int)n;
		memmove(test + i, test + i + words, (size_t)(*ntest - i - words) * sizeof(*test));
		*ntest -= words;
		i--;
	}
	return OPT_GO;
}

enum opt_result child_args_matrix(char **test, int *ntest, int ntags, bool rounds, bool *remote,
				  unsigned int *repeat, int *status)
{
	*repeat = 0;
	*remote = child_args_remote(test, *ntest);
	for (int i = 1; i < *ntest; i++) {
		/* the test would print its help and the matrix run on */
		if (!strcmp(test[i], "--help") || !strcmp(test[i], "-h"))
			return opt_fail(status, EXIT_USAGE,
					"matrix: %s among the test's options: for them, see 'wirerate %s --help'", test[i],
					test[0]);
		if (matrix_sets(test[i], *remote))
			return opt_fail(status, EXIT_USAGE,
					"matrix: %s is the matrix's to set, not the test's (see 'wirerate matrix --help')",
					test[i]);
	}
	if (rounds && take_repeat(test, ntest, repeat, status) == OPT_EXIT)
		return OPT_EXIT;
	/* the label, round, tag, store and lab the matrix adds, and the DUT's axes */
	if (*ntest + 2 * ntags + 14 > APP_MATRIX_ARGV_MAX)
		return opt_fail(status, EXIT_USAGE, "matrix: too many test options");
	return OPT_GO;
}
