/* The reflector on the host under test's port; see reflect.h. */
#include "io/reflect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "io/bpf/bpf_objs.h"
#include "os/bpfobj.h"
#include "os/nl.h"

/* reflect.bpf.c's .bss */
struct rf_state {
	uint64_t reflected, passed;
	uint16_t port;
};

struct reflect {
	struct bpf_object *obj;
	struct bpf_link *link;
	volatile struct rf_state *st;
};

int reflect_attach(const char *ifname, uint16_t port, struct reflect **rp, char *err, size_t errlen)
{
	struct reflect *r = calloc(1, sizeof(*r));
	struct bpf_program *prog;
	struct link_info li;
	struct nl *nl = NULL;
	int rc = -EIO;

	*rp = NULL;
	if (!r)
		return -ENOMEM;
	if (!(r->obj = bpfobj_open("wr_reflect", wr_bpf_reflect, wr_bpf_reflect_len, err, errlen)))
		goto fail;
	if ((rc = bpfobj_load(r->obj, "the XDP reflector", err, errlen)))
		goto fail;
	rc = -EIO;
	if (!(r->st = bpfobj_map_bss(r->obj, sizeof(struct rf_state)))) {
		snprintf(err, errlen, "mapping the reflector's state: %s", strerror(errno));
		goto fail;
	}
	r->st->port = port;
	if (!(nl = nl_create(-1, err, errlen)))
		goto fail;
	if (nl_link_get(nl, ifname, &li)) {
		snprintf(err, errlen, "no interface '%s'", ifname);
		rc = -ENODEV;
		goto fail;
	}
	if (li.xdp_prog_id) {
		snprintf(err, errlen, "%s already has an XDP program attached (id %u); wirerate does not replace it",
			 ifname, li.xdp_prog_id);
		rc = -EBUSY;
		goto fail;
	}
	prog = bpf_object__find_program_by_name(r->obj, "wr_reflect");
	if (!prog || !(r->link = bpf_program__attach_xdp(prog, li.ifindex))) {
		rc = -errno ? -errno : -EIO;
		snprintf(err, errlen, "attaching the XDP reflector to %s: %s", ifname, strerror(-rc));
		goto fail;
	}
	nl_destroy(nl);
	*rp = r;
	return 0;
fail:
	nl_destroy(nl);
	reflect_detach(r);
	return rc;
}

void reflect_counts(const struct reflect *r, uint64_t *reflected, uint64_t *passed)
{
	*reflected = r && r->st ? r->st->reflected : 0;
	*passed = r && r->st ? r->st->passed : 0;
}

void reflect_detach(struct reflect *r)
{
	if (!r)
		return;
	bpf_link__destroy(r->link);
	if (r->st)
		bpfobj_unmap_bss((void *)r->st);
	bpf_object__close(r->obj);
	free(r);
}
