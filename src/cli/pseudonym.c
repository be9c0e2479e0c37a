/* Keyed pseudonyms (HMAC-SHA256, OpenSSL's libcrypto) for convert --obfuscate. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pseudonym.h"

/* Longest value hashed in one piece on the stack; longer ones are copied. */
#define SMALL_VALUE 4096

uint64_t pseudonym64(const char *key, enum pseudonym_kind kind, const void *data, size_t len)
{
    unsigned char small[SMALL_VALUE + 1], mac[EVP_MAX_MD_SIZE];
    unsigned char *msg = len < SMALL_VALUE ? small : malloc(len + 1);
    unsigned int mac_len = 0;
    uint64_t v = 0;

    if (!msg)
        abort(); /* a name larger than memory allows cannot be hashed */
    msg[0] = (unsigned char)kind;
    memcpy(msg + 1, data, len);
    if (!HMAC(EVP_sha256(), key, (int)strlen(key), msg, len + 1, mac, &mac_len) || mac_len < 8)
        abort(); /* SHA-256 is always there in libcrypto */
    for (int i = 0; i < 8; i++)
        v = v << 8 | mac[i];
    if (msg != small)
        free(msg);
    return v;
}

void pseudonym_hex(const char *key, enum pseudonym_kind kind, const void *data, size_t len,
                   char out[PSEUDONYM_HEX + 1])
{
    snprintf(out, PSEUDONYM_HEX + 1, "%016llx",
             (unsigned long long)pseudonym64(key, kind, data, len));
}

int pseudonym_keeps_name(const char *name)
{
    static const char *const kept[] = {"<STDIN>", "<STDOUT>", "<STDERR>", "heatmap:"};
    for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
        if (!strncmp(name, kept[i], strlen(kept[i])))
            return 1;
    return 0;
}

int pseudonym_name(const char *key, const char *name, const struct iolens_mount *mounts,
                   char *const *obf_mounts, size_t nmounts, char *out, size_t out_len)
{
    char hex[PSEUDONYM_HEX + 1];
    const char *prefix = "";
    int n;

    if (pseudonym_keeps_name(name)) {
        n = snprintf(out, out_len, "%s", name);
        return n < 0 || (size_t)n >= out_len ? -1 : 0;
    }
    /* The deepest mount point first (the log's mount table is in that order),
     * as the tools match a name to its file system. */
    for (size_t i = 0; i < nmounts; i++) {
        if (!strncmp(mounts[i].path, name, strlen(mounts[i].path))) {
            prefix = obf_mounts ? obf_mounts[i] : mounts[i].path;
            break;
        }
    }
    size_t plen = strlen(prefix);
    if (plen && prefix[plen - 1] == '/')
        plen--; /* "/" + "/" + hex would give "//hex" */
    pseudonym_hex(key, PSEUDO_NAME, name, strlen(name), hex);
    if (*prefix)
        n = snprintf(out, out_len, "%.*s/%s", (int)plen, prefix, hex);
    else
        n = snprintf(out, out_len, "%s", hex);
    return n < 0 || (size_t)n >= out_len ? -1 : 0;
}

char *pseudonym_mount(const char *key, const char *path)
{
    char hex[PSEUDONYM_HEX + 1], *out;
    if (!strcmp(path, "/"))
        return strdup(path);
    pseudonym_hex(key, PSEUDO_MOUNT, path, strlen(path), hex);
    if (!(out = malloc(PSEUDONYM_HEX + 2)))
        return NULL;
    snprintf(out, PSEUDONYM_HEX + 2, "/%s", hex);
    return out;
}

char *pseudonym_command(const char *key, const char *cmd)
{
    static const char blanks[] = " \t";
    /* Each word becomes at most PSEUDONYM_HEX characters and one separator. */
    size_t words = 0;
    for (const char *p = cmd; *p;) {
        p += strspn(p, blanks);
        if (*p)
            words++;
        p += strcspn(p, blanks);
    }
    size_t cap = words * (PSEUDONYM_HEX + 1) + 1, used = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (const char *p = cmd; *p;) {
        p += strspn(p, blanks);
        size_t len = strcspn(p, blanks);
        if (!len)
            break;
        char hex[PSEUDONYM_HEX + 1];
        pseudonym_hex(key, PSEUDO_WORD, p, len, hex);
        used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? " " : "", hex);
        p += len;
    }
    return out;
}
