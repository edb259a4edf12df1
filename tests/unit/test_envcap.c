/* Environment capture on a fixture host tree (tests/fixtures/env). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dut/envcap.h"

static struct envcap e;

static void host(void **st)
{
	memset(&e, 0, sizeof(e));
	envcap_host(&e, FIXTURES);
	assert_string_equal(envcap_kv_get(&e, "kernel.release"), "6.1.0-99-amd64");
	assert_string_equal(envcap_kv_get(&e, "kernel.cmdline"), "BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro isolcpus=1");
	assert_string_equal(envcap_kv_get(&e, "cpu.model"), "Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz");
	assert_string_equal(envcap_kv_get(&e, "cpu.count"), "3");
	assert_string_equal(envcap_kv_get(&e, "cpu.online"), "0-2");
	assert_non_null(envcap_kv_get(&e, "wirerate.version"));
	assert_non_null(envcap_kv_get(&e, "wirerate.revision"));
	assert_null(envcap_kv_get(&e, "no.such.key"));
	/* a fixture tree is not this host: no CPUs measured */
	assert_null(envcap_kv_get(&e, "cpu.line_ns"));
}

/* This host: how far apart its CPUs are, measured. */
static void host_live(void **st)
{
	const char *v;
	int a, b;
	double ns;

	memset(&e, 0, sizeof(e));
	envcap_host(&e, NULL);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		assert_null(envcap_kv_get(&e, "cpu.line_ns"));
		return;
	}
	v = envcap_kv_get(&e, "cpu.line_ns");
	assert_non_null(v);
	assert_int_equal(sscanf(v, "%d-%d:%lf", &a, &b, &ns), 3);
	assert_true(a != b && ns > 1 && ns < 100000);
}

static void port_irqs_and_rps(void **st)
{
	memset(&e, 0, sizeof(e));
	/* No such interface here: the ioctls fail and say so. */
	envcap_port(&e, "tx", -1, "eth9", FIXTURES, true);
	assert_string_equal(envcap_kv_get(&e, "port.tx.name"), "eth9");
	assert_string_equal(envcap_kv_get(&e, "port.tx.irqs"), "30:0 31:1 32:?");
	assert_string_equal(envcap_kv_get(&e, "port.tx.rps"), "00000000,00000006");
	assert_string_equal(envcap_kv_get(&e, "port.tx.driver"), "unknown");
	assert_string_equal(envcap_kv_get(&e, "port.tx.rings"), "not readable");
	envcap_port(&e, "rx", -1, "eth7", FIXTURES, true);
	assert_string_equal(envcap_kv_get(&e, "port.rx.irqs"), "none");
	assert_null(envcap_kv_get(&e, "port.rx.rps"));
}

/* A virtio NIC's IRQs go by its device's name: its queues' are its own
 * (not the config one's, nor virtio10's). */
static void virtio_irqs(void **st)
{
	long irqs[8];

	(void)st;
	assert_int_equal(envcap_irqs_of(FIXTURES, "ens3", irqs, 8), 2);
	assert_int_equal(irqs[0], 51);
	assert_int_equal(irqs[1], 52);
	memset(&e, 0, sizeof(e));
	envcap_port(&e, "tx", -1, "ens3", FIXTURES, true);
	assert_string_equal(envcap_kv_get(&e, "port.tx.irqs"), "51:0 52:1");
	/* a port with no device link keeps to its own name */
	assert_int_equal(envcap_irqs_of(FIXTURES, "eth9", irqs, 8), 3);
}

static void set_replace_config(void **st)
{
	char cfg[256];

	memset(&e, 0, sizeof(e));
	envcap_kv_set(&e, "lab.placement", "%s", "free");
	envcap_kv_set(&e, "lab.placement", "%s", "bound");
	envcap_kv_set(&e, "lab.rules", "%d", 10);
	envcap_kv_set(&e, "lab.dut_cpu_count", "%u", 1u);
	envcap_kv_set(&e, "run.flows", "%u", 16u);
	assert_int_equal(e.n, 4);
	envcap_config(&e, cfg, sizeof(cfg));
	assert_string_equal(cfg, "placement=bound rules=10 dut-cpus=1 flows=16");
	/* the default queues and ingress are left out (runs stored before
	 * they were recorded read the same); others are shown */
	envcap_kv_set(&e, "lab.queues", "%u", 1u);
	envcap_kv_set(&e, "lab.ingress", "%s", "napi");
	envcap_config(&e, cfg, sizeof(cfg));
	assert_string_equal(cfg, "placement=bound rules=10 dut-cpus=1 flows=16");
	envcap_kv_set(&e, "lab.queues", "%u", 2u);
	envcap_kv_set(&e, "lab.ingress", "%s", "skb");
	envcap_config(&e, cfg, sizeof(cfg));
	assert_string_equal(cfg, "placement=bound rules=10 dut-cpus=1 queues=2 ingress=skb flows=16");
	for (unsigned int i = 0; i < ENVCAP_MAX + 10; i++) {
		char k[32];

		snprintf(k, sizeof(k), "k%u", i);
		envcap_kv_set(&e, k, "%u", i);
	}
	assert_int_equal(e.n, ENVCAP_MAX);	/* full: dropped, not overflowed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host), cmocka_unit_test(host_live), cmocka_unit_test(port_irqs_and_rps), cmocka_unit_test(virtio_irqs),
		cmocka_unit_test(set_replace_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
