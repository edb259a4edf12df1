#include "app/port_path.h"

#include <stdio.h>
#include <string.h>

const char *app_port_path_name(enum port_path p)
{
	return p == PORT_PATH_XDP ? "xdp" : p == PORT_PATH_AFXDP ? "afxdp" : "afpacket";
}

static const char *drv(const struct ifprobe *p)
{
	return p->driver[0] ? p->driver : "(none)";
}

/* Whether XDP frames sent out of tx go anywhere. A veth hands them to its
 * peer, which takes them only while it runs NAPI (an XDP program or GRO
 * on it), and the kernel says so in xdp-features; many NIC drivers
 * transmit them only while a program is attached to the port itself. */
static bool can_send(const struct port_path_in *in, bool *hold, char *why, size_t len)
{
	const struct ifprobe *t = in->tx;
	bool veth = !strcmp(t->driver, "veth");

	*hold = false;
	if (in->peer_is_rx)
		return true;
	if (!t->features_known) {
		if (veth) {
			snprintf(why, len, "%s is a veth and this kernel does not say (no xdp-features, Linux < 6.3) "
				 "whether its peer takes XDP frames", in->tx_name);
			return false;
		}
		*hold = !in->analyzer_on_tx;
		return true;
	}
	if (t->features & IFPROBE_XDP_NDO_XMIT)
		return true;
	if (!veth && (t->features_attached & IFPROBE_XDP_NDO_XMIT)) {
		*hold = !in->analyzer_on_tx;
		return true;
	}
	if (veth)
		snprintf(why, len, "the peer of veth %s takes no XDP frames (no XDP program and no GRO on it)",
			 in->tx_name);
	else
		snprintf(why, len, "driver %s on %s does not transmit XDP frames (no ndo_xdp_xmit)", drv(t),
			 in->tx_name);
	return false;
}

/* The XDP path, or why not (in why). */
static bool xdp_ok(const struct port_path_in *in, bool *hold, char *why, size_t len)
{
	const struct ifprobe *t = in->tx, *r = in->rx;

	if (!in->live_frames) {
		snprintf(why, len, "the XDP generator does not run here (%s)", in->live_why ? in->live_why : "?");
		return false;
	}
	if (!in->one_size_fits) {
		snprintf(why, len, "the XDP path sends one frame size up to a page (not --imix or jumbo frames)");
		return false;
	}
	if (t->xdp_prog_id) {
		snprintf(why, len, "%s has an XDP program attached already (id %u)", in->tx_name, t->xdp_prog_id);
		return false;
	}
	if (t->native_xdp != IFPROBE_YES) {
		snprintf(why, len, "driver %s on %s has no native XDP (%s)", drv(t), in->tx_name, t->native_why);
		return false;
	}
	if (r && r != t && r->xdp_prog_id) {
		snprintf(why, len, "%s has an XDP program attached already (id %u): the analyzer needs the port",
			 in->rx_name, r->xdp_prog_id);
		return false;
	}
	return can_send(in, hold, why, len);
}

void app_port_path_choose(const struct port_path_in *in, struct port_path_out *out)
{
	const struct ifprobe *t = in->tx, *r = in->rx ? in->rx : in->tx;
	char no_xdp[400] = "";

	memset(out, 0, sizeof(*out));
	if (xdp_ok(in, &out->hold_tx, no_xdp, sizeof(no_xdp))) {
		out->path = PORT_PATH_XDP;
		if (in->peer_is_rx)
			snprintf(out->why, sizeof(out->why), "driver %s has native XDP, cabled straight to the analyzer",
				 drv(t));
		else
			snprintf(out->why, sizeof(out->why), "driver %s has native XDP%s", drv(t),
				 out->hold_tx ? "; a pass-through program stays on the port to send" :
				 !strcmp(t->driver, "veth") ? " and the veth's peer takes XDP frames" : "");
		return;
	}
	if (t->zerocopy == IFPROBE_YES && r->zerocopy == IFPROBE_YES) {
		out->path = PORT_PATH_AFXDP;
		snprintf(out->why, sizeof(out->why), "driver %s binds AF_XDP in zero-copy mode; not xdp: %s",
			 drv(t), no_xdp);
		return;
	}
	out->path = PORT_PATH_AFPACKET;
	snprintf(out->why, sizeof(out->why), "not xdp: %s; no AF_XDP zero-copy on %s", no_xdp,
		 t->zerocopy == IFPROBE_YES ? in->rx_name : in->tx_name);
}
