/* The report page: the template (report.html) with its markers replaced by
 * the title, the style, the data (one JSON object) and the scripts. */
#include <stdlib.h>
#include <string.h>

#include "page.h"
#include "report_assets.h"

/* Write text with HTML's special characters escaped. */
static void put_html(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*p, out);
        }
    }
}

/* Write the JSON data where a <script> element holds it: '<' only occurs in
 * JSON strings, where \u003c means the same, and "</script>" cannot end the
 * element early. @return 0, or -1 (no memory). */
static int put_data(FILE *out, const struct report_input *in)
{
    char *json = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&json, &len);
    if (!mem)
        return -1;
    int failed = report_write_data(mem, in) < 0;
    if (fclose(mem) != 0 || failed) {
        free(json);
        return -1;
    }
    fputs("<script id=\"iolens-data\" type=\"application/json\">", out);
    for (size_t i = 0; i < len; i++) {
        if (json[i] == '<')
            fputs("\\u003c", out);
        else
            fputc(json[i], out);
    }
    fputs("</script>", out);
    free(json);
    return 0;
}

/* Write one marker's replacement. @return 0, or -1 (no memory). */
static int put_marker(FILE *out, const char *marker, size_t len, const struct report_input *in)
{
    if (len == 5 && !memcmp(marker, "TITLE", 5)) {
        put_html(out, in->log_name);
    } else if (len == 5 && !memcmp(marker, "STYLE", 5)) {
        fputs("<style>", out);
        fwrite(report_asset_css, 1, report_asset_css_len, out);
        fputs("</style>", out);
    } else if (len == 4 && !memcmp(marker, "DATA", 4)) {
        return put_data(out, in);
    } else if (len == 7 && !memcmp(marker, "SCRIPTS", 7)) {
        fputs("<script>", out);
        fwrite(report_asset_chartjs, 1, report_asset_chartjs_len, out);
        fputs("</script>\n<script>", out);
        fwrite(report_asset_js, 1, report_asset_js_len, out);
        fputs("</script>", out);
    }
    return 0;
}

int report_write_page(FILE *out, const struct report_input *in)
{
    static const char open[] = "<!--@", close[] = "@-->";
    const char *p = (const char *)report_asset_html;
    const char *end = p + report_asset_html_len;
    while (p < end) {
        const char *m = memmem(p, (size_t)(end - p), open, sizeof(open) - 1);
        const char *name = m ? m + sizeof(open) - 1 : end;
        const char *stop = m ? memmem(name, (size_t)(end - name), close, sizeof(close) - 1) : NULL;
        if (!stop) {
            fwrite(p, 1, (size_t)(end - p), out);
            break;
        }
        fwrite(p, 1, (size_t)(m - p), out);
        if (put_marker(out, name, (size_t)(stop - name), in) < 0)
            return -1;
        p = stop + sizeof(close) - 1;
    }
    return 0;
}
