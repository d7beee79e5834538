#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

/// Opens `device` for blocking mono S16_LE playback at `rate` with about
/// `latency_us` of buffer (snd_pcm_set_params: no alloca macros). 0 or -errno.
static inline int calsa_open(snd_pcm_t **pcm, const char *device, unsigned int rate, unsigned int latency_us) {
    int rc = snd_pcm_open(pcm, device, SND_PCM_STREAM_PLAYBACK, 0);
    if (rc < 0) return rc;
    rc = snd_pcm_set_params(*pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, rate, 1, latency_us);
    if (rc < 0) {
        snd_pcm_close(*pcm);
        *pcm = NULL;
    }
    return rc;
}

#endif
