/* The calibration writers (store/calib.c, sys/soak.c) replace their file
 * through a temporary one that nobody can plant beforehand: a symlink at
 * the name they once used (PATH.tmp.PID, predictable) must be neither
 * followed nor renamed into place, and the file comes out 0644 whatever
 * the umask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/soak_calib.h"
#include "store/calib.h"
#include "os/fs.h"
#include "dut/soak.h"

static char dir[64], victim[128];

static int setup(void **st)
{
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/wr-tmpfile.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_non_null(f = fopen(victim, "w"));
	fputs("precious\n", f);
	fclose(f);
	umask(077);
	return 0;
}

static int teardown(void **st)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* Symlinks to the victim at PATH.tmp.N for our pid and the pids around
 * it, and at a few of mkstemp's own shape for good measure. */
static void plant(const char *path)
{
	char link[256];

	for (int d = -5; d <= 5; d++) {
		snprintf(link, sizeof(link), "%s.tmp.%d", path, (int)getpid() + d);
		assert_int_equal(symlink(victim, link), 0);
	}
	snprintf(link, sizeof(link), "%s.tmp.XXXXXX", path);
	assert_int_equal(symlink(victim, link), 0);
}

/* The victim as it was, path a plain 0644 file, every planted link still
 * a link, and no temporary file left over. */
static void check_after(const char *path)
{
	char buf[64] = "", link[512];
	size_t base = strlen(strrchr(path, '/') + 1);
	struct dirent *e;
	struct stat sb;
	FILE *f;
	DIR *d;

	assert_non_null(f = fopen(victim, "r"));
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious\n");
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 0777, 0644);
	for (int dd = -5; dd <= 5; dd++) {
		snprintf(link, sizeof(link), "%s.tmp.%d", path, (int)getpid() + dd);
		assert_int_equal(lstat(link, &sb), 0);
		assert_true(S_ISLNK(sb.st_mode));
	}
	/* only the planted links carry the name's .tmp. */
	assert_non_null(d = opendir(dir));
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, strrchr(path, '/') + 1, base) || strncmp(e->d_name + base, ".tmp.", 5))
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, e->d_name);
		assert_int_equal(lstat(link, &sb), 0);
		assert_true(S_ISLNK(sb.st_mode));
	}
	closedir(d);
}

static void calib_no_follow(void **st)
{
	struct calib_entry e = { .port_type = "afpacket", .size = 64, .pps = 1e6, .rx_ok = true,
				 .when = 1700000000, .kernel = "6.1.0" }, got;
	char path[128], err[256];

	snprintf(path, sizeof(path), "%s/calibration", dir);
	plant(path);
	assert_int_equal(calib_store(path, &e, err, sizeof(err)), 0);
	check_after(path);
	assert_int_equal(calib_lookup(path, "afpacket", 64, &got, err, sizeof(err)), 0);
	assert_true(got.pps == 1e6);
	/* and again over the file now there */
	e.pps = 2e6;
	assert_int_equal(calib_store(path, &e, err, sizeof(err)), 0);
	check_after(path);
}

static void soak_no_follow(void **st)
{
	struct soak_calib c = { .kernel = "6.1.0", .cpu_model = "Test CPU", .work = SOAK_WORK,
				.when = 1700000000, .n = 1, .cpu = { 1 }, .rate = { 1e6 }, .spread = { 0.01 } };
	struct soak_calib got;
	char path[128], err[256];

	snprintf(path, sizeof(path), "%s/soak-calibration", dir);
	plant(path);
	assert_int_equal(soak_calibration_save(path, &c, err, sizeof(err)), 0);
	check_after(path);
	assert_int_equal(soak_calibration_load(path, &got, err, sizeof(err)), 0);
	assert_int_equal(got.n, 1);
	assert_true(got.rate[0] == 1e6);
}

static void tmp_open(void **st)
{
	char path[128], tmp[160], tmp2[160];
	struct stat sb;
	int fd, fd2;

	snprintf(path, sizeof(path), "%s/x", dir);
	assert_true((fd = fs_tmp_open(path, tmp, sizeof(tmp))) >= 0);
	assert_true((fd2 = fs_tmp_open(path, tmp2, sizeof(tmp2))) >= 0);
	assert_string_not_equal(tmp, tmp2);
	assert_int_equal(strncmp(tmp, path, strlen(path)), 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);
	close(fd);
	close(fd2);
	unlink(tmp);
	unlink(tmp2);
	assert_int_equal(fs_tmp_open(path, tmp, 8), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(calib_no_follow, setup, teardown),
		cmocka_unit_test_setup_teardown(soak_no_follow, setup, teardown),
		cmocka_unit_test_setup_teardown(tmp_open, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
