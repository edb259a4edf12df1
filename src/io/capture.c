/* pcapng (draft-ietf-opsawg-pcapng): a Section Header Block naming the
 * writer, one Interface Description Block per receive port (Ethernet,
 * timestamps in ns), then one Enhanced Packet Block per frame with an
 * opt_comment saying why it was not counted. Blocks are in this host's
 * byte order, which the section header's magic tells readers. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/frame.h"
#include "io/capture.h"
#include "os/fs.h"

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define OPT_END 0
#define OPT_COMMENT 1
#define OPT_SHB_USERAPPL 4
#define OPT_IF_NAME 2
#define OPT_IF_TSRESOL 9
#define LINKTYPE_ETHERNET 1

struct capture {
	pthread_mutex_t lock;
	struct fs_out out;
	unsigned int room;		/* read without the lock by capture_room */
	bool failed;			/* a write failed: nothing more is written */
	char ifs[CAPTURE_MAX_IFS][32];
	unsigned int nifs;
	struct capture_stats st;
};

/* A block under construction: at most a frame, its comment and headers. */
struct blk {
	uint8_t b[CAPTURE_SNAP + 9216 + 512];
	size_t n;
	bool over;
};

static void put(struct blk *k, const void *p, size_t n)
{
	if (!n)
		return;
	if (k->over || n > sizeof(k->b) - k->n) {
		k->over = true;
		return;
	}
	memcpy(k->b + k->n, p, n);
	k->n += n;
}

static void put32(struct blk *k, uint32_t v)
{
	put(k, &v, 4);
}

static void pad4(struct blk *k)
{
	static const uint8_t zero[4];

	put(k, zero, (4 - k->n % 4) % 4);
}

static void opt(struct blk *k, uint16_t code, const void *v, size_t n)
{
	uint16_t h[2] = { code, (uint16_t)(n > 0xffff ? 0xffff : n) };

	put(k, h, 4);
	put(k, v, h[1]);
	pad4(k);
}

/* Start a block of type t; end() fills its length at both ends. */
static void begin(struct blk *k, uint32_t t)
{
	k->n = 0;
	k->over = false;
	put32(k, t);
	put32(k, 0);
}

static int end(struct capture *c, struct blk *k)
{
	uint32_t len;

	put32(k, 0);	/* the trailing length */
	if (k->over)
		return -EMSGSIZE;
	len = (uint32_t)k->n;
	memcpy(k->b + 4, &len, 4);
	memcpy(k->b + k->n - 4, &len, 4);
	if (fwrite(k->b, 1, k->n, c->out.f) != k->n) {
		c->failed = true;
		return -EIO;
	}
	return 0;
}

struct capture *capture_open(const char *path, unsigned int max, const char *app, char *err, size_t errlen)
{
	struct capture *c = calloc(1, sizeof(*c));
	struct blk *k = malloc(sizeof(*k));
	int rc;

	if (!c || !k) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->room = max;
	if ((rc = fs_out_open(&c->out, path))) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	begin(k, BT_SHB);
	put32(k, 0x1A2B3C4Du);
	{
		uint16_t ver[2] = { 1, 0 };
		int64_t section_len = -1;

		put(k, ver, 4);
		put(k, &section_len, 8);
	}
	opt(k, OPT_SHB_USERAPPL, app, strlen(app));
	opt(k, OPT_END, NULL, 0);
	if (end(c, k)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EIO));
		fs_out_close(&c->out, false);
		goto fail;
	}
	free(k);
	return c;
fail:
	free(k);
	if (c)
		pthread_mutex_destroy(&c->lock);
	free(c);
	return NULL;
}

