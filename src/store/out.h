/* Output that is text or JSON from the same calls (iproute2's print_*
 * idea): each value is given once with its JSON key and its text format,
 * so the two forms never drift apart. */
#ifndef WR_STORE_OUT_H
#define WR_STORE_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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

/* JSON string escaping into f (with the quotes). */
void json_put_string(FILE *f, const char *s);

#endif
