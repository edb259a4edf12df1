/* One device under test, whatever it is: the embedded lab (its DUT
 * namespace), this host, or a box reached over OpenSSH. Every kind speaks
 * the same agent protocol (docs/agent.md) to a `wirerate agent` process:
 * over pipes to a child that entered the lab's DUT namespace, to a child
 * on this host, or to the one ssh(1) started on the DUT. So the lab and a
 * real box share one code path: the same snapshot, soak, environment and
 * apply/restore, and one output.
 *
 *   dut_open(&target, ifnames, n, &d, err, len);   hello: version, env
 *   dut_snapshot(d, &before) ... traffic ... dut_snapshot(d, &after)
 *   dut_close(d);    restores what dut_apply changed, ends the agent
 */
#ifndef WR_DUT_DUT_H
#define WR_DUT_DUT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "core/duttarget.h"

#include <json-c/json.h>

struct dut;
struct envcap;
struct soak_calib_busy;

/* Start the agent for target and say hello; ifnames are the DUT's ports
 * whose counters, rings, queues and IRQs the agent reports (the lab's are
 * known without them). -errno with a one-line reason: the agent missing on
 * the DUT (naming what to install), another protocol version, a host that
 * did not answer within the connect timeout. */
int dut_open(const struct dut_target *t, const char *const *ifnames, unsigned int nif,
	     struct dut **out, char *err, size_t errlen);
/* The DUT's environment from its hello (dut.kernel.release, ...). */
const struct envcap *dut_env(const struct dut *d);
/* "lab wr-", "local", "ssh:router1". */
const char *dut_name(const struct dut *d);
/* What the agent said it is in its hello ("wirerate 0.9.0"), printable. */
const char *dut_agent(const struct dut *d);
/* Whether its hello said it supports what (an agent_ext's name:
 * "stream"); an older agent says nothing of it. */
bool dut_supports(const struct dut *d, const char *what);
/* One request of an op a layer above owns (agent_ext), req consumed;
 * the answer (the caller puts it) within timeout_ms (0: the default),
 * *rc 0, -EINVAL when the agent said the request was wrong ("invalid"),
 * -EIO when it said no, another -errno when it did not answer. */
json_object *dut_ask(struct dut *d, json_object *req, unsigned int timeout_ms, int *rc, char *err, size_t errlen);

/* The DUT's counters now; free with dutsnap_clear. */
int dut_snapshot(struct dut *d, struct dutsnap *s, char *err, size_t errlen);

struct procstat_sample;
/* The DUT's /proc now, parsed as procstat_read parses this host's, stamped
 * with the DUT's clock; irq_filter as there. */
int dut_procstat(struct dut *d, const char *irq_filter, struct procstat_sample *p, char *err, size_t errlen);

/* The soak of cpus on the DUT, with the calibration kept there. */
struct soak_idle;
/* calib_path: the calibration file for the lab and this host (NULL: the
 * agent's default); a DUT over SSH always uses its own default. check
 * (may be NULL) gets the idle check the agent made of that calibration
 * before it soaked (dut/soak.h soak_check_idle), *checked whether it
 * made one. */
int dut_soak_start(struct dut *d, const struct cpuset *cpus, const char *calib_path, struct soak_idle *check,
		   bool *checked, char *err, size_t errlen);
int dut_soak_read(struct dut *d, struct soak_calib_busy *l, char *err, size_t errlen);
int dut_soak_stop(struct dut *d, char *err, size_t errlen);

/* The stall probe (dut/stallprobe.h) on cpus of the DUT, from start to
 * read; read ends it. */
struct stallprobe_result;
int dut_stall_start(struct dut *d, const struct cpuset *cpus, char *err, size_t errlen);
int dut_stall_read(struct dut *d, struct stallprobe_result *r, char *err, size_t errlen);

/* A sampling profile (dut/profile.h) of cpus of the DUT at hz (0: the
 * default), from start to read; read ends it and gives at most top
 * entries. */
struct profile_result;
/* prepare: make it ready before the window (the DUT reads its symbols
 * once, which takes a while); start then only turns sampling on (it
 * prepares too when not prepared). */
int dut_profile_prepare(struct dut *d, const struct cpuset *cpus, unsigned int hz, char *err, size_t errlen);
int dut_profile_start(struct dut *d, const struct cpuset *cpus, unsigned int hz, char *err, size_t errlen);
int dut_profile_read(struct dut *d, unsigned int top, struct profile_result *r, char *err, size_t errlen);

/* The matrix axes a real box has: IRQ placement of the named ports over
 * cpus, and null firewall rules in an nft table of the agent's own. The
 * agent restores what it changed on dut_restore, on dut_close, and on its
 * own when the connection drops. */
enum dut_placement { DUT_PLACE_KEEP, DUT_PLACE_BOUND, DUT_PLACE_SPLIT, DUT_PLACE_FREE };
struct dut_apply {
	enum dut_placement placement;
	struct cpuset cpus;		/* the CPUs placement spreads over */
	bool rules_set;
	unsigned int rules;
	/* placement by IRQ asked for (stream --irq-cpus): ports with no IRQ
	 * to place (veth) are refused, not placed by RPS alone */
	bool need_irqs;
};
/* what: the agent's account of what it changed ("placement bound (2 IRQs,
 * RPS of 2 ports), 100 null rules"). */
int dut_apply(struct dut *d, const struct dut_apply *a, char *what, size_t whatlen, char *err, size_t errlen);
int dut_restore(struct dut *d, char *err, size_t errlen);

/* Run argv on the DUT (a VM lab's guest only: other agents refuse) for
 * at most timeout_ms; its exit status and its stdout and stderr
 * (malloc'd, the first AGENTEXEC_OUTPUT_MAX bytes) come back. */
int dut_exec(struct dut *d, char *const *argv, unsigned int timeout_ms, int *status, char **output,
	     char *err, size_t errlen);

/* Restore, end the agent and free; NULL is fine. */
void dut_close(struct dut *d);

#endif
