/* The frames an analyzer received but did not count (not a test frame, a
 * bad tag, another trial's, late, a duplicate), the first N of a run, to a
 * pcapng file: each frame with the interface it arrived on, its arrival
 * time (ns) and a comment saying why it was not counted. The file is
 * written beside its name and renamed over it when the run ends, so a
 * reader never sees half a file. Both directions' analyzers may write to
 * one capture: every call is thread-safe. */
#ifndef WR_IO_CAPTURE_H
#define WR_IO_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAPTURE_MAX_FRAMES 10000	/* --capture-count's limit */
#define CAPTURE_SNAP 1536		/* bytes kept of a frame on the XDP path */
#define CAPTURE_MAX_IFS 8
#define CAPTURE_MAX_REASONS 16

struct capture;

/* What a run's capture holds: frames written, by reason. */
struct capture_stats {
	uint64_t written;
	unsigned int nreasons;
	struct {
		const char *reason;	/* a static name: "stale", "late", "not-udp", ... */
		uint64_t frames;
	} by[CAPTURE_MAX_REASONS];
};

/* Begin a capture of at most max frames to path (app: the writer's name
 * for the file's header). NULL with a one-line reason in err. */
struct capture *capture_open(const char *path, unsigned int max, const char *app, char *err, size_t errlen);

/* The interface frames of ifname arrive on: its id in the file (the same
 * name gives the same id). -errno when the file has no room for more. */
int capture_iface(struct capture *c, const char *ifname);

/* Frames it still takes (0 once full). */
unsigned int capture_room(const struct capture *c);

/* One frame: caplen bytes of it kept, len its length on the wire,
 * ts_ns CLOCK_REALTIME, reason a static name, detail "" or more words.
 * Ignored once full. */
void capture_frame(struct capture *c, int ifid, const uint8_t *frame, uint32_t caplen, uint32_t len,
		   uint64_t ts_ns, const char *reason, const char *detail);

/* What a test frame's tag says, for the comment ("trial 7 stream 3 seq
 * 1042; the trial counted is 8"): "" when frame has no readable tag. */
void capture_tag_detail(const uint8_t *frame, uint32_t caplen, unsigned int trial, char *buf, size_t len);

void capture_stats(const struct capture *c, struct capture_stats *st);

/* End it: keep puts the file in place (a run that measured something),
 * else it is removed. 0, or -errno with err when it could not be kept.
 * c is freed either way. */
int capture_close(struct capture *c, bool keep, char *err, size_t errlen);

#endif
