#include "os/kthread.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/fs.h"

bool kthread_is(const char *root, pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long flags;
	int ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (fs_read(root, path, buf, sizeof(buf)) <= 0)
		return false;
	/* The name is in parentheses and may hold anything, ')' and
	 * spaces included: the fields start after the last ')'. */
	if (!(p = strrchr(buf, ')')))
		return false;
	/* state ppid pgrp session tty_nr tpgid flags: fields 3 to 9 */
	if (sscanf(p + 1, " %*c %d %*d %*d %*d %*d %lu", &ppid, &flags) != 2)
		return false;
	return (flags & KTHREAD_PF_KTHREAD) && ppid == KTHREAD_KTHREADD;
}

unsigned int kthread_find(const char *root, const char *prefix, pid_t *pids, unsigned int max)
{
	char path[4200], comm[64];
	size_t pl = strlen(prefix);
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc", root && strcmp(root, "/") ? root : "");
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d)) && n < max) {
		pid_t pid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		if (fs_read(root, path, comm, sizeof(comm)) <= 0 || strncmp(comm, prefix, pl))
			continue;
		if (kthread_is(root, pid))
			pids[n++] = pid;
	}
	closedir(d);
	return n;
}
