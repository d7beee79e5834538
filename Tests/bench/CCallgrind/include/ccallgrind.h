#ifndef CCALLGRIND_H
#define CCALLGRIND_H

// Callgrind's client requests, for Tests/bench/press-instructions: no-ops outside valgrind.
// Without valgrind's header (a machine without the valgrind package) they do nothing at
// all, so the bench still builds; the script that runs it asks for valgrind.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

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
