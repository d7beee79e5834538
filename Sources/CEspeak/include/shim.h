#ifndef CESPEAK_SHIM_H
#define CESPEAK_SHIM_H

// eSpeak NG (Debian's libespeak-ng1), the speech the daemon reads a preset and a keypad's
// entry back with: synthesised into memory, played by marktime's own ALSA player. It is
// loaded with dlopen when speech starts (the daemon's, at its start when sound.speech is
// on; `marktime say`), never linked: libespeak-ng brings libpcaudio, libpulse and libX11
// with it, which every other marktime process (the CLI, the page, a daemon without speech)
// would otherwise map at start.

/// Samples synthesised so far, up to `limit`.
typedef struct {
    short *samples;
    int count;
    int capacity;
    int limit;
} cespeak_buffer;

/// Loads eSpeak NG and starts it for synthesis into memory: its sample rate; -1 when it
/// cannot start (no espeak-ng-data), -3 when the library cannot be loaded (`cespeak_error`
/// says why). The voice is chosen apart (`cespeak_voice`).
int cespeak_start(void);

/// Why the library could not be loaded (dlerror's words), or NULL.
const char *cespeak_error(void);

/// Chooses `voice`: 0, or -2 when it is unknown.
int cespeak_voice(const char *voice);

/// Synthesises `text` (UTF-8) at `wpm` words a minute into `b`; 0, or -1 on failure.
int cespeak_synth(const char *text, int wpm, cespeak_buffer *b);

void cespeak_free(cespeak_buffer *b);

#endif
