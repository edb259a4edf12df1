/* wirerate vm-guest: a VM lab's guest side, run as its init. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/vm_init.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "lab/vm_lab.h"

static const struct opt vm_guest_opts[] = { { NULL } };
static const struct opt *const vm_guest_tables[] = { vm_guest_opts, NULL };

const struct opt_cmd vm_guest_cmd = {
	.name = "vm-guest",
	.synopsis = "CONF",
	.about = "A VM lab's guest side: 'wirerate lab up --kernel' boots the VM into it.\n"
		 "It builds the DUT's half of the lab from CONF and serves the agent on\n"
		 "the VM's virtio-serial ports; it is the guest's init and never ends.\n",
	.tables = vm_guest_tables,
};

int cmd_vm_guest(struct cli *cli, int argc, char **argv)
{
	char err[512] = "", ready[256];
	char *args[2];
	int rc, nargs;

	if ((rc = opt_parse(&vm_guest_cmd, NULL, cli, argc, argv, args, 2, &nargs)))
		return opt_status(rc);
	if (nargs != 1)
		return cli_fail(EXIT_USAGE, "vm-guest: give the lab's settings file (it runs inside a VM lab's guest)");
	if (getpid() != 1)
		return cli_fail(EXIT_USAGE, "vm-guest: runs as a VM lab's init, not on a host: use 'wirerate lab up --kernel'");
	/* The console is how the tester hears from it until the agent runs. */
	if ((rc = app_vm_init_start(args[0], ready, sizeof(ready), err, sizeof(err)))) {
		printf("%s%s\n", LABVM_FAILED, err);
		fflush(stdout);
		return EXIT_RUNTIME;
	}
	printf("%s\n", ready);
	fflush(stdout);
	app_vm_init_serve();
}
