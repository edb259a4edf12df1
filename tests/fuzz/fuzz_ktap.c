/* libFuzzer target for ktap_print: a test point's line and the run's
 * environment come from a store and from the network (a label, a
 * peer's error). Whatever they hold, each line KTAP gets must be one of
 * its kinds (the header, a diagnostic, the plan, a result), with no
 * control byte in it, and the results counted and numbered as the plan
 * says. Build and run with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testpoint.h"
#include "render/ktap_print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

/* The next field of the input: bytes up to a 0x00 (at most max - 1). */
static void field(const uint8_t **d, size_t *n, char *out, size_t max)
{
	size_t k = 0;

	while (*n && **d && k + 1 < max) {
		out[k++] = (char)**d;
		(*d)++;
		(*n)--;
	}
	out[k] = '\0';
	if (*n) {
		(*d)++;
		(*n)--;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct testpoint_set s = { 0 };
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	unsigned int results = 0, plan = 0;
	FILE *f;

	field(&data, &size, s.env.label, sizeof(s.env.label));
	field(&data, &size, s.env.config, sizeof(s.env.config));
	field(&data, &size, s.env.target, sizeof(s.env.target));
	field(&data, &size, s.env.kernel, sizeof(s.env.kernel));
	while (size && s.n < 8) {
		char path[TESTPOINT_PATH_MAX];
		struct testpoint *t;

		field(&data, &size, path, sizeof(path));
		if (!(t = testpoint_add(&s, (enum testpoint_status)(path[0] & 0xff) % 6, "%s", path)))
			break;
		field(&data, &size, t->line, sizeof(t->line));
		field(&data, &size, t->unit, sizeof(t->unit));
		t->have_value = path[0] & 1;
		t->value = (double)size * 1.5 - 3;
	}
	if (!(f = open_memstream(&buf, &len)))
		goto out;
	CHECK(ktap_print(f, &s) == 0);
	fclose(f);
	for (size_t i = 0; i < len; i++)
		CHECK((unsigned char)buf[i] >= 0x20 || buf[i] == '\n');
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int num;

		if (!strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7)) {
			CHECK(sscanf(line + (line[0] == 'o' ? 3 : 7), "%u", &num) == 1 && num == ++results);
		} else if (!strncmp(line, "1..", 3)) {
			CHECK(sscanf(line + 3, "%u", &plan) == 1);
		} else {
			CHECK(!strcmp(line, "TAP version 13") || line[0] == '#');
			/* a diagnostic is never read as a subtest or a result */
			CHECK(strncmp(line, "# Subtest:", 10));
		}
	}
	CHECK(results == s.n && plan == s.n);
out:
	free(buf);
	testpoint_set_free(&s);
	return 0;
}
