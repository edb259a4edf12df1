/* lab's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed with the action and checked. */
#include "cli/lab_args.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/units.h"
#include "lab/lab.h"
#include "app/lab_run.h"

#define LA(field) OPT_FIELD(struct lab_args, spec.field)

static int set_prefix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	if ((rc = lab_prefix_check(v, err, errlen)))
		return rc;
	snprintf(la->spec.prefix, sizeof(la->spec.prefix), "%s", v);
	return 0;
}

static int set_dut_cpus(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	snprintf(la->dut_cpus, sizeof(la->dut_cpus), "%.*s", (int)sizeof(la->dut_cpus) - 1, v);
	if ((rc = cpuset_parse_list(v, &la->spec.dut_cpus, err, errlen)))
		return rc;
	if (!cpuset_count(&la->spec.dut_cpus)) {
		snprintf(err, errlen, "give at least one CPU, e.g. 1 or 1-3");
		return -EINVAL;
	}
	la->up_only = opt;
	return 0;
}

static int set_placement(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;

	if (lab_placement_parse(v, &la->spec.placement)) {
		snprintf(err, errlen, "--placement '%s': expected bound, split or free", v);
		return -EINVAL;
	}
	la->up_only = opt;
	return 0;
}

static int set_shape(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	int rc;

	if ((rc = units_rate_parse(v, &la->spec.shape_rate, err, errlen)))
		return rc;
	la->spec.shape = true;
	la->up_only = opt;
	return 0;
}

static int set_mtu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	char why[256];
	int rc;

	if ((rc = opt_set_uint(ctx, opt, v, why, sizeof(why)))) {
		snprintf(err, errlen, "%s (9000 carries 9018-byte frames)", why);
		return rc;
	}
	la->up_only = opt;
	return 0;
}

/* --rules, --queues, --ports: a number in range */
static int set_up_uint(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_set_uint(ctx, opt, v, err, errlen);

	if (!rc)
		((struct lab_args *)ctx)->up_only = opt;
	return rc;
}

static int set_no_xdp(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	((struct lab_args *)ctx)->up_only = opt;
	return opt_set_true(ctx, opt, v, err, errlen);
}

/* --kernel, --modules, --kernel-cmdline: a string of at most max bytes */
static int set_vm_str(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct lab_args *la = ctx;
	char *dst = (char *)ctx + opt->off;

	if (!*v || strlen(v) > (size_t)opt->max) {
		snprintf(err, errlen, "--%s: give 1 to %lld characters", opt->name, (long long)opt->max);
		return -EINVAL;
	}
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "--%s: no control characters", opt->name);
			return -EINVAL;
		}
	memcpy(dst, v, strlen(v) + 1);
	la->up_only = opt;
	if (strcmp(opt->name, "kernel"))
		la->vm_only = opt;
	return 0;
}

static int set_vm_uint(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_set_uint(ctx, opt, v, err, errlen);

	if (!rc) {
		((struct lab_args *)ctx)->up_only = opt;
		((struct lab_args *)ctx)->vm_only = opt;
	}
	return rc;
}

static int set_vm_flag(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	((struct lab_args *)ctx)->up_only = opt;
	((struct lab_args *)ctx)->vm_only = opt;
	return opt_set_true(ctx, opt, v, err, errlen);
}

static const struct opt lab_opts[] = {
	{ OPT_CUSTOM("prefix", OPT_VALUE, "P", set_prefix, "namespace name prefix: labs side by side"),
	  .group = "options", .def = "wr-" },
	{ OPT_CUSTOM("dut-cpus", OPT_VALUE, "LIST", set_dut_cpus,
		     "CPUs that do the DUT's forwarding (default: the last one);\n"
		     "with --kernel, N: the VM's number of vCPUs (default 1)"),
	  .group = "lab up only" },
	{ OPT_CUSTOM("placement", OPT_VALUE, "MODE", set_placement,
		     "bound: both directions on the first DUT CPU\n"
		     "split: each direction on a DUT CPU of its own\n"
		     "free:  spread over all DUT CPUs by flow hash"),
	  .def = "bound" },
	{ OPT_CUSTOM("rules", OPT_VALUE, "N", set_up_uint,
		     "N firewall rules that match nothing in the forward path (0..100000)"),
	  .off = LA(rules), .max = 100000 },
	{ OPT_CUSTOM("shape", OPT_VALUE, "RATE", set_shape,
		     "cap the DUT at RATE (e.g. 50kpps or 100Mbit) with a token bucket") },
	{ OPT_CUSTOM("mtu", OPT_VALUE, "N", set_mtu,
		     "MTU of the lab's links, 1280..9000 (9000 for\n"
		     "frames up to 9018 bytes)"),
	  .def = "1500", .off = LA(mtu), .min = LAB_MTU_MIN, .max = LAB_MTU_MAX },
	{ OPT_CUSTOM("queues", OPT_VALUE, "N", set_up_uint,
		     "transmit and receive queues of every lab port, 1..8:\n"
		     "a generator thread each ('trial --gen-cpu LIST'), and the DUT's\n"
		     "receive spread over its CPUs queue by queue, like a NIC's RSS"),
	  .def = "1", .off = LA(queues), .min = 1, .max = LAB_QUEUES_MAX },
	{ OPT_CUSTOM("ports", OPT_VALUE, "N", set_up_uint,
		     "parallel forwarding paths through the DUT, 1..4: path P is\n"
		     "genP -> dut(2P) | dut(2P+1) -> sinkP, on 198.18.P.0/24 and\n"
		     "198.19.P.0/24 (path 0: gen0, dut0, dut1, sink0)"),
	  .def = "1", .off = LA(ports), .min = 1, .max = LAB_PORTS_MAX },
	{ OPT_CUSTOM("no-xdp", OPT_NOARG, NULL, set_no_xdp,
		     "leave the DUT's ports in skb mode (by default they run an XDP\n"
		     "pass-through with threaded NAPI on the DUT CPUs, so an\n"
		     "overloaded DUT drops from its receive ring like a NIC)"),
	  .off = LA(no_xdp) },
	{ NULL },
};

