/* A growing text buffer that iolens serve writes its JSON answers into. */
#ifndef IOLENS_SERVE_JSON_H
#define IOLENS_SERVE_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "../db/db.h"

/* The text so far; failed is set (and the text left as it was) when memory
 * ran out, so that writers need not check each call. */
struct jbuf {
    char *p;
    size_t len, cap;
    int failed;
};

/* Append n bytes of s. */
void jb_add(struct jbuf *b, const char *s, size_t n);

/* Append a C string as it is (JSON punctuation, keys known to be plain). */
void jb_raw(struct jbuf *b, const char *s);

/* Append s as a JSON string: quotes, backslashes and control characters
 * escaped, and '<', '>', '&' too (so the text is inert even if a browser
 * took it for HTML); bytes that are not UTF-8 become U+FFFD. NULL: null. */
void jb_str(struct jbuf *b, const char *s);

/* Append an integer, or a number (null when it is not finite). */
void jb_int(struct jbuf *b, int64_t v);
void jb_num(struct jbuf *b, double v);

/* Append a database value as JSON (numbers, strings, null). */
void jb_val(struct jbuf *b, const struct db_val *v);

/* A database value as a number: missing for NULL and text. */
double jb_number_of(const struct db_val *v, double missing);

/* Append ",\"key\":" (no comma when first is set). */
void jb_key(struct jbuf *b, const char *key, int first);

/* Free the text. */
void jb_free(struct jbuf *b);

#endif
