/* Embedded BPF objects; see bpfobj.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <bpf/libbpf.h>

#include "os/bpfobj.h"

#define BSS_MAP_BYTES 4096

/* libbpf's messages (the verifier's log among them) go to stderr only
 * when WIRERATE_BPF_LOG is set: a program a kernel refuses is then
 * explained by the verifier itself (docs/xdp.md). */
static int quiet_print(enum libbpf_print_level l, const char *f, va_list ap)
{
	const char *want = getenv("WIRERATE_BPF_LOG");

	if (!want || !*want || (l == LIBBPF_DEBUG && strcmp(want, "debug")))
		return 0;
	return vfprintf(stderr, f, ap);
}

struct bpf_object *bpfobj_open(const char *name, const unsigned char *data, size_t len,
			       char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = name);
	struct bpf_object *obj;

	libbpf_set_print(quiet_print);
	obj = bpf_object__open_mem(data, len, &oo);
	if (!obj)
		snprintf(err, errlen, "the BPF object %s: %s", name, strerror(errno));
	return obj;
}

int bpfobj_load(struct bpf_object *obj, const char *what, char *err, size_t errlen)
{
	int rc = bpf_object__load(obj);

	if (rc)
		snprintf(err, errlen, "loading %s: %s", what, strerror(-rc));
	return rc;
}

void *bpfobj_map_bss(struct bpf_object *obj, size_t need)
{
	struct bpf_map *m;
	void *p;

	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);
		size_t l = strlen(n);

		if (l >= 4 && !strcmp(n + l - 4, ".bss"))
			break;
	}
	if (!m || bpf_map__value_size(m) < need || bpf_map__value_size(m) > BSS_MAP_BYTES) {
		errno = ENOENT;
		return NULL;
	}
	p = mmap(NULL, BSS_MAP_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(m), 0);
	return p == MAP_FAILED ? NULL : p;
}

void bpfobj_unmap_bss(void *p)
{
	if (p)
		munmap(p, BSS_MAP_BYTES);
}
