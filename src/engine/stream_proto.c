/* The stream control protocol's lines (stream_proto.h). Everything a peer
 * sends is read here with bounds of its own: no sscanf, whose %u takes
 * "-1" and leading spaces, and no peer byte copied anywhere but through
 * stream_proto_quote. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "engine/stream_proto.h"
#include "core/ns.h"

#define KV_MAX 16

struct kv {
	const char *key, *val;
	size_t klen, vlen;
};

/* Split "VERB k=v k=v" into its pairs; -EPROTO when the line is not of
 * that form (the verb another, a double space, a key twice, ...). */
static int kv_split(const char *line, const char *verb, struct kv *kv, int *n)
{
	size_t vl = strlen(verb);
	const char *p = line + vl;

	*n = 0;
	if (strncmp(line, verb, vl) || (*p && *p != ' '))
		return -EPROTO;
	while (*p) {
		struct kv *e = &kv[*n];

		if (*n == KV_MAX)
			return -EPROTO;
		e->key = ++p;
		while ((*p >= 'a' && *p <= 'z') || *p == '_')
			p++;
		e->klen = (size_t)(p - e->key);
		if (!e->klen || *p != '=')
			return -EPROTO;
		e->val = ++p;
		while (*p > ' ' && *p < 0x7f)
			p++;
		e->vlen = (size_t)(p - e->val);
		if (!e->vlen || (*p && *p != ' '))
			return -EPROTO;
		for (int i = 0; i < *n; i++)
			if (kv[i].klen == e->klen && !memcmp(kv[i].key, e->key, e->klen))
				return -EPROTO;
		(*n)++;
	}
	return 0;
}

static const struct kv *kv_find(const struct kv *kv, int n, const char *key)
{
	size_t kl = strlen(key);

	for (int i = 0; i < n; i++)
		if (kv[i].klen == kl && !memcmp(kv[i].key, key, kl))
			return &kv[i];
	return NULL;
}

/* A decimal number in [0, max]: 0, -ENOENT (absent), -EPROTO (not
 * digits) or -ERANGE. */
