/* A kernel image's header: the release read, anything else refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/kimage.h"

static uint8_t img[0x1000];

/* A bzImage's first page with protocol proto and a version string at
 * file offset 0x300 (pointer 0x100). */
static void make(unsigned int proto, const char *ver)
{
	memset(img, 0, sizeof(img));
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = (uint8_t)(proto & 0xff);
	img[0x207] = (uint8_t)(proto >> 8);
	if (ver) {
		img[0x20e] = 0x00;
		img[0x20f] = 0x01;
		memcpy(img + 0x300, ver, strlen(ver) + 1);
	}
}

static void release_read(void **state)
{
	struct kimage k;
	char err[200];
	(void)state;

	make(0x20f, "6.1.0-57-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC");
	assert_int_equal(kimage_parse(img, sizeof(img), &k, err, sizeof(err)), 0);
	assert_string_equal(k.release, "6.1.0-57-cloud-amd64");
	assert_int_equal(k.protocol, 0x20f);
	/* no version pointer: an image without a release, still a kernel */
	make(0x20f, NULL);
	assert_int_equal(kimage_parse(img, sizeof(img), &k, err, sizeof(err)), 0);
	assert_string_equal(k.release, "");
	/* control bytes never reach a terminal */
	make(0x20f, "6.1\x1b[31m x");
	assert_int_equal(kimage_parse(img, sizeof(img), &k, err, sizeof(err)), 0);
	assert_string_equal(k.release, "6.1?[31m");
}

static void not_a_kernel(void **state)
{
	struct kimage k;
	char err[200];
	(void)state;

	make(0x20f, "6.1");
	assert_int_equal(kimage_parse(img, 0x200, &k, err, sizeof(err)), -EINVAL);
	img[0x202] = 'X';
	assert_int_equal(kimage_parse(img, sizeof(img), &k, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a Linux kernel image"));
	make(0x205, "6.1");
	assert_int_equal(kimage_parse(img, sizeof(img), &k, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "2.06"));
	/* a pointer past the end: a kernel without a readable release */
	make(0x20f, "6.1");
	img[0x20f] = 0xff;
	assert_int_equal(kimage_parse(img, 0x400, &k, err, sizeof(err)), 0);
	assert_string_equal(k.release, "");
	/* a string that runs to the end of what was read is cut there */
	make(0x20f, "6.1.0-aaaaaaaaaaaaaaaa");
	assert_int_equal(kimage_parse(img, 0x305, &k, err, sizeof(err)), 0);
	assert_string_equal(k.release, "6.1.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(release_read),
		cmocka_unit_test(not_a_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
