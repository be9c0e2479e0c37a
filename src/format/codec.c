/* The table of codecs, indexed by the format's compression numbers. */
#include "codec.h"

static const struct iol_codec *const codecs[] = {
    [IOLENS_COMP_ZLIB] = &iol_codec_zlib,
#ifndef IOLENS_ZLIB_ONLY
    [IOLENS_COMP_BZIP2] = &iol_codec_bzip2,
    [IOLENS_COMP_ZSTD] = &iol_codec_zstd,
#endif
    [IOLENS_COMP_NONE] = &iol_codec_none,
};

const struct iol_codec *iol_codec(iolens_compression comp)
{
    if ((unsigned)comp >= sizeof(codecs) / sizeof(codecs[0]))
        return NULL;
    return codecs[comp];
}
