#ifndef CSYSTEMCLOCK_SHIM_H
#define CSYSTEMCLOCK_SHIM_H

#include <stdint.h>
#include <spawn.h>

/// One reading of the system clocks: CLOCK_REALTIME bracketed by two
/// CLOCK_MONOTONIC reads, and adjtimex()'s view of synchronisation.
typedef struct {
    int64_t monotonic_before_ns;
    int64_t realtime_ns;
    int64_t monotonic_after_ns;
    /// 1 when adjtimex() reports the kernel clock synchronised.
    int synchronised;
    /// adjtimex() estimated error, microseconds.
    long esterror_us;
    /// adjtimex() maximum error, microseconds.
    long maxerror_us;
    /// errno of a failed call, else 0.
    int error;
} csystemclock_reading;

/// Fills `out`; returns 0, or -1 with `out->error` set.
int csystemclock_read(csystemclock_reading *out);

/// A CLOCK_REALTIME timerfd, non-blocking and close-on-exec; -1 with errno on failure.
int csystemclock_timer_create(void);

/// Arms the timer to fire at `ns` since the epoch, and also when the clock is set
/// (TFD_TIMER_CANCEL_ON_SET); disarms it when `ns` is negative. 0, or -1 with errno.
int csystemclock_timer_arm(int fd, int64_t ns);

/// An eventfd, close-on-exec; -1 with errno on failure.
int csystemclock_eventfd(void);

/// Asks the kernel to send SIGTERM to this process when its parent dies
/// (PR_SET_PDEATHSIG); 0, or -1 with errno.
int csystemclock_term_with_parent(void);

/// Names the calling thread as ps and /proc show it; 0, or an errno (ERANGE beyond 15 bytes).
int csystemclock_name_thread(const char *name);

/// 1 when the file at `path` is immutable or append-only (statx(2): nothing is opened),
/// 0 when not, -1 with errno when it cannot be asked.
int csystemclock_is_frozen(const char *path);

/// Installs a SIGBUS handler that moves a shared `-shm` mapping (SQLite's WAL index) to
/// private memory with the same bytes when a write to it faults because the file was made
/// immutable; any other SIGBUS goes to the handler that was there before. 0, or -1 with errno.
int csystemclock_guard_shared_memory(void);

/// How many mappings the SIGBUS handler has moved to private memory so far.
int csystemclock_shared_memory_diverted(void);

/// One reading of a real-time clock at the edge of one of its seconds.
typedef struct {
    /// CLOCK_MONOTONIC just after the edge was seen.
    int64_t monotonic_ns;
    /// The RTC's time after the edge, seconds since the epoch (the RTC keeps UTC).
    int64_t rtc_s;
    /// 1 when the edge came from the RTC's update interrupt, 0 when found by polling.
    int interrupt;
    /// Polled: how far apart the two reads around the edge ended, ns (the edge is between).
    int64_t width_ns;
    /// errno of a failed call, else 0; `call` names it.
    int error;
    const char *call;
} csystemclock_rtc_reading;

/// Reads the RTC at `path` (opened and closed again: the kernel lets one process hold it)
/// at its next second's edge: with `interrupt`, waits for the update interrupt (RTC_UIE_ON);
/// without it, or when the driver has none or it never comes within `timeout_ms`, polls
/// RTC_RD_TIME every `poll_us` until the second changes (for `timeout_ms` at most). A year
/// outside 2000-2199 is EINVAL. 0, or -1 with `out->error` and `out->call` set.
int csystemclock_rtc_read(const char *path, int poll_us, int timeout_ms, int interrupt, csystemclock_rtc_reading *out);

#endif

/// Adds "close every descriptor from `low` up" to a spawn's file actions
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34+, not imported into Swift).
int csystemclock_spawn_closefrom(posix_spawn_file_actions_t *actions, int low);

/// POSIX_SPAWN_SETSID (glibc 2.26+), not imported into Swift.
short csystemclock_spawn_setsid_flag(void);
