/* Which path `--port-type auto` takes on cabled ports, and why: the XDP
 * path where the generator's port runs XDP in its driver and can send
 * XDP frames, AF_XDP where the ports bind in zero-copy mode, AF_PACKET
 * otherwise. A pure function of what os/ifprobe found and what the trial
 * needs, so that `trial` and `probe --tx` give the same answer. */
#ifndef WR_APP_PORT_PATH_H
#define WR_APP_PORT_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "os/ifprobe.h"

enum port_path { PORT_PATH_XDP, PORT_PATH_AFXDP, PORT_PATH_AFPACKET };

struct port_path_in {
	const char *tx_name, *rx_name;	/* as the user gave them, for the reason */
	const struct ifprobe *tx;	/* the generator's port */
	const struct ifprobe *rx;	/* the analyzer's port; NULL: not known (probe) */
	bool live_frames;		/* the kernel runs the XDP generator (xdpgen_probe) */
	const char *live_why;		/* why not */
	bool one_size_fits;		/* one frame size, within a page */
	bool analyzer_on_tx;		/* one of our XDP programs sits on the tx port for the
					 * run (the reverse direction's analyzer, or rx == tx) */
	bool peer_is_rx;		/* frames sent on tx arrive at our analyzer (cabled
					 * straight: calibrate) */
};

struct port_path_out {
	enum port_path path;
	bool hold_tx;			/* keep a pass-through XDP program on the tx port for
					 * the run: its driver sends XDP frames only then */
	char why[512];
};

void app_port_path_choose(const struct port_path_in *in, struct port_path_out *out);
/* "xdp", "afxdp", "afpacket" */
const char *app_port_path_name(enum port_path p);

#endif
