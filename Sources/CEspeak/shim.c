#include "shim.h"

#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>
#include <stdlib.h>
#include <string.h>

// The functions used, resolved once from the library (Debian's soname).
static const char *soname = "libespeak-ng.so.1";
static char load_error[256];
static int (*e_initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
static void (*e_set_synth_callback)(t_espeak_callback *);
static espeak_ERROR (*e_set_voice_by_name)(const char *);
static espeak_ERROR (*e_set_parameter)(espeak_PARAMETER, int, int);
static espeak_ERROR (*e_synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int, unsigned int *, void *);
static espeak_ERROR (*e_synchronize)(void);

/// Loads the library and its functions; 0, or -1 with `load_error` set.
static int load(void) {
    if (e_synchronize != NULL) return 0;
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        strncpy(load_error, why != NULL ? why : soname, sizeof load_error - 1);
        return -1;
    }
    e_initialize = (int (*)(espeak_AUDIO_OUTPUT, int, const char *, int))dlsym(library, "espeak_Initialize");
    e_set_synth_callback = (void (*)(t_espeak_callback *))dlsym(library, "espeak_SetSynthCallback");
    e_set_voice_by_name = (espeak_ERROR (*)(const char *))dlsym(library, "espeak_SetVoiceByName");
    e_set_parameter = (espeak_ERROR (*)(espeak_PARAMETER, int, int))dlsym(library, "espeak_SetParameter");
    e_synth = (espeak_ERROR (*)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int, unsigned int *, void *))
        dlsym(library, "espeak_Synth");
    void *synchronize = dlsym(library, "espeak_Synchronize");
    if (e_initialize == NULL || e_set_synth_callback == NULL || e_set_voice_by_name == NULL || e_set_parameter == NULL
        || e_synth == NULL || synchronize == NULL) {
        strncpy(load_error, "a function of eSpeak NG's API is missing from libespeak-ng.so.1", sizeof load_error - 1);
        dlclose(library);
        return -1;
    }
    e_synchronize = (espeak_ERROR (*)(void))synchronize;
    load_error[0] = '\0';
    return 0;
}

const char *cespeak_error(void) { return load_error[0] != '\0' ? load_error : NULL; }

static int collect(short *wav, int n, espeak_EVENT *events) {
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

int cespeak_start(void) {
    if (load() != 0) return -3;
    int rate = e_initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) return -1;
    e_set_synth_callback(collect);
    return rate;
}

int cespeak_voice(const char *voice) {
    if (load() != 0) return -3;
    return e_set_voice_by_name(voice) == EE_OK ? 0 : -2;
}

int cespeak_synth(const char *text, int wpm, cespeak_buffer *b) {
    if (load() != 0) return -3;
    e_set_parameter(espeakRATE, wpm, 0);
    espeak_ERROR e = e_synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, b);
    if (e != EE_OK) return -1;
    return e_synchronize() == EE_OK ? 0 : -1;
}

void cespeak_free(cespeak_buffer *b) {
    free(b->samples);
    b->samples = NULL;
    b->count = b->capacity = 0;
}
