/* The initramfs writer: entries, padding, names refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "core/cpio.h"

struct sink {
	char buf[4096];
	size_t n;
	int fail_at;		/* fail the write that would pass this many bytes; 0 = never */
};

static int sink_write(void *ctx, const void *b, size_t n)
{
	struct sink *s = ctx;

	if (s->fail_at && s->n + n > (size_t)s->fail_at)
		return -ENOSPC;
	if (s->n + n > sizeof(s->buf))
		return -E2BIG;
	memcpy(s->buf + s->n, b, n);
	s->n += n;
	return 0;
}

/* One header's fields as the kernel reads them. */
static unsigned long field(const char *h, int i)
{
	char f[9];

	memcpy(f, h + 6 + 8 * i, 8);
	f[8] = '\0';
	return strtoul(f, NULL, 16);
}

static void entries_and_padding(void **state)
{
	static struct sink s;
	struct cpio c;
	const char *h;
	(void)state;

	memset(&s, 0, sizeof(s));
	cpio_init(&c, sink_write, &s);
	assert_int_equal(cpio_add(&c, "bin", S_IFDIR | 0755, NULL, 0), 0);
	assert_int_equal(cpio_add(&c, "bin/x", S_IFREG | 0644, "hello", 5), 0);
	assert_int_equal(cpio_add(&c, "bin/sh", S_IFLNK | 0777, "busybox", 7), 0);
	assert_int_equal(cpio_end(&c), 0);
	assert_int_equal(s.n % 4, 0);
	/* first: the directory, name "bin" padded so the next header is aligned */
	assert_memory_equal(s.buf, "070701", 6);
	assert_int_equal(field(s.buf, 1), S_IFDIR | 0755);
	assert_int_equal(field(s.buf, 11), 4);	/* namesize with the NUL */
	assert_string_equal(s.buf + 110, "bin");
	h = s.buf + 116;			/* 110 + 4, already aligned */
	assert_memory_equal(h, "070701", 6);
	assert_int_equal(field(h, 6), 5);	/* file size */
	assert_string_equal(h + 110, "bin/x");
	assert_memory_equal(h + 116, "hello", 5);	/* 110 + 6 = 116 */
	/* the data padded to 4: the symlink's header follows at +124 */
	assert_memory_equal(h + 124, "070701", 6);
	assert_int_equal(field(h + 124, 1), S_IFLNK | 0777);
	assert_non_null(memmem(s.buf, s.n, "TRAILER!!!", 10));
	/* inode numbers distinct */
	assert_int_not_equal(field(s.buf, 0), field(h, 0));
}

static void names_refused(void **state)
{
	static struct sink s;
	struct cpio c;
	(void)state;

	memset(&s, 0, sizeof(s));
	cpio_init(&c, sink_write, &s);
	assert_int_equal(cpio_add(&c, "/etc/x", S_IFREG | 0644, "a", 1), -EINVAL);
	assert_int_equal(cpio_add(&c, "a/../../x", S_IFREG | 0644, "a", 1), -EINVAL);
	assert_int_equal(cpio_add(&c, "..", S_IFDIR | 0755, NULL, 0), -EINVAL);
	assert_int_equal(cpio_add(&c, "", S_IFREG | 0644, "a", 1), -EINVAL);
	assert_int_equal(cpio_add(&c, "dev/null", S_IFCHR | 0666, NULL, 0), -EINVAL);
	/* "..x" is a name, not a climb */
	assert_int_equal(cpio_add(&c, "a/..x", S_IFREG | 0644, "a", 1), 0);
	assert_int_equal(s.n % 4, 0);
}

static void failure_sticks(void **state)
{
	static struct sink s;
	struct cpio c;
	(void)state;

	memset(&s, 0, sizeof(s));
	s.fail_at = 200;
	cpio_init(&c, sink_write, &s);
	assert_int_equal(cpio_add(&c, "a", S_IFREG | 0644, "x", 1), 0);
	assert_int_equal(cpio_add(&c, "b", S_IFREG | 0644, "y", 1), -ENOSPC);
	assert_int_equal(cpio_add(&c, "c", S_IFREG | 0644, "z", 1), -ENOSPC);
	assert_int_equal(cpio_end(&c), -ENOSPC);
}

static void file_in_pieces(void **state)
{
	static struct sink a, b;
	struct cpio c1, c2;
	(void)state;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	cpio_init(&c1, sink_write, &a);
	cpio_init(&c2, sink_write, &b);
	assert_int_equal(cpio_add(&c1, "f", S_IFREG | 0600, "abcdefg", 7), 0);
	assert_int_equal(cpio_file_begin(&c2, "f", S_IFREG | 0600, 7), 0);
	assert_int_equal(cpio_data(&c2, "abc", 3), 0);
	assert_int_equal(cpio_data(&c2, "defg", 4), 0);
	assert_int_equal(cpio_pad(&c2), 0);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.buf, b.buf, a.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries_and_padding),
		cmocka_unit_test(names_refused),
		cmocka_unit_test(failure_sticks),
		cmocka_unit_test(file_in_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
