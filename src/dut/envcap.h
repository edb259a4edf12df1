/* The environment of a run, as key/value pairs stored with it: the host
 * (kernel, command line, CPUs, wirerate's version), the ports (driver,
 * speed, offloads, rings, IRQs and their affinity, RPS masks) and the lab
 * (placement, rules, shape, MTU). Two runs that differ in any of these are
 * different configurations; the report says which. Readers of /proc and
 * /sys take a root so the tests can feed fixture trees. */
#ifndef WR_DUT_ENVCAP_H
#define WR_DUT_ENVCAP_H

#include <stdbool.h>
#include <stddef.h>

/* A run's record holds the tester's keys and the DUT's account of itself
 * (dut.*), which a hostile or broken agent may flood: the DUT's share is
 * bounded on its own (ENVCAP_DUT_MAX, its own keys past that dropped and
 * counted in dut.env_dropped), so the tester's keys keep the 256 they had
 * before there was a DUT. */
#define ENVCAP_DUT_MAX 128
#define ENVCAP_MAX (256 + ENVCAP_DUT_MAX)
#define ENVCAP_KEY 48
#define ENVCAP_VALUE 256

struct envcap {
	struct {
		char key[ENVCAP_KEY];
		char value[ENVCAP_VALUE];
	} kv[ENVCAP_MAX];
	unsigned int n;
};

/* Set key (replacing an earlier value); silently dropped when full. */
void envcap_kv_set(struct envcap *e, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The value of key, or NULL. */
const char *envcap_kv_get(const struct envcap *e, const char *key);

/* kernel.release, kernel.cmdline, cpu.model, cpu.count, cpu.online,
 * wirerate.version, wirerate.revision; on this host (root NULL or "/")
 * also cpu.line_ns, one cache line's time from the first CPU to each
 * other one (sys/cpulat.h, up to ENVCAP_LINE_PAIRS: "0-1:43.2 0-2:51.0"). */
#define ENVCAP_LINE_PAIRS 8
void envcap_host(struct envcap *e, const char *root);

/* port.<name>.*: driver, speed, offloads and rings through ethtool ioctls
 * in the namespace behind nsfd (-1: ours); irqs with their affinity from
 * root/proc/interrupts ("none" when the port has none, as veth); rps from
 * root/sys/class/net when sys_rps (it must show the port's namespace). */
void envcap_port(struct envcap *e, const char *name, int nsfd, const char *ifname,
		 const char *root, bool sys_rps);

/* The IRQ numbers whose /proc/interrupts line names ifname ("eth1",
 * "eth1-TxRx-0"), at most max; their count or -errno. */
int envcap_irqs_of(const char *root, const char *ifname, long *irqs, unsigned int max);

/* lab.*: placement, rules in the forward path, DUT CPUs, shape, MTU, the
 * RPS masks of the DUT's ports, and each lab port as envcap_port does. */
int envcap_lab(struct envcap *e, const char *prefix, char *err, size_t errlen);

/* The configuration in a few words, one key=value per axis, from what was
 * captured: "placement=bound rules=0 dut-cpus=1 mtu=1500 shape=20kpps". */
void envcap_config(const struct envcap *e, char *buf, size_t len);

#endif
