/* Regions stored as they are (compression type 2): a step copies bytes. */
#include <string.h>

#include "codec.h"

static iolens_status none_new(void **state)
{
    *state = NULL;
    return IOLENS_OK;
}

/* Copy what fits; a stream of raw bytes never ends. */
static void copy(struct iol_codec_buf *b)
{
    size_t avail = b->in_len - b->in_pos, room = b->out_cap - b->out_pos;
    size_t n = avail < room ? avail : room;
    if (n)
        memcpy(b->out + b->out_pos, b->in + b->in_pos, n);
    b->in_pos += n;
    b->out_pos += n;
}

static iolens_status none_dec_step(void *state, struct iol_codec_buf *b)
{
    copy(b);
    return IOLENS_OK;
}

static iolens_status none_enc_step(void *state, struct iol_codec_buf *b, int finish)
{
    copy(b);
    return finish && b->in_pos == b->in_len ? IOLENS_END : IOLENS_OK;
}

const struct iol_codec iol_codec_none = {
    .dec_new = none_new,
    .dec_step = none_dec_step,
    .enc_new = none_new,
    .enc_step = none_enc_step,
};
