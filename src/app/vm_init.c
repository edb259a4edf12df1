/* The VM lab's guest; see vm_init.h. */
#include "app/vm_init.h"
#include "app/stream_dut.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "core/ns.h"
#include "dut/agent.h"
#include "lab/vm_lab.h"
#include "os/fs.h"

#define PORT_NAME "wirerate.agent"
#define VMGUEST_BANNER LABVM_BANNER
#define HOST_POLL_MS 100	/* how often a port with no tester looks again: a
				 * tester waits that long at most, an idle guest wakes
				 * 10 times a second a port */

struct port_srv {
	char dev[64];
	pid_t pid;
};

/* One session after another on dev: wait for the tester to connect
 * (a virtio port reads as hung up until then), serve it, again. */
static void __attribute__((noreturn)) serve_port(const char *dev)
{
	static const volatile sig_atomic_t never = 0;

	for (;;) {
		int fd = open(dev, O_RDWR | O_CLOEXEC);
		struct timespec ts = { 0, HOST_POLL_MS * NSEC_PER_MSEC };
		char err[256];
		pid_t pid;

		if (fd < 0) {
			struct timespec s1 = { 1, 0 };

			nanosleep(&s1, NULL);
			continue;
		}
		for (;;) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			if (poll(&p, 1, 0) >= 0 && !(p.revents & POLLHUP))
				break;
			nanosleep(&ts, NULL);
		}
		/* What the tester sent before this end was open is lost (the
		 * guest's driver discards it): the banner says it may speak. */
		if (write(fd, VMGUEST_BANNER "\n", strlen(VMGUEST_BANNER) + 1) < 0) {
			close(fd);
			continue;
		}
		/* a process per session: whatever one leaves is gone with it */
		if ((pid = fork()) == 0) {
			struct agent_cfg cfg = { .allow_exec = true, .ext = app_stream_dut_ext() };
			int rc = agent_serve(fd, fd, &cfg, &never, err, sizeof(err));

			_exit(rc ? 1 : 0);
		}
		if (pid > 0)
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		close(fd);
	}
}

static void start_port(struct port_srv *p)
{
	if ((p->pid = fork()) == 0)
		serve_port(p->dev);
}

/* The virtio-serial ports named PORT_NAME<k>: their /dev nodes, in ports
 * (LABVM_AGENTS at most); how many. */
static unsigned int find_ports(struct port_srv *ports)
{
	unsigned int nports = 0;
	struct dirent *e;
	DIR *d = opendir("/sys/class/virtio-ports");

	while (d && (e = readdir(d)) && nports < LABVM_AGENTS) {
		char path[300], name[64];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", e->d_name);
		if (fs_read(NULL, path, name, sizeof(name)) <= 0 || strncmp(name, PORT_NAME, strlen(PORT_NAME)))
			continue;
		snprintf(ports[nports].dev, sizeof(ports[0].dev), "/dev/%.50s", e->d_name);
		ports[nports++].pid = 0;
	}
	if (d)
		closedir(d);
	return nports;
}

int app_vm_init_start(const char *conf_path, char *ready, size_t readylen, char *err, size_t errlen)
{
	struct port_srv ports[LABVM_AGENTS];
	unsigned int nports = 0;
	char text[8192];
	struct lab_spec s;
	struct utsname u;
	int rc;

	if (fs_read(NULL, conf_path, text, sizeof(text)) <= 0) {
		snprintf(err, errlen, "cannot read %s", conf_path);
		return -ENOENT;
	}
	if ((rc = vm_lab_conf_parse(text, &s, err, errlen)) || (rc = vm_guest_setup(&s, err, errlen)))
		return rc;
	/* the ports come with virtio_console, loaded before this */
	for (int t = 0; t < 100 && !(nports = find_ports(ports)); t++) {
		struct timespec ts = { 0, 50 * NSEC_PER_MSEC };

		nanosleep(&ts, NULL);
	}
	if (!nports) {
		snprintf(err, errlen, "no virtio-serial port named %s*: does the kernel have virtio_console?", PORT_NAME);
		return -ENODEV;
	}
	uname(&u);
	snprintf(ready, readylen, "%s release=%.64s cpus=%ld ports=%u", LABVM_READY, u.release,
		 sysconf(_SC_NPROCESSORS_ONLN), nports);
	return 0;
}

void app_vm_init_serve(void)
{
	struct port_srv ports[LABVM_AGENTS];
	unsigned int nports = find_ports(ports);

	for (;;) {
		int st;
		pid_t pid;

		/* a port's server at the start, again when one ended, and
		 * after a fork that failed */
		for (unsigned int k = 0; k < nports; k++)
			if (ports[k].pid <= 0)
				start_port(&ports[k]);
		if ((pid = waitpid(-1, &st, 0)) < 0) {
			struct timespec ts = { 1, 0 };

			if (errno != EINTR)
				nanosleep(&ts, NULL);
			continue;
		}
		for (unsigned int k = 0; k < nports; k++)
			if (ports[k].pid == pid)
				ports[k].pid = 0;
	}
}
