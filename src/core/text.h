/* Small readers of text that /proc, /sys and our own files share: a line
 * at a time, blanks skipped, a number that ends at a blank, a key=value
 * line's value. */
#ifndef WR_CORE_TEXT_H
#define WR_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line of text: [*start, *start + *len) up to '\n' or NUL; advances
 * *p past it. False at the end of the text. */
bool text_line(const char **p, const char **start, size_t *len);
/* s moved past blanks (spaces and tabs), at most to end. */
const char *text_skip_blank(const char *s, const char *end);
/* A number of the given base (10 or 16) that ends at a blank or at end;
 * returns the position after it, or NULL when there is none. */
const char *text_num(const char *s, const char *end, int base, uint64_t *v);
/* The value of the first line "key=value" of text (lines end at '\n')
 * copied into val (cut to len); val, or NULL when no line has the key. */
const char *text_kv_get(const char *text, const char *key, char *val, size_t len);

#endif
