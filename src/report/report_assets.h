/* The page's parts, embedded when iolens is built (src/report/report.cmake):
 * the template (report.html), its style (report.css) and script
 * (report.js), and Debian's Chart.js. */
#ifndef IOLENS_REPORT_ASSETS_H
#define IOLENS_REPORT_ASSETS_H

#include <stddef.h>

extern const unsigned char report_asset_html[], report_asset_css[], report_asset_js[],
    report_asset_chartjs[];
extern const size_t report_asset_html_len, report_asset_css_len, report_asset_js_len,
    report_asset_chartjs_len;

#endif
