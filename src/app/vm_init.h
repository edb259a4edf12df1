/* 'wirerate vm-guest': a VM lab's guest, as its init. It reads the lab's
 * settings the tester put in the initramfs, builds the DUT's half of the
 * lab (vm_guest_setup), and serves `wirerate agent` on each of the
 * VM's virtio-serial ports, one session at a time per port, for ever. */
#ifndef WR_APP_VM_INIT_H
#define WR_APP_VM_INIT_H

#include <stddef.h>

/* Set up from conf_path and find the ports; ready gets the line that
 * tells the tester it is ("wirerate-guest: ready release=..."), to be
 * printed on the console. 0, or -errno with the reason. */
int app_vm_init_start(const char *conf_path, char *ready, size_t readylen, char *err, size_t errlen);
/* Start a server on each port (a tester waits for its banner), reap
 * children (this is PID 1) and start a port's server again when one
 * ends. Never returns. */
void app_vm_init_serve(void) __attribute__((noreturn));

#endif
