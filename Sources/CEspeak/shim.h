#ifndef CESPEAK_SHIM_H
#define CESPEAK_SHIM_H

// eSpeak NG (Debian's libespeak-ng-dev), the speech the daemon reads a preset and a
// keypad's entry back with: synthesised into memory, played by marktime's own ALSA player.
#include <espeak-ng/speak_lib.h>
#include <stdlib.h>
#include <string.h>

/// Samples synthesised so far, up to `limit`.
typedef struct {
    short *samples;
    int count;
    int capacity;
    int limit;
} cespeak_buffer;

static int cespeak_collect(short *wav, int n, espeak_EVENT *events) {
    if (wav == NULL || n <= 0) return 0;
    cespeak_buffer *b = events != NULL ? (cespeak_buffer *)events->user_data : NULL;
    if (b == NULL) return 1;
    if (b->count + n > b->limit) return 1;  // longer than the limit: synthesis stops
    if (b->count + n > b->capacity) {
        int capacity = b->capacity > 0 ? b->capacity : 16384;
        while (capacity < b->count + n) capacity *= 2;
        short *grown = realloc(b->samples, (size_t)capacity * sizeof(short));
        if (grown == NULL) return 1;
        b->samples = grown;
        b->capacity = capacity;
    }
    memcpy(b->samples + b->count, wav, (size_t)n * sizeof(short));
    b->count += n;
    return 0;
}

/// Starts eSpeak NG for synthesis into memory: its sample rate, or -1 when it cannot
/// start (no espeak-ng-data). The voice is chosen apart (`cespeak_voice`).
static inline int cespeak_start(void) {
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) return -1;
    espeak_SetSynthCallback(cespeak_collect);
    return rate;
}

/// Chooses `voice`: 0, or -2 when it is unknown.
static inline int cespeak_voice(const char *voice) {
    return espeak_SetVoiceByName(voice) == EE_OK ? 0 : -2;
}

/// Synthesises `text` (UTF-8) at `wpm` words a minute into `b`; 0, or -1 on failure.
static inline int cespeak_synth(const char *text, int wpm, cespeak_buffer *b) {
    espeak_SetParameter(espeakRATE, wpm, 0);
    espeak_ERROR e = espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, b);
    if (e != EE_OK) return -1;
    return espeak_Synchronize() == EE_OK ? 0 : -1;
}

static inline void cespeak_free(cespeak_buffer *b) {
    free(b->samples);
    b->samples = NULL;
    b->count = b->capacity = 0;
}

#endif
