/* Output that is text or JSON from the same calls (iproute2's print_*
 * idea): each value is given once with its JSON key and its text format,
 * so the two forms never drift apart. */
#ifndef WR_RENDER_OUT_H
#define WR_RENDER_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "os/timefmt.h"

struct out;

struct out *out_create(FILE *f, bool json);
/* Finishes the JSON document (closing anything left open) and frees. */
void out_destroy(struct out *o);
bool out_is_json(const struct out *o);

/* Containers exist only in JSON; key is NULL inside arrays. */
void out_obj_start(struct out *o, const char *key);
void out_obj_end(struct out *o);
void out_arr_start(struct out *o, const char *key);
void out_arr_end(struct out *o);

/* A value: in JSON "key": value; in text, fmt (printf-style, one
 * conversion) is printed with it, or nothing when fmt is NULL. */
void out_str(struct out *o, const char *key, const char *fmt, const char *v);
void out_u64(struct out *o, const char *key, const char *fmt, uint64_t v);
void out_i64(struct out *o, const char *key, const char *fmt, int64_t v);
void out_f64(struct out *o, const char *key, const char *fmt, double v);
void out_bool(struct out *o, const char *key, const char *fmt, bool v);
void out_null(struct out *o, const char *key);
/* Text only; ignored in JSON mode. */
void out_text(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* JSON string escaping into f (with the quotes). The result is valid
 * UTF-8 whatever s holds: a byte that is not part of a valid UTF-8
 * sequence (overlong forms, surrogates, truncated sequences included)
 * becomes \ufffd, one per byte; control characters (C0, DEL, C1) and
 * U+2028/U+2029 are written as \uXXXX. */
void out_json_put_string(FILE *f, const char *s);
/* A json-c value into f, every string and key through out_json_put_string:
 * the one JSON rule for a document held as a tree (runs show --json,
 * runs export) as for one written by out_*. */
struct json_object;
void out_json_put_value(FILE *f, struct json_object *v);

/* A JSON document another writer left in src (a child's output), in
 * JSON only, under key as it is: its trailing newlines dropped, null when
 * src holds nothing but newlines. Nothing in text. */
void out_json_doc(struct out *o, const char *key, FILE *src);

/* A run's configuration ("placement=bound rules=0 ..."), in JSON only: an
 * object key: {axis: value, ...} (a word without '=' is the axis with
 * true), and the words as they are under key_text. Nothing in text. */
void out_config(struct out *o, const char *key, const char *key_text, const char *config);

/* Text for a terminal, the form out_str and out_text print every string
 * in: control bytes (newline and tab too), DEL, C1 controls and bytes
 * that are not valid UTF-8 are shown as \xNN, one per byte; printable
 * UTF-8 and backslashes pass as they are. Into buf (always terminated,
 * cut short between two characters when len is too small: 4 * strlen(s)
 * + 1 always suffices); returns buf. */
char *out_escape_text(char *buf, size_t len, const char *s);
/* The same, straight to f; newlines pass when keep_newline. */
void out_put_text(FILE *f, const char *s, bool keep_newline);
/* Length of the valid UTF-8 sequence at s (n bytes there), 0 when the
 * byte there does not start one. */
size_t out_utf8_len(const unsigned char *s, size_t n);


#endif
