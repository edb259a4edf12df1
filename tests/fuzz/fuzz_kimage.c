/* libFuzzer target for kimage_parse: a --kernel file is whatever the
 * user named. Any bytes must be read inside their length, and an
 * accepted image's release must be printable and within its bound.
 * Build and run with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/kimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kimage k;
	char err[256];
	uint8_t *copy = size ? malloc(size) : NULL;

	if (size && !copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	if (!kimage_parse(copy, size, &k, err, sizeof(err))) {
		CHECK(strlen(k.release) <= KIMAGE_RELEASE_MAX);
		for (const char *p = k.version; *p; p++)
			CHECK((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	}
	free(copy);
	return 0;
}
