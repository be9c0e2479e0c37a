/* A small JSON reader for iolens predict's run files: the whole document
 * into a tree of values. */
#ifndef IOLENS_PREDICT_JSON_H
#define IOLENS_PREDICT_JSON_H

#include <stddef.h>

enum pj_type { PJ_NULL, PJ_BOOL, PJ_NUMBER, PJ_STRING, PJ_ARRAY, PJ_OBJECT };

struct pj_value {
    enum pj_type type;
    double number;            /* PJ_NUMBER, PJ_BOOL (0 or 1) */
    char *string;             /* PJ_STRING */
    struct pj_value *items;   /* PJ_ARRAY, PJ_OBJECT: the values */
    char **keys;              /* PJ_OBJECT: their keys */
    size_t n;
};

/* Parse text (len bytes) into *out. On failure err gets "line N: reason".
 * @return 0, or -1. */
int pj_parse(const char *text, size_t len, struct pj_value *out, char *err, size_t errlen);

/* Read and parse the file at path. On failure err gets "PATH: reason".
 * @return 0, or -1. */
int pj_load(const char *path, struct pj_value *v, char *err, size_t errlen);

/* Free what pj_parse allocated in v. */
void pj_free(struct pj_value *v);

/* The member key of object v, or NULL (not an object, or no such member). */
const struct pj_value *pj_get(const struct pj_value *v, const char *key);

/* Member key as a string or number, or the fallback when absent or of
 * another type. */
const char *pj_string(const struct pj_value *v, const char *key, const char *fallback);
double pj_number(const struct pj_value *v, const char *key, double fallback);

#endif
