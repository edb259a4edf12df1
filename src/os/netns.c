#include "os/netns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

static void ns_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", NETNS_RUN_DIR, name);
}

static bool is_nsfs_fd(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && sf.f_type == NSFS_MAGIC;
}

bool netns_exists(const char *name)
{
	int fd = netns_open(name);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int netns_open(const char *name)
{
	char path[sizeof(NETNS_RUN_DIR) + NETNS_NAME_MAX + 2];
	int fd;

	ns_path(path, sizeof(path), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!is_nsfs_fd(fd)) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

/* As iproute2 does: make /run/netns a shared mount point so that namespace
 * mounts propagate to (and unmounts from) other mount namespaces. */
static int prepare_run_dir(char *err, size_t errlen)
{
	bool made = false;

	if (mkdir(NETNS_RUN_DIR, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", NETNS_RUN_DIR, strerror(errno));
		return -errno;
	}
	while (mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		if (errno != EINVAL || made) {
			snprintf(err, errlen, "cannot make %s shared: %s", NETNS_RUN_DIR, strerror(errno));
			return -errno;
		}
		if (mount(NETNS_RUN_DIR, NETNS_RUN_DIR, "none", MS_BIND | MS_REC, NULL)) {
			snprintf(err, errlen, "cannot bind-mount %s: %s", NETNS_RUN_DIR, strerror(errno));
			return -errno;
		}
		made = true;
	}
	return 0;
}

int netns_add(const char *name, char *err, size_t errlen)
{
	char path[sizeof(NETNS_RUN_DIR) + NETNS_NAME_MAX + 2];
	int fd, rc, status;
	pid_t pid;

	if (netns_exists(name))
		return 0;
	if ((rc = prepare_run_dir(err, errlen)))
		return rc;
	ns_path(path, sizeof(path), name);
	/* A plain file or dead mount left behind by a crash: start afresh. */
	umount2(path, MNT_DETACH);
	unlink(path);
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
		return -errno;
	}
	close(fd);

	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto fail;
	}
	if (pid == 0) {
		if (unshare(CLONE_NEWNET))
			_exit(1);
		if (mount("/proc/self/ns/net", path, "none", MS_BIND, NULL))
			_exit(2);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		rc = -EPERM;
		goto fail;
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot create network namespace %s: %s", name,
		 strerror(-rc));
	unlink(path);
	return rc;
}

int netns_del(const char *name, char *err, size_t errlen)
{
	char path[sizeof(NETNS_RUN_DIR) + NETNS_NAME_MAX + 2];

	ns_path(path, sizeof(path), name);
	umount2(path, MNT_DETACH);
	if (unlink(path) && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
}

int netns_enter(int fd, int *saved)
{
	*saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved < 0)
		return -errno;
	if (setns(fd, CLONE_NEWNET)) {
		int rc = -errno;

		close(*saved);
		*saved = -1;
		return rc;
	}
	return 0;
}

void netns_leave(int *saved)
{
	if (*saved < 0)
		return;
	if (setns(*saved, CLONE_NEWNET))
		abort(); /* a thread stranded in a lab namespace would be worse */
	close(*saved);
	*saved = -1;
}

int netns_run(const char *name, netns_fn fn, void *arg, char *err, size_t errlen)
{
	int fd = netns_open(name), rc;

	if (fd < 0) {
		snprintf(err, errlen, "network namespace %s does not exist", name);
		return fd;
	}
	rc = netns_run_fd(fd, name, fn, arg, err, errlen);
	return rc;
}

int netns_become(int fd, const char *name, char *err, size_t errlen)
{
	if (setns(fd, CLONE_NEWNET) || unshare(CLONE_NEWNS) ||
	    mount("", "/", "none", MS_SLAVE | MS_REC, NULL)) {
		int e = errno;

		snprintf(err, errlen, "cannot enter namespace %s: %s", name, strerror(e));
		return -e;
	}
	umount2("/sys", MNT_DETACH);
	if (mount(name, "/sys", "sysfs", 0, NULL)) {
		int e = errno;

		snprintf(err, errlen, "cannot mount sysfs in %s: %s", name, strerror(e));
		return -e;
	}
	return 0;
}

int netns_run_fd(int nsfd, const char *name, netns_fn fn, void *arg, char *err, size_t errlen)
{
	int pipefd[2], status, rc = 0, fd;
	char msg[256] = "";
	pid_t pid;
	ssize_t n;

	fd = fcntl(nsfd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "network namespace %s: %s", name, strerror(errno));
		return -errno;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fd);
		close(pipefd[0]);
		close(pipefd[1]);
		return rc;
	}
	if (pid == 0) {
		close(pipefd[0]);
		if (!(rc = netns_become(fd, name, msg, sizeof(msg))))
			rc = fn(arg, msg, sizeof(msg));
		if (write(pipefd[1], msg, strlen(msg)) < 0)
			_exit(255);
		_exit(rc < 0 ? (-rc > 254 ? 254 : -rc) : 0);
	}
	close(fd);
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg) - 1);
	close(pipefd[0]);
	msg[n > 0 ? n : 0] = '\0';
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status))
		rc = -EINTR;
	else
		rc = -WEXITSTATUS(status);
	if (msg[0])
		snprintf(err, errlen, "%s", msg);
	else if (rc)
		snprintf(err, errlen, "in namespace %s: %s", name, strerror(-rc));
	return rc;
}

int netns_list(const char *prefix, char names[][NETNS_NAME_MAX], int max)
{
	DIR *d = opendir(NETNS_RUN_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		if (strlen(e->d_name) >= NETNS_NAME_MAX)
			continue;
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	return n;
}
