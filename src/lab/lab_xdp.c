/* The lab DUT's ingress in NAPI mode; see lab_xdp.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "io/bpf/bpf_objs.h"
#include "os/bpfobj.h"
#include "lab/lab_xdp.h"
#include "os/napi.h"
#include "os/nl.h"

static int attach_pass(struct nl *nl, int ifindex, char *err, size_t errlen)
{
	struct bpf_object *obj = bpfobj_open("wr_pass", wr_bpf_pass, wr_bpf_pass_len, err, errlen);
	int rc;

	if (!obj)
		return -EINVAL;
	if (!(rc = bpfobj_load(obj, "the XDP pass-through program", err, errlen))) {
		struct bpf_program *prog = bpf_object__find_program_by_name(obj, "wr_pass");

		/* Netlink-attached: the program stays after we exit, until lab
		 * down deletes the namespace and its links. */
		if ((rc = nl_xdp_set(nl, ifindex, bpf_program__fd(prog), XDP_FLAGS_DRV_MODE)))
			snprintf(err, errlen, "attaching XDP (native) to ifindex %d: %s", ifindex, strerror(-rc));
	}
	bpf_object__close(obj);
	return rc;
}

int lab_xdp_setup(struct nl *nl, const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	struct link_info li;
	int rc;

	if ((rc = nl_link_get(nl, ifname, &li))) {
		snprintf(err, errlen, "cannot find %s: %s", ifname, strerror(-rc));
		return rc;
	}
	if (!li.xdp_prog_id && (rc = attach_pass(nl, li.ifindex, err, errlen)))
		return rc;
	return napi_pin(ifname, cpus, err, errlen);
}
