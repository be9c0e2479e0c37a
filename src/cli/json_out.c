/* JSON output the verbs share: strings that stay valid JSON whatever bytes a
 * log's names hold, and numbers. */
#include <math.h>
#include <stdio.h>

#include "cli.h"

/* Length of the UTF-8 sequence at p (1 to 4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *p)
{
    size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (p[0] >= 0xf8)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Bytes a JSON string holds as they are: printable ASCII but '"' and '\\'. */
static size_t plain_run(const unsigned char *p)
{
    size_t n = 0;
    while (p[n] >= 0x20 && p[n] < 0x7f && p[n] != '"' && p[n] != '\\')
        n++;
    return n;
}

void cli_json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = plain_run(p); /* names are mostly plain: written in runs */
        if (n) {
            fwrite(p, 1, n, out);
            p += n;
        } else if (*p == '"' || *p == '\\') {
            putc('\\', out);
            putc(*p++, out);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(out, "\\u%04x", *p++);
        } else if ((n = utf8_len(p)) != 0) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            fprintf(out, "\\u%04x", *p++);
        }
    }
    putc('"', out);
}

void cli_json_number(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.6g", v);
}
