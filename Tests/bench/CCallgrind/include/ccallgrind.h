#ifndef CCALLGRIND_H
#define CCALLGRIND_H

// Callgrind's client requests, for Tests/bench/press-instructions: no-ops outside valgrind.
#include <valgrind/callgrind.h>

/// Zeroes the counts and starts counting every thread's instructions.
static inline void ccallgrind_start(void) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
}

/// Stops counting and writes the counts since `ccallgrind_start` as a dump named `name`.
static inline void ccallgrind_stop(const char *name) {
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(name);
}

#endif