int capture_iface(struct capture *c, const char *ifname)
{
	struct blk *k;
	int id = -ENOSPC;

	pthread_mutex_lock(&c->lock);
	for (unsigned int i = 0; i < c->nifs; i++)
		if (!strncmp(c->ifs[i], ifname, sizeof(c->ifs[i]) - 1)) {
			id = (int)i;
			goto out;
		}
	if (c->nifs == CAPTURE_MAX_IFS || !(k = malloc(sizeof(*k))))
		goto out;
	begin(k, BT_IDB);
	{
		uint16_t lt[2] = { LINKTYPE_ETHERNET, 0 };
		uint8_t ns = 9;	/* 10^-9 s */

		put(k, lt, 4);
		put32(k, 0);	/* no snap length */
		opt(k, OPT_IF_NAME, ifname, strlen(ifname));
		opt(k, OPT_IF_TSRESOL, &ns, 1);
		opt(k, OPT_END, NULL, 0);
	}
	if (!c->failed && !end(c, k)) {
		snprintf(c->ifs[c->nifs], sizeof(c->ifs[0]), "%s", ifname);
		id = (int)c->nifs++;
	} else {
		id = -EIO;
	}
	free(k);
out:
	pthread_mutex_unlock(&c->lock);
	return id;
}

unsigned int capture_room(const struct capture *c)
{
	return c ? __atomic_load_n(&c->room, __ATOMIC_RELAXED) : 0;
}

static void count(struct capture_stats *st, const char *reason)
{
	unsigned int i;

	for (i = 0; i < st->nreasons; i++)
		if (!strcmp(st->by[i].reason, reason))
			break;
	if (i == st->nreasons) {
		if (i == CAPTURE_MAX_REASONS)
			i--;	/* never: the analyzers have fewer reasons */
		else
			st->nreasons++;
		st->by[i].reason = reason;
	}
	st->by[i].frames++;
	st->written++;
}

void capture_frame(struct capture *c, int ifid, const uint8_t *frame, uint32_t caplen, uint32_t len,
		   uint64_t ts_ns, const char *reason, const char *detail)
{
	struct blk *k;
	char comment[256];
	uint32_t keep = caplen < len ? caplen : len;

	if (!c || ifid < 0 || !capture_room(c))
		return;
	if (keep > CAPTURE_SNAP + 9216)
		keep = CAPTURE_SNAP + 9216;
	snprintf(comment, sizeof(comment), "%s%s%s", reason, detail && detail[0] ? ": " : "", detail ? detail : "");
	if (!(k = malloc(sizeof(*k))))
		return;
	begin(k, BT_EPB);
	put32(k, (uint32_t)ifid);
	put32(k, (uint32_t)(ts_ns >> 32));
	put32(k, (uint32_t)ts_ns);
	put32(k, keep);
	put32(k, len);
	put(k, frame, keep);
	pad4(k);
	opt(k, OPT_COMMENT, comment, strlen(comment));
	opt(k, OPT_END, NULL, 0);
	pthread_mutex_lock(&c->lock);
	if (c->room && !c->failed && !end(c, k)) {
		__atomic_store_n(&c->room, c->room - 1, __ATOMIC_RELAXED);
		count(&c->st, reason);
	}
	pthread_mutex_unlock(&c->lock);
	free(k);
}

void capture_tag_detail(const uint8_t *frame, uint32_t caplen, unsigned int trial, char *buf, size_t len)
{
	struct frame_info fi;

	buf[0] = '\0';
	if (frame_parse(frame, caplen, &fi) == FRAME_OK)
		snprintf(buf, len, "trial %u stream %u seq %llu; the trial counted is %u", fi.tag.trial,
			 fi.tag.stream, (unsigned long long)fi.tag.seq, trial);
}

void capture_stats(const struct capture *c, struct capture_stats *st)
{
	pthread_mutex_lock((pthread_mutex_t *)&c->lock);
	*st = c->st;
	pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
}

int capture_close(struct capture *c, bool keep, char *err, size_t errlen)
{
	int rc;

	if (!c)
		return 0;
	rc = fs_out_close(&c->out, keep && !c->failed);
	if (!rc && keep && c->failed)
		rc = -EIO;
	if (rc)
		snprintf(err, errlen, "%s: %s", c->out.path, strerror(-rc));
	pthread_mutex_destroy(&c->lock);
	free(c);
	return rc;
}