static int kv_u64(const struct kv *kv, int n, const char *key, uint64_t max, uint64_t *v)
{
	const struct kv *e = kv_find(kv, n, key);

	if (!e)
		return -ENOENT;
	*v = 0;
	for (size_t i = 0; i < e->vlen; i++) {
		unsigned int d = (unsigned char)e->val[i] - '0';

		if (d > 9)
			return -EPROTO;
		if (*v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		*v = *v * 10 + d;
	}
	return *v > max ? -ERANGE : 0;
}

int stream_proto_hello_parse(const char *line, struct stream_hello *h, char *err, size_t errlen)
{
	static const char *const keys[] = { "size", "duration_ms", "version", "port", "cpu" };
	static const uint64_t max[] = { UINT32_MAX, UINT64_MAX / NSEC_PER_MSEC, UINT32_MAX, 65535, STREAM_CPU_MAX };
	struct kv kv[KV_MAX];
	uint64_t v[5] = { 0 };
	const struct kv *tok;
	int n, rc;

	memset(h, 0, sizeof(*h));
	if (kv_split(line, "HELLO", kv, &n)) {
		snprintf(err, errlen, "not a request");
		return -EPROTO;
	}
	for (int i = 0; i < 5; i++) {
		rc = kv_u64(kv, n, keys[i], max[i], &v[i]);
		if (rc == -ENOENT && i >= 2)
			continue;
		if (rc) {
			snprintf(err, errlen, "%s %s", keys[i], rc == -ENOENT ? "missing" : rc == -ERANGE
					? "out of range" : "not a number");
			return rc == -ERANGE ? -ERANGE : -EPROTO;
		}
	}
	h->size = v[0];
	h->duration_ms = v[1];
	h->version = kv_find(kv, n, "version") ? (unsigned int)v[2] : 1;
	h->data_port = (uint16_t)v[3];
	h->cpu = kv_find(kv, n, "cpu") ? (int)v[4] : -1;
	if ((tok = kv_find(kv, n, "token"))) {
		if (tok->vlen > STREAM_TOKEN_MAX) {
			snprintf(err, errlen, "token longer than %d characters", STREAM_TOKEN_MAX);
			return -EPROTO;
		}
		memcpy(h->token, tok->val, tok->vlen);
	}
	if (h->version < 1 || (h->version >= 2 && !h->data_port)) {
		snprintf(err, errlen, h->version < 1 ? "version 0" : "no port= for its data socket");
		return -EPROTO;
	}
	return 0;
}

int stream_proto_hello_format(const struct stream_hello *h, char *buf, size_t len)
{
	int n;

	if (h->version < 2)
		n = snprintf(buf, len, "HELLO size=%" PRIu64 " duration_ms=%" PRIu64 "\n", h->size, h->duration_ms);
	else {
		char cpu[24] = "";

		if (h->cpu >= 0)
			snprintf(cpu, sizeof(cpu), " cpu=%d", h->cpu);
		n = snprintf(buf, len, "HELLO size=%" PRIu64 " duration_ms=%" PRIu64 " version=%u port=%u%s%s%s\n",
			     h->size, h->duration_ms, h->version, h->data_port, *h->token ? " token=" : "", h->token,
			     cpu);
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

int stream_proto_end_parse(const char *line, uint64_t *sent)
{
	struct kv kv[KV_MAX];
	int n;

	/* counts are stored as SQLite's signed 64 bits: beyond is no count */
	if (kv_split(line, "END", kv, &n) || kv_u64(kv, n, "sent", INT64_MAX, sent))
		return -EPROTO;
	return 0;
}

int stream_proto_reply_parse(const char *line, struct stream_reply *r)
{
	struct kv kv[KV_MAX];
	uint64_t v;
	int n;

	memset(r, 0, sizeof(*r));
	r->version = 1;
	if (!kv_split(line, "OK", kv, &n)) {
		r->kind = STREAM_REPLY_OK;
		if (kv_u64(kv, n, "port", 65535, &v) || !v)
			return -EPROTO;
		r->port = (uint16_t)v;
		if (kv_u64(kv, n, "rcvbuf", INT_MAX, &v))
			return -EPROTO;
		r->rcvbuf = (int)v;
		if (!kv_u64(kv, n, "version", UINT32_MAX, &v) && v >= 1)
			r->version = (unsigned int)v;
		return 0;
	}
	if (!kv_split(line, "ERR busy", kv, &n)) {
		r->kind = kv_find(kv, n, "per_peer") ? STREAM_REPLY_PER_PEER : STREAM_REPLY_BUSY;
		if (!kv_u64(kv, n, r->kind == STREAM_REPLY_BUSY ? "max_sessions" : "per_peer", UINT32_MAX,
			    &r->limit))
			return 0;
	} else if (!kv_split(line, "ERR duration", kv, &n)) {
		r->kind = STREAM_REPLY_DURATION;
		if (!kv_u64(kv, n, "max_ms", UINT64_MAX, &r->limit))
			return 0;
	} else if (!strcmp(line, "ERR auth") || !strncmp(line, "ERR auth ", 9)) {
		r->kind = STREAM_REPLY_AUTH;
		return 0;
	}
	if (strncmp(line, "ERR", 3) || (line[3] && line[3] != ' '))
		return -EPROTO;
	r->kind = STREAM_REPLY_ERR;
	r->limit = 0;
	stream_proto_quote(line[3] ? line + 4 : "", r->text, sizeof(r->text));
	return 0;
}

int stream_proto_result_parse(const char *line, struct stream_counts *c)
{
	struct kv kv[KV_MAX];
	uint64_t rb;
	int n;

	memset(c, 0, sizeof(*c));
	/* counts are stored as SQLite's signed 64 bits: beyond is no count */
	if (kv_split(line, "RESULT", kv, &n) || kv_u64(kv, n, "msgs", INT64_MAX, &c->msgs) ||
	    kv_u64(kv, n, "bytes", INT64_MAX, &c->bytes) || kv_u64(kv, n, "elapsed_ns", INT64_MAX, &c->elapsed_ns) ||
	    kv_u64(kv, n, "rcvbuf", INT_MAX, &rb) || kv_u64(kv, n, "drops", INT64_MAX, &c->drops))
		return -EPROTO;
	c->rcvbuf = (int)rb;
	/* both or neither; a count of CPUs without a share is no figure */
	if (!kv_u64(kv, n, "cpus", UINT32_MAX, &rb)) {
		if (!rb || kv_u64(kv, n, "busy_ppm", 1000000, &c->busy_ppm))
			return -EPROTO;
		c->cpus = (unsigned int)rb;
	} else if (kv_find(kv, n, "busy_ppm") || kv_find(kv, n, "cpus")) {
		return -EPROTO;
	}
	return 0;
}

int stream_proto_result_format(const struct stream_counts *c, char *buf, size_t len)
{
	char cpu[48] = "";
	int n;

	if (c->cpus)
		snprintf(cpu, sizeof(cpu), " cpus=%u busy_ppm=%" PRIu64, c->cpus, c->busy_ppm);
	n = snprintf(buf, len, "RESULT msgs=%" PRIu64 " bytes=%" PRIu64 " elapsed_ns=%" PRIu64 " rcvbuf=%d drops=%"
		     PRIu64 "%s\n", c->msgs, c->bytes, c->elapsed_ns, c->rcvbuf, c->drops, cpu);

	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

void stream_proto_quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (size_t i = 0; s[i]; i++) {
		unsigned char ch = (unsigned char)s[i];
		char piece[8];
		size_t pl;

		if (!strncmp(s + i, "token=", 6)) {
			pl = (size_t)snprintf(piece, sizeof(piece), "token=");
			if (o + pl + 3 < len) {
				memcpy(buf + o, piece, pl);
				o += pl;
			}
			goto more;
		}
		if (i == STREAM_QUOTE_MAX)
			goto more;
		if (ch < 0x20 || ch >= 0x7f || ch == '\\') {
			pl = (size_t)snprintf(piece, sizeof(piece), "\\x%02x", ch);
		} else {
			piece[0] = (char)ch;
			pl = 1;
		}
		if (o + pl + 3 >= len)
			goto more;
		memcpy(buf + o, piece, pl);
		o += pl;
	}
	buf[o] = '\0';
	return;
more:
	/* room for the dots was kept above, when there was any */
	if (o + 3 < len)
		memcpy(buf + o, "...", 3), o += 3;
	buf[o] = '\0';
}

int stream_proto_token_check(const char *tok, char *err, size_t errlen)
{
	size_t n = strlen(tok);

	if (!n || n > STREAM_TOKEN_MAX) {
		snprintf(err, errlen, "the token is %s (1..%d characters)", n ? "too long" : "empty", STREAM_TOKEN_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		if (tok[i] <= ' ' || tok[i] >= 0x7f) {
			snprintf(err, errlen, "the token has a character other than printable ASCII (no spaces) "
				 "at position %zu", i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

bool stream_proto_token_equal(const char *a, const char *b)
{
	size_t la = strnlen(a, STREAM_TOKEN_MAX + 1), lb = strnlen(b, STREAM_TOKEN_MAX + 1);
	unsigned int diff = (unsigned int)(la ^ lb);

	/* every position up to the longest token is compared, whatever the
	 * lengths, so the time tells nothing of where they differ */
	for (size_t i = 0; i <= STREAM_TOKEN_MAX; i++) {
		unsigned char x = i < la ? (unsigned char)a[i] : 0, y = i < lb ? (unsigned char)b[i] : 0;

		diff |= (unsigned int)(x ^ y);
	}
	return !diff && la <= STREAM_TOKEN_MAX;
}

int stream_proto_token_load(const char *path, char *tok, size_t len, char *err, size_t errlen)
{
	char buf[STREAM_TOKEN_MAX + 3];
	struct stat st;
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "'%s': %s", path, strerror(errno));
		goto out;
	}
	rc = -EINVAL;
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a regular file", path);
		goto out;
	}
	if (st.st_mode & S_IRWXO) {
		snprintf(err, errlen, "'%s' is open to others (mode %03o): chmod o-rwx it", path,
			 (unsigned int)(st.st_mode & 0777));
		goto out;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[--n] = '\0';
	if ((size_t)n != strlen(buf)) {
		snprintf(err, errlen, "'%s': the token has a NUL byte", path);
		goto out;
	}
	if (stream_proto_token_check(buf, err, errlen)) {
		char m[160];

		snprintf(m, sizeof(m), "%s", err);
		snprintf(err, errlen, "'%s': %s", path, m);
		goto out;
	}
	if ((size_t)n >= len) {
		snprintf(err, errlen, "'%s': the token is too long", path);
		goto out;
	}
	memcpy(tok, buf, (size_t)n + 1);
	rc = 0;
out:
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return rc;
}
