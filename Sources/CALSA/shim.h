#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

static void calsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Stops libasound printing its own diagnostics to stderr (snd_lib_error_set_handler):
/// marktime logs one line of its own, with the device name, instead.
static inline void calsa_quiet(void) {
    snd_lib_error_set_handler(calsa_quiet_handler);
}

/// Opens `device` for blocking mono S16_LE playback at `rate` with about
/// `latency_us` of buffer (snd_pcm_set_params: no alloca macros), then sets the start
/// threshold to one period (snd_pcm_sw_params_set_start_threshold), so a tone starts
/// as soon as its first period is queued rather than when the whole buffer is full.
/// `period` and `buffer` get the period and buffer sizes in frames. 0 or -errno. libasound's own stderr
/// diagnostics are silenced first: the caller logs the failure.
static inline int calsa_open(snd_pcm_t **pcm, const char *device, unsigned int rate, unsigned int latency_us,
                             snd_pcm_uframes_t *period, snd_pcm_uframes_t *buffer) {
    calsa_quiet();
    int rc = snd_pcm_open(pcm, device, SND_PCM_STREAM_PLAYBACK, 0);
    if (rc < 0) return rc;
    rc = snd_pcm_set_params(*pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate, 1, latency_us);
    if (rc >= 0) rc = snd_pcm_get_params(*pcm, buffer, period);
    snd_pcm_sw_params_t *sw = NULL;
    if (rc >= 0) rc = snd_pcm_sw_params_malloc(&sw);
    if (rc >= 0) {
        rc = snd_pcm_sw_params_current(*pcm, sw);
        if (rc >= 0) rc = snd_pcm_sw_params_set_start_threshold(*pcm, sw, *period);
        /* Keep the ring beyond what was written silent, so a late stop or drain plays
           zeros, not stale samples from an earlier tone. */
        snd_pcm_uframes_t boundary = 0;
        if (rc >= 0) rc = snd_pcm_sw_params_get_boundary(sw, &boundary);
        if (rc >= 0) rc = snd_pcm_sw_params_set_silence_threshold(*pcm, sw, 0);
        if (rc >= 0) rc = snd_pcm_sw_params_set_silence_size(*pcm, sw, boundary);
        if (rc >= 0) rc = snd_pcm_sw_params(*pcm, sw);
        snd_pcm_sw_params_free(sw);
    }
    if (rc < 0) {
        snd_pcm_close(*pcm);
        *pcm = NULL;
    }
    return rc;
}

#endif
