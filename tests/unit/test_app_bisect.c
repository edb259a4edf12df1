/* bisect's policy in the app: the figure against the measurement's
 * test, the kernel each candidate boots, and the tree it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/bisect_run.h"
#include "app/bisect_source.h"

static char err[512];

/* The test's own figure by default; one of the other test's refused. */
static void figure(void **st)
{
	enum bisect_figure f;

	(void)st;
	assert_int_equal(app_bisect_run_figure(NULL, "trial", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_FORWARDED);
	assert_int_equal(app_bisect_run_figure(NULL, "rfc2544", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_NDR);
	assert_int_equal(app_bisect_run_figure("pdr", "rfc2544", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_PDR);
	assert_int_equal(app_bisect_run_figure("cpu-per-frame", "trial", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_CPU);
	assert_int_equal(app_bisect_run_figure("speed", "trial", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--figure 'speed': ndr, pdr, forwarded, cpu-per-frame, received or service-demand");
	assert_int_equal(app_bisect_run_figure("ndr", "trial", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--figure ndr is an rfc2544 throughput figure, and the measurement is trial");
	assert_int_equal(app_bisect_run_figure("forwarded", "rfc2544", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--figure forwarded is a trial's figure (forwarded, cpu-per-frame), and the "
				 "measurement is rfc2544");
	/* a stream's: received by default, service-demand; neither of another test */
	assert_int_equal(app_bisect_run_figure(NULL, "stream", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_RECEIVED);
	assert_int_equal(app_bisect_run_figure("service-demand", "stream", &f, err, sizeof(err)), 0);
	assert_int_equal(f, BISECT_FIG_DEMAND);
	assert_int_equal(app_bisect_run_figure("forwarded", "stream", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--figure forwarded is a trial's figure (forwarded, cpu-per-frame), and the "
				 "measurement is stream");
	assert_int_equal(app_bisect_run_figure("service-demand", "trial", &f, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--figure service-demand is a stream's figure (received, service-demand), and the "
				 "measurement is trial");
}

/* A kernel of the list, or the build's image and modules in the tree;
 * none when the lab keeps the host's kernel. */
static void kernel(void **st)
{
	struct app_bisect_cand c[2] = { { .id = "6.1.0-1-cloud-amd64" }, { .id = "6.1.0-2-cloud-amd64" } };
	struct app_bisect b = { .c = c, .n = 2 };
	char k[4200], m[4200];

	(void)st;
	snprintf(b.spec.kernels, sizeof(b.spec.kernels), "6.1.0-1-cloud-amd64,6.1.0-2-cloud-amd64");
	app_bisect_source_kernel(&b, 1, k, sizeof(k), m, sizeof(m));
	assert_string_equal(k, "6.1.0-2-cloud-amd64");
	assert_string_equal(m, "");
	b.spec.kernels[0] = '\0';
	snprintf(b.spec.tree, sizeof(b.spec.tree), "/src/linux");
	snprintf(b.spec.boot, sizeof(b.spec.boot), "arch/x86/boot/bzImage");
	snprintf(b.spec.modules, sizeof(b.spec.modules), "mod");
	app_bisect_source_kernel(&b, 0, k, sizeof(k), m, sizeof(m));
	assert_string_equal(k, "/src/linux/arch/x86/boot/bzImage");
	assert_string_equal(m, "/src/linux/mod");
	/* a lab of the host's kernel (--lab alone) */
	b.spec.boot[0] = '\0';
	app_bisect_source_kernel(&b, 0, k, sizeof(k), m, sizeof(m));
	assert_string_equal(k, "");
	assert_string_equal(m, "");
}

static void tree(void **st)
{
	char t[64];

	(void)st;
	snprintf(t, sizeof(t), "/nonexistent/wirerate-tree");
	assert_int_equal(app_bisect_source_tree(t, sizeof(t), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tree /nonexistent/wirerate-tree: No such file or directory");
	/* its full path must fit the spec's */
	snprintf(t, 2, "/");
	assert_int_equal(app_bisect_source_tree(t, 1, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tree: a path too long");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figure),
		cmocka_unit_test(kernel),
		cmocka_unit_test(tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
