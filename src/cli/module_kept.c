/* Which of a log's modules the verbs that rewrite a log (convert, export)
 * carry over, and the one warning for those they leave out. */
#include <stdio.h>

#include "cli.h"

int cli_module_kept(const struct iolens_log_info *in, int id)
{
    if (in->mod_map[id].len == 0)
        return 0;
    if (!iolens_module_name(id)) {
        fprintf(stderr, "# warning: module id %d is unknown to this version of iolens; "
                        "leaving it out\n", id);
        return 0;
    }
    if (!iolens_module(id)) {
        fprintf(stderr, "# warning: iolens cannot decode %s records; leaving them out\n",
                iolens_module_name(id));
        return 0;
    }
    return 1;
}
