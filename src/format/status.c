/* The one place status codes become words. */
#include "iolens/status.h"

const char *iolens_strerror(iolens_status status)
{
    switch (status) {
    case IOLENS_OK: return "success";
    case IOLENS_END: return "no more data";
    case IOLENS_ERR_IO: return "input/output error";
    case IOLENS_ERR_NOMEM: return "out of memory";
    case IOLENS_ERR_NOT_LOG: return "not a Darshan log";
    case IOLENS_ERR_VERSION: return "unsupported version";
    case IOLENS_ERR_TRUNCATED: return "file is truncated";
    case IOLENS_ERR_CORRUPT: return "corrupt data";
    case IOLENS_ERR_COMPRESSION: return "unsupported compression";
    case IOLENS_ERR_ARGUMENT: return "invalid argument";
    case IOLENS_ERR_PARTIAL: return "module data is incomplete";
    case IOLENS_ERR_UNKNOWN_MODULE: return "unknown module";
    case IOLENS_ERR_ORDER: return "calls out of order";
    }
    return "unknown status";
}
