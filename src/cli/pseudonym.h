/* Keyed pseudonyms for `iolens convert --obfuscate`: HMAC-SHA256 of a value
 * under the user's key, so the same value gives the same pseudonym under the
 * same key in every log, and nobody without the key can test a guess. */
#ifndef IOLENS_CLI_PSEUDONYM_H
#define IOLENS_CLI_PSEUDONYM_H

#include <stddef.h>
#include <stdint.h>

#include "iolens/log.h"

/* Hex digits of a name's pseudonym (64 bits of the MAC). */
#define PSEUDONYM_HEX 16

/* What a pseudonym stands for: each kind is hashed apart, so a name and a
 * host of the same spelling get unrelated pseudonyms. */
enum pseudonym_kind {
    PSEUDO_NAME = 'n',  /* record name */
    PSEUDO_MOUNT = 'm', /* mount point */
    PSEUDO_WORD = 'w',  /* word of the command line */
    PSEUDO_HOST = 'h',  /* DXT host name */
    PSEUDO_UID = 'u',
    PSEUDO_JOBID = 'j',
    PSEUDO_ID = 'i',    /* record id that the log gives no name */
};

/* The first 8 bytes of HMAC-SHA256(key, kind byte + data), as an integer. */
uint64_t pseudonym64(const char *key, enum pseudonym_kind kind, const void *data, size_t len);

/* The pseudonym of len bytes at data as PSEUDONYM_HEX lower-case hex digits
 * and a NUL in out. */
void pseudonym_hex(const char *key, enum pseudonym_kind kind, const void *data, size_t len,
                   char out[PSEUDONYM_HEX + 1]);

/* Names kept as they are: they carry no user data (standard streams,
 * HEATMAP's "heatmap:<module>" records), as darshan-convert keeps them.
 * @return 1 if name is one of them. */
int pseudonym_keeps_name(const char *name);

/* The pseudonym of a record name: "<mount>/<hex>" when the name lies under a
 * mount point of mounts (the mount point itself, or its pseudonym
 * obf_mounts[i] when mount points are obfuscated; "/" gives "/<hex>"), else
 * "<hex>"; names pseudonym_keeps_name keeps are copied. Writes at most
 * out_len bytes. @return 0, or -1 if out_len is too small. */
int pseudonym_name(const char *key, const char *name, const struct iolens_mount *mounts,
                   char *const *obf_mounts, size_t nmounts, char *out, size_t out_len);

/* The pseudonym of a mount point: "/" stays, any other becomes "/<hex>".
 * @return a new string to free, or NULL when out of memory. */
char *pseudonym_mount(const char *key, const char *path);

/* Each blank-separated word of a command line replaced by its pseudonym.
 * @return a new string to free, or NULL when out of memory. */
char *pseudonym_command(const char *key, const char *cmd);

#endif
