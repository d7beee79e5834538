#ifndef CFLAC_SHIM_H
#define CFLAC_SHIM_H

#include <FLAC/stream_decoder.h>
#include <FLAC/stream_encoder.h>
#include <stdlib.h>
#include <string.h>

/// A growing byte buffer with a position: libFLAC's encoder writes into it and seeks back
/// to finish STREAMINFO (the length and the MD5 of the samples, which `flac -t` checks).
typedef struct {
    FLAC__byte *bytes;
    size_t count, capacity, position;
    int failed;
} cflac_buffer;

static FLAC__StreamEncoderWriteStatus cflac_write(const FLAC__StreamEncoder *e, const FLAC__byte data[], size_t n,
                                                  uint32_t samples, uint32_t frame, void *context) {
    (void)e; (void)samples; (void)frame;
    cflac_buffer *b = context;
    if (b->position + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 65536;
        while (capacity < b->position + n) capacity *= 2;
        FLAC__byte *grown = realloc(b->bytes, capacity);
        if (!grown) { b->failed = 1; return FLAC__STREAM_ENCODER_WRITE_STATUS_FATAL_ERROR; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->position, data, n);
    b->position += n;
    if (b->position > b->count) b->count = b->position;
    return FLAC__STREAM_ENCODER_WRITE_STATUS_OK;
}

static FLAC__StreamEncoderSeekStatus cflac_seek(const FLAC__StreamEncoder *e, FLAC__uint64 offset, void *context) {
    (void)e;
    cflac_buffer *b = context;
    if (offset > b->count) return FLAC__STREAM_ENCODER_SEEK_STATUS_ERROR;
    b->position = (size_t)offset;
    return FLAC__STREAM_ENCODER_SEEK_STATUS_OK;
}

static FLAC__StreamEncoderTellStatus cflac_tell(const FLAC__StreamEncoder *e, FLAC__uint64 *offset, void *context) {
    (void)e;
    *offset = ((cflac_buffer *)context)->position;
    return FLAC__STREAM_ENCODER_TELL_STATUS_OK;
}

/// Encodes `frames` mono 16-bit samples at `rate` as a FLAC stream (compression level 5,
/// libFLAC's default). On success 0, and `*out` (free it) holds `*count` bytes; else the
/// encoder's state (a FLAC__StreamEncoderState) or its init status + 100, or -1 for memory.
static inline int cflac_encode(const int16_t *samples, size_t frames, unsigned int rate, FLAC__byte **out, size_t *count) {
    *out = NULL;
    *count = 0;
    FLAC__StreamEncoder *e = FLAC__stream_encoder_new();
    if (!e) return -1;
    FLAC__stream_encoder_set_channels(e, 1);
    FLAC__stream_encoder_set_bits_per_sample(e, 16);
    FLAC__stream_encoder_set_sample_rate(e, rate);
    FLAC__stream_encoder_set_compression_level(e, 5);
    FLAC__stream_encoder_set_total_samples_estimate(e, frames);
    cflac_buffer b = {0};
    FLAC__StreamEncoderInitStatus init = FLAC__stream_encoder_init_stream(e, cflac_write, cflac_seek, cflac_tell, NULL, &b);
    if (init != FLAC__STREAM_ENCODER_INIT_STATUS_OK) {
        FLAC__stream_encoder_delete(e);
        free(b.bytes);
        return 100 + (int)init;
    }
    FLAC__int32 chunk[4096];
    int ok = 1;
    for (size_t at = 0; ok && at < frames; at += 4096) {
        size_t n = frames - at < 4096 ? frames - at : 4096;
        for (size_t i = 0; i < n; i++) chunk[i] = samples[at + i];
        ok = FLAC__stream_encoder_process_interleaved(e, chunk, (uint32_t)n);
    }
    int state = ok ? 0 : (int)FLAC__stream_encoder_get_state(e);
    if (!FLAC__stream_encoder_finish(e) && !state) state = (int)FLAC__stream_encoder_get_state(e);
    FLAC__stream_encoder_delete(e);
    if (b.failed) state = -1;
    if (state) { free(b.bytes); return state; }
    *out = b.bytes;
    *count = b.count;
    return 0;
}

/// What the decoder reads from, and the mono 16-bit samples it writes.
typedef struct {
    const FLAC__byte *bytes;
    size_t count, position;
    int16_t *samples;
    size_t frames, capacity;
    unsigned int rate, channels, bits;
    FLAC__uint64 total;
    int failed;
} cflac_decoding;

static FLAC__StreamDecoderReadStatus cflac_read(const FLAC__StreamDecoder *d, FLAC__byte buffer[], size_t *n, void *context) {
    (void)d;
    cflac_decoding *s = context;
    size_t left = s->count - s->position;
    if (left == 0) { *n = 0; return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM; }
    if (*n > left) *n = left;
    memcpy(buffer, s->bytes + s->position, *n);
    s->position += *n;
    return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE;
}

static FLAC__StreamDecoderWriteStatus cflac_decoded(const FLAC__StreamDecoder *d, const FLAC__Frame *frame,
                                                    const FLAC__int32 *const buffer[], void *context) {
    (void)d;
    cflac_decoding *s = context;
    if (frame->header.channels != 1 || frame->header.bits_per_sample != 16) {
        s->failed = 2;
        return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
    }
    s->rate = frame->header.sample_rate;
    size_t n = frame->header.blocksize;
    /* Never more than STREAMINFO says the stream holds (a crafted stream cannot grow it). */
    if (s->total && s->frames + n > s->total) {
        s->failed = 3;
        return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT;
    }
    if (s->frames + n > s->capacity) {
        size_t capacity = s->capacity ? s->capacity : 65536;
        while (capacity < s->frames + n) capacity *= 2;
        int16_t *grown = realloc(s->samples, capacity * sizeof(int16_t));
        if (!grown) { s->failed = 1; return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT; }
        s->samples = grown;
        s->capacity = capacity;
    }
    for (size_t i = 0; i < n; i++) s->samples[s->frames + i] = (int16_t)buffer[0][i];
    s->frames += n;
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void cflac_metadata(const FLAC__StreamDecoder *d, const FLAC__StreamMetadata *m, void *context) {
    (void)d;
    if (m->type == FLAC__METADATA_TYPE_STREAMINFO) {
        ((cflac_decoding *)context)->rate = m->data.stream_info.sample_rate;
        ((cflac_decoding *)context)->total = m->data.stream_info.total_samples;
    }
}

static void cflac_error(const FLAC__StreamDecoder *d, FLAC__StreamDecoderErrorStatus status, void *context) {
    (void)d; (void)status;
    ((cflac_decoding *)context)->failed = 3;
}

/// Decodes a mono 16-bit FLAC stream of `count` bytes, exactly as long as its STREAMINFO says. On success 0, `*samples` (free it)
/// holds `*frames` samples at `*rate`; else 1 (memory), 2 (not mono 16-bit), 3 (a corrupt
/// stream), 4 (not FLAC at all).
static inline int cflac_decode(const FLAC__byte *bytes, size_t count, int16_t **samples, size_t *frames, unsigned int *rate) {
    *samples = NULL;
    *frames = 0;
    *rate = 0;
    if (count < 4 || memcmp(bytes, "fLaC", 4) != 0) return 4;
    FLAC__StreamDecoder *d = FLAC__stream_decoder_new();
    if (!d) return 1;
    cflac_decoding s = {0};
    s.bytes = bytes;
    s.count = count;
    if (FLAC__stream_decoder_init_stream(d, cflac_read, NULL, NULL, NULL, NULL, cflac_decoded, cflac_metadata, cflac_error, &s)
        != FLAC__STREAM_DECODER_INIT_STATUS_OK) {
        FLAC__stream_decoder_delete(d);
        return 1;
    }
    FLAC__bool ok = FLAC__stream_decoder_process_until_end_of_stream(d);
    FLAC__StreamDecoderState state = FLAC__stream_decoder_get_state(d);
    FLAC__stream_decoder_finish(d);
    FLAC__stream_decoder_delete(d);
    int rc = s.failed;
    if (!rc && (!ok || state != FLAC__STREAM_DECODER_END_OF_STREAM)) rc = 3;
    if (!rc && s.rate == 0) rc = 3;
    /* Cut at a frame's edge, a stream decodes cleanly but short: its length must be STREAMINFO's. */
    if (!rc && s.total && s.frames != s.total) rc = 3;
    if (rc) { free(s.samples); return rc; }
    *samples = s.samples;
    *frames = s.frames;
    *rate = s.rate;
    return 0;
}

#endif
