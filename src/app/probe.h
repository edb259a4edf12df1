/* wirerate probe's workflow: what the host can do (os/hostcaps.c's checks),
 * with the two that need more than a look: whether the XDP generator's
 * live frames run here (root), and whether the CPUs hold their speed (a
 * short soak of each); and --require's list against it. */
#ifndef WR_APP_PROBE_H
#define WR_APP_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "app/port_path.h"
#include "os/cpulat.h"
#include "os/ifprobe.h"
#include "os/hostcaps.h"

/* --require's list: feature names, none empty or unknown. 0, or -EINVAL
 * with the reason. */
int app_probe_check_require(const char *list, char *err, size_t errlen);

/* The host under root (the file system's root for the looks), r filled:
 * steady adds the CPUs' speed check (under half a second of soaking);
 * *live says whether the XDP generator runs here, and live_why why not. */
void app_probe_run(struct probe_report *r, const char *root, bool have_root, bool steady, bool *live,
		   char *live_why, size_t whylen);

/* The first feature of list that r does not have: -ENOENT with "NAME
 * missing: why" in err; 0 when all are there. */
int app_probe_require(const struct probe_report *r, const char *list, char *err, size_t errlen);

/* One interface of 'probe --tx' (IF, or IF@NETNS in a named namespace):
 * what it offers the fast paths (driver, native XDP, AF_XDP zero-copy,
 * xdp-features), tried for real, and the path --port-type auto would
 * take for a trial sending on it (one frame size, one direction). 0, or
 * -errno with err. */
struct app_probe_port {
	struct ifprobe p;
	struct port_path_out auto_path;
	char err[256];
};

int app_probe_port(const char *spec, bool live, const char *live_why, struct app_probe_port *out);

/* Interfaces 'probe --tx' reports on, at most. */
#define APP_PROBE_MAX_IFS 8
/* Pairs the cache-line figure is measured for: the first CPU wirerate may
 * use and each other one, at most this many. */
#define APP_PROBE_LINE_PAIRS 16

/* What 'wirerate probe' is asked. */
struct app_probe_cfg {
	const char *require;		/* --require's list; NULL: the whole report */
	const char *root;		/* the file system's root for the looks */
	const char *ifs[APP_PROBE_MAX_IFS];	/* --tx */
	unsigned int nifs;
	bool have_root;
};

/* The host as probed: the report, then (without --require) the cache
 * line's time from the first CPU to each other one (when root is "/"),
 * and each --tx interface with app_probe_port's rc. */
struct app_probe_host {
	struct probe_report r;
	bool here;			/* root was "/": the lines were measured */
	int nlines;
	struct cpulat_pair lines[APP_PROBE_LINE_PAIRS];
	unsigned int nports;
	const char *spec[APP_PROBE_MAX_IFS];
	int port_rc[APP_PROBE_MAX_IFS];
	struct app_probe_port ports[APP_PROBE_MAX_IFS];
};
/* Probe the host as c asks. The CPUs' speed is checked only when shown or
 * asked for: tests require other features on every run, and this check
 * soaks every CPU for 0.45 s. */
void app_probe_host(const struct app_probe_cfg *c, struct app_probe_host *h);

#endif