/* The DUT as a virtual machine booting a kernel of the user's choice. */
static const struct opt lab_vm_opts[] = {
	{ OPT_CUSTOM("kernel", OPT_VALUE, "KERNEL", set_vm_str,
		     "boot the DUT from KERNEL under QEMU (KVM when /dev/kvm works,\n"
		     "else TCG): a kernel image file (arch/x86/boot/bzImage), or a\n"
		     "Debian kernel package version (6.1.0-57-cloud-amd64,\n"
		     "'6.12.*-rt-amd64'), fetched with apt-get into the cache"),
	  .group = "lab up: a VM as the DUT (docs/vm-dut.md)", .off = LA(kernel), .max = LAB_PATH_MAX },
	{ OPT_CUSTOM("modules", OPT_VALUE, "DIR", set_vm_str,
		     "the modules of a kernel file: DIR/lib/modules/RELEASE (from\n"
		     "make modules_install INSTALL_MOD_PATH=DIR) or the release's directory"),
	  .off = LA(modules), .max = LAB_PATH_MAX },
	{ OPT_CUSTOM("kernel-cmdline", OPT_VALUE, "ARGS", set_vm_str,
		     "added to the guest kernel's command line (maxcpus=1, threadirqs,\n"
		     "mitigations=off, ...)"),
	  .off = LA(cmdline), .max = LAB_CMDLINE_MAX },
	{ OPT_CUSTOM("dut-memory", OPT_VALUE, "MIB", set_vm_uint, "the VM's memory in MiB"),
	  .def = "512", .off = LA(memory_mib), .min = LAB_VM_MEMORY_MIN, .max = LAB_VM_MEMORY_MAX },
	{ OPT_CUSTOM("soak-calibrate", OPT_NOARG, NULL, set_vm_flag,
		     "the guest measures its soak's idle rate as it boots (about 10 s\n"
		     "under TCG), so that --soak and 'soak --dut lab' work on the VM"),
	  .off = LA(soak_calibrate) },
	{ OPT_CUSTOM("boot-timeout", OPT_VALUE, "S", set_vm_uint,
		     "seconds the VM may take to boot to its agent (then its console's\n"
		     "last lines say why it did not)"),
	  .def = "90", .off = LA(boot_timeout_s), .min = 1, .max = 3600 },
	{ NULL },
};

static const struct opt *const lab_tables[] = { lab_opts, lab_vm_opts, NULL };

const struct opt_cmd lab_cmd = {
	.name = "lab",
	.synopsis = "up|down|status [OPTIONS] | exec [--prefix P] -- CMD [ARGS...]",
	.about = "  up       build the lab (or repair it; safe to repeat)\n"
		 "  down     remove the lab, also a half-built one\n"
		 "  status   topology, CPU placement, rules, shaping and counters\n"
		 "  exec     run CMD in the DUT: its namespace, or a VM lab's guest\n",
	.tables = lab_tables,
	.bare_errors = true,
};

void lab_args_init(struct lab_args *la)
{
	*la = (struct lab_args){ .spec = { .placement = PLACE_BOUND } };
	snprintf(la->spec.prefix, sizeof(la->spec.prefix), "%s", LAB_PREFIX_DEFAULT);
}

const struct opt *lab_args_opt(const char *name)
{
	for (int t = 0; lab_tables[t]; t++)
		for (const struct opt *o = lab_tables[t]; o->name; o++)
			if (!strcmp(o->name, name))
				return o;
	return NULL;
}

