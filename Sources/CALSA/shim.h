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

/// Opens `device` for blocking mono S16_LE playback at `rate`, with a buffer of about
/// `buffer_us` (so a whole tone fits and no stall of the writing thread can cut it) and
/// periods of about `period_us` (so a looping alarm hears a stop within one period).
/// Playback never starts by itself (start threshold: the boundary): the caller fills the
/// buffer first, then calls snd_pcm_start. A device that refuses those sizes is opened
/// with snd_pcm_set_params and `fallback_us` of latency instead. `period` and `buffer`
/// get the sizes in frames. 0 or -errno. libasound's own stderr diagnostics are
/// silenced first: the caller logs the failure.
static inline int calsa_open(snd_pcm_t **pcm, const char *device, unsigned int rate, unsigned int buffer_us,
                             unsigned int period_us, unsigned int fallback_us,
                             snd_pcm_uframes_t *period, snd_pcm_uframes_t *buffer) {
    calsa_quiet();
    int rc = snd_pcm_open(pcm, device, SND_PCM_STREAM_PLAYBACK, 0);
    if (rc < 0) return rc;
    snd_pcm_hw_params_t *hw = NULL;
    rc = snd_pcm_hw_params_malloc(&hw);
    if (rc >= 0) rc = snd_pcm_hw_params_any(*pcm, hw);
    if (rc >= 0) rc = snd_pcm_hw_params_set_rate_resample(*pcm, hw, 1);
    if (rc >= 0) rc = snd_pcm_hw_params_set_access(*pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
    if (rc >= 0) rc = snd_pcm_hw_params_set_format(*pcm, hw, SND_PCM_FORMAT_S16_LE);
    if (rc >= 0) rc = snd_pcm_hw_params_set_channels(*pcm, hw, 1);
    if (rc >= 0) rc = snd_pcm_hw_params_set_rate(*pcm, hw, rate, 0);
    unsigned int b = buffer_us, p = period_us;
    int dir = 0;
    if (rc >= 0) rc = snd_pcm_hw_params_set_buffer_time_near(*pcm, hw, &b, &dir);
    if (rc >= 0) rc = snd_pcm_hw_params_set_period_time_near(*pcm, hw, &p, &dir);
    if (rc >= 0) rc = snd_pcm_hw_params(*pcm, hw);
    if (hw) snd_pcm_hw_params_free(hw);
    if (rc < 0) rc = snd_pcm_set_params(*pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate, 1, fallback_us);
    if (rc >= 0) rc = snd_pcm_get_params(*pcm, buffer, period);
    snd_pcm_sw_params_t *sw = NULL;
    if (rc >= 0) rc = snd_pcm_sw_params_malloc(&sw);
    if (rc >= 0) {
        rc = snd_pcm_sw_params_current(*pcm, sw);
        snd_pcm_uframes_t boundary = 0;
        if (rc >= 0) rc = snd_pcm_sw_params_get_boundary(sw, &boundary);
        if (rc >= 0) rc = snd_pcm_sw_params_set_start_threshold(*pcm, sw, boundary);
        if (rc >= 0) rc = snd_pcm_sw_params_set_avail_min(*pcm, sw, *period);
        /* Keep the ring beyond what was written silent, so a late stop or drain plays
           zeros, not stale samples from an earlier tone. */
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

/// Starts playback of what was written, unless it already runs.
static inline int calsa_start(snd_pcm_t *pcm) {
    return snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED ? snd_pcm_start(pcm) : 0;
}

/// Opens `device` for blocking mono S16_LE capture at exactly `rate` (a `plughw:` name
/// converts, a `hw:` one must offer it), with periods of about `period_us` and a ring of
/// about `buffer_us`, and starts it (snd-aloop answers EIO to a read that would start it).
/// 0 or -errno; libasound's stderr diagnostics are silenced first.
static inline int calsa_open_capture(snd_pcm_t **pcm, const char *device, unsigned int rate, unsigned int period_us,
                                     unsigned int buffer_us) {
    calsa_quiet();
    int rc = snd_pcm_open(pcm, device, SND_PCM_STREAM_CAPTURE, 0);
    if (rc < 0) return rc;
    snd_pcm_hw_params_t *hw = NULL;
    rc = snd_pcm_hw_params_malloc(&hw);
    if (rc >= 0) rc = snd_pcm_hw_params_any(*pcm, hw);
    if (rc >= 0) rc = snd_pcm_hw_params_set_access(*pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
    if (rc >= 0) rc = snd_pcm_hw_params_set_format(*pcm, hw, SND_PCM_FORMAT_S16_LE);
    if (rc >= 0) rc = snd_pcm_hw_params_set_channels(*pcm, hw, 1);
    if (rc >= 0) rc = snd_pcm_hw_params_set_rate(*pcm, hw, rate, 0);
    unsigned int p = period_us, b = buffer_us;
    int dir = 0;
    if (rc >= 0) rc = snd_pcm_hw_params_set_period_time_near(*pcm, hw, &p, &dir);
    if (rc >= 0) rc = snd_pcm_hw_params_set_buffer_time_near(*pcm, hw, &b, &dir);
    if (rc >= 0) rc = snd_pcm_hw_params(*pcm, hw);
    if (hw) snd_pcm_hw_params_free(hw);
    if (rc >= 0) rc = snd_pcm_start(*pcm);
    if (rc < 0) {
        snd_pcm_close(*pcm);
        *pcm = NULL;
    }
    return rc;
}

#endif
