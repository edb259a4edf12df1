/* The reflector on the host under test's port: reflect.bpf.c attached by
 * a link that dies with this process (a SIGKILL leaves no program), test
 * frames sent back out of the port they came in on. */
#ifndef WR_IO_REFLECT_H
#define WR_IO_REFLECT_H

#include <stddef.h>
#include <stdint.h>

struct reflect;

/* Attach it to ifname (this namespace, native XDP, never over another
 * XDP program) for UDP frames to port. 0 with *r, or -errno with err. */
int reflect_attach(const char *ifname, uint16_t port, struct reflect **r, char *err, size_t errlen);
/* The frames sent back and left to the stack so far. */
void reflect_counts(const struct reflect *r, uint64_t *reflected, uint64_t *passed);
/* Detach and free (NULL: nothing). */
void reflect_detach(struct reflect *r);

#endif