enum opt_result lab_args_set(struct lab_args *la, const struct opt *o, const char *value, int *status)
{
	char err[768];

	/* as opt_parse says a setter's reason for lab (bare_errors) */
	if (opt_apply(o, la, value, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "%s", err);
	return OPT_GO;
}

enum opt_result lab_args_options(struct cli *cli, struct lab_args *la, int argc, char **argv, int *status)
{
	void *ctx[] = { la, la };
	int rc;

	/* the action is a word among the options: all of them gathered, so
	 * that none or two get lab's own message */
	if ((rc = opt_parse_words(&lab_cmd, ctx, cli, argc, argv, &la->words, &la->nwords)))
		return opt_exit(status, opt_status(rc));
	return OPT_GO;
}

void lab_args_free(struct lab_args *la)
{
	free(la->words);
	la->words = NULL;
	la->nwords = 0;
}

/* The words among the options (args, malloc'd with room for a NULL after
 * them: freed, or handed out as *cmd) and the checks of what was given
 * with them (la, a copy: *out is its spec), as lab_args_parse says. */
static enum opt_result finish(struct lab_args la, char **args, int nargs, struct lab_spec *out, const char **action,
			      char ***cmd, int *status)
{
	enum app_lab_action act;
	char err[512];

	if (nargs >= 1 && !strcmp(args[0], "exec")) {
		if (nargs < 2 || !cmd) {
			free(args);
			return opt_fail(status, EXIT_USAGE, "lab exec: give the command to run in the DUT after '--', "
					"e.g. 'wirerate lab exec -- nft list ruleset'");
		}
		/* the command's words, from after "exec" (args is NULL-ended room) */
		memmove(args, args + 1, (size_t)nargs * sizeof(*args));
		args[nargs - 1] = NULL;
		*cmd = args;
		*action = "exec";
		if (la.up_only)
			return opt_fail(status, EXIT_USAGE, "lab exec: --%s applies to 'lab up' only",
					la.up_only->name);
		*out = la.spec;
		return OPT_GO;
	}
	if (nargs != 1) {
		cli_error(!nargs ? "lab: say up, down, status or exec (see 'wirerate lab --help')"
				 : "lab: one action only, got '%s' after '%s'",
			  nargs > 1 ? args[1] : "", nargs ? args[0] : "");
		free(args);
		return opt_exit(status, EXIT_USAGE);
	}
	*action = args[0];
	free(args);
	if (app_lab_run_action_parse(*action, &act))
		return opt_fail(status, EXIT_USAGE, "lab: unknown action '%s': expected up, down, status or exec",
				*action);
	if (act != APP_LAB_UP && la.up_only)
		return opt_fail(status, EXIT_USAGE, "lab %s: --%s applies to 'lab up' only", *action,
				la.up_only->name);
	if (la.vm_only && !la.spec.kernel[0])
		return opt_fail(status, EXIT_USAGE, "lab up: --%s needs --kernel (a VM as the DUT)", la.vm_only->name);
	if (la.spec.kernel[0] && la.dut_cpus[0]) {
		char *end;
		unsigned long n = strtoul(la.dut_cpus, &end, 10);

		/* a VM's CPUs are its own: how many, not which of the host's */
		if (*end || end == la.dut_cpus || n < 1 || n > LAB_VCPUS_MAX)
			return opt_fail(status, EXIT_USAGE, "lab up: with --kernel, --dut-cpus is the VM's number of "
					"vCPUs, 1..%d, not '%s'", LAB_VCPUS_MAX, la.dut_cpus);
		la.spec.vcpus = (unsigned int)n;
		cpuset_zero(&la.spec.dut_cpus);
	}
	if (act == APP_LAB_UP && lab_spec_check(&la.spec, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "lab up: %s", err);
	*out = la.spec;
	return OPT_GO;
}

enum opt_result lab_args_up(struct lab_args *la, struct lab_spec *out, int *status)
{
	char **args = calloc((size_t)la->nwords + 2, sizeof(*args));
	const char *action;

	if (!args)
		return opt_fail(status, EXIT_RUNTIME, "lab: out of memory");
	for (int i = 0; i < la->nwords; i++)
		args[i] = la->words[i];
	args[la->nwords] = "up";
	return finish(*la, args, la->nwords + 1, out, &action, NULL, status);
}

enum opt_result lab_args_parse(struct cli *cli, int argc, char **argv, struct lab_spec *out, const char **action,
			       char ***cmd, int *status)
{
	struct lab_args la;

	lab_args_init(&la);
	if (cmd)
		*cmd = NULL;
	if (lab_args_options(cli, &la, argc, argv, status) == OPT_EXIT)
		return OPT_EXIT;
	return finish(la, la.words, la.nwords, out, action, cmd, status);
}
