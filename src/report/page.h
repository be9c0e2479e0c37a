/* The report page: one self-contained HTML file (docs/report.md). */
#ifndef IOLENS_REPORT_PAGE_H
#define IOLENS_REPORT_PAGE_H

#include <stdio.h>

#include "report_data.h"

/* Write the whole page for in to out. @return 0, or -1 (no memory); write
 * errors are out's to report. */
int report_write_page(FILE *out, const struct report_input *in);

#endif
