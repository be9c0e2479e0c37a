/* The live page's parts, embedded when iolens is built (src/serve/serve.cmake);
 * Chart.js is the report's copy (report_assets.h). */
#ifndef IOLENS_SERVE_ASSETS_H
#define IOLENS_SERVE_ASSETS_H

#include <stddef.h>

extern const unsigned char serve_asset_html[], serve_asset_css[], serve_asset_js[];
extern const size_t serve_asset_html_len, serve_asset_css_len, serve_asset_js_len;

#endif
