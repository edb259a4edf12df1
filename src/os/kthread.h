/* Kernel threads found by name in /proc. Any process can take any name
 * (prctl PR_SET_NAME, /proc/self/comm), so a name alone proves nothing:
 * before wirerate gives a thread real-time priority, the thread must be
 * the kernel's (PF_KTHREAD in its flags, and a child of kthreadd). */
#ifndef WR_OS_KTHREAD_H
#define WR_OS_KTHREAD_H

#include <stdbool.h>
#include <sys/types.h>

#define KTHREAD_PF_KTHREAD 0x00200000u	/* include/linux/sched.h */
#define KTHREAD_KTHREADD 2		/* the parent of every kernel thread */

/* PIDs of the kernel threads whose name starts with prefix, at most max,
 * in the order root/proc lists them. root: a fixture tree, or NULL for /.
 * A process that is not a kernel thread is skipped whatever its name. */
unsigned int kthread_find(const char *root, const char *prefix, pid_t *pids, unsigned int max);

/* Whether root/proc/PID/stat shows a kernel thread; false when it cannot
 * be read (the process is gone) or parsed. */
bool kthread_is(const char *root, pid_t pid);

#endif
