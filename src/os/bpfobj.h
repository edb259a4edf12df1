/* The BPF objects the build embeds (src/io/bpf/), opened and loaded from
 * memory, and the global state of a loaded object mapped into this
 * process: one place for what the generator, the analyzer and the lab's
 * pass-through program each need. */
#ifndef WR_OS_BPFOBJ_H
#define WR_OS_BPFOBJ_H

#include <stddef.h>

struct bpf_object;

/* Open an embedded object (libbpf's own messages silenced: errors come
 * back in err, worded for the user). NULL on failure. */
struct bpf_object *bpfobj_open(const char *name, const unsigned char *data, size_t len,
			       char *err, size_t errlen);
/* Load it into the kernel: 0 or -errno. The object stays open either way. */
int bpfobj_load(struct bpf_object *obj, const char *what, char *err, size_t errlen);
/* Map the object's .bss (at least need bytes, at most a page) read-write:
 * libbpf 1.1 maps it only for skeletons. NULL with errno set on failure;
 * unmap with bpfobj_unmap_bss. */
void *bpfobj_map_bss(struct bpf_object *obj, size_t need);
void bpfobj_unmap_bss(void *p);

#endif
