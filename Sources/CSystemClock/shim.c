#define _GNU_SOURCE
#include <sys/prctl.h>
#include <signal.h>
#include "shim.h"
#include <errno.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <pthread.h>
#include <time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <spawn.h>
#include <poll.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/rtc.h>

static int64_t ns(const struct timespec *ts) {
    return (int64_t)ts->tv_sec * 1000000000LL + (int64_t)ts->tv_nsec;
}

int csystemclock_read(csystemclock_reading *out) {
    memset(out, 0, sizeof *out);
    struct timespec m1, r, m2;
    if (clock_gettime(CLOCK_MONOTONIC, &m1) != 0 || clock_gettime(CLOCK_REALTIME, &r) != 0 ||
        clock_gettime(CLOCK_MONOTONIC, &m2) != 0) {
        out->error = errno;
        return -1;
    }
    out->monotonic_before_ns = ns(&m1);
    out->realtime_ns = ns(&r);
    out->monotonic_after_ns = ns(&m2);

    struct timex tx;
    memset(&tx, 0, sizeof tx);
    int state = adjtimex(&tx);
    if (state == -1) {
        out->error = errno;
        return -1;
    }
    out->synchronised = state != TIME_ERROR && !(tx.status & STA_UNSYNC);
    out->esterror_us = tx.esterror;
    out->maxerror_us = tx.maxerror;
    return 0;
}

int csystemclock_timer_create(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

int csystemclock_timer_arm(int fd, int64_t ns) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    if (ns < 0) return timerfd_settime(fd, 0, &spec, NULL);
    // it_value 0 would disarm: a time at or before the epoch fires at once.
    if (ns == 0) ns = 1;
    spec.it_value.tv_sec = (time_t)(ns / 1000000000);
    spec.it_value.tv_nsec = (long)(ns % 1000000000);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int csystemclock_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC);
}

int csystemclock_term_with_parent(void) {
    return prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
}

int csystemclock_name_thread(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int csystemclock_is_frozen(const char *path) {
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &info) != 0) return -1;
    const unsigned long long frozen = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND;
    return (info.stx_attributes_mask & info.stx_attributes & frozen) != 0;
}

int csystemclock_spawn_closefrom(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}

short csystemclock_spawn_setsid_flag(void) {
    return POSIX_SPAWN_SETSID;
}

static int rtc_fail(csystemclock_rtc_reading *out, const char *call, int fd) {
    out->error = errno;
    out->call = call;
    if (fd >= 0) close(fd);
    return -1;
}

static int rtc_seconds(int fd, int64_t *seconds) {
    struct rtc_time rt;
    memset(&rt, 0, sizeof rt);
    if (ioctl(fd, RTC_RD_TIME, &rt) != 0) return -1;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_sec = rt.tm_sec; tm.tm_min = rt.tm_min; tm.tm_hour = rt.tm_hour;
    tm.tm_mday = rt.tm_mday; tm.tm_mon = rt.tm_mon; tm.tm_year = rt.tm_year;
    // A glitched read (or a reset RTC) can hold any year: only 2000 to 2199 is a time.
    if (rt.tm_year < 100 || rt.tm_year >= 300) { errno = EINVAL; return -1; }
    time_t t = timegm(&tm);
    if (t == (time_t)-1) { errno = EINVAL; return -1; }
    *seconds = (int64_t)t;
    return 0;
}

int csystemclock_rtc_read(const char *path, int poll_us, int timeout_ms, int interrupt, csystemclock_rtc_reading *out) {
    memset(out, 0, sizeof *out);
    struct timespec now;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return rtc_fail(out, "open", -1);
    if (interrupt && ioctl(fd, RTC_UIE_ON, 0) == 0) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int ready;
        do { ready = poll(&p, 1, timeout_ms); } while (ready < 0 && errno == EINTR);
        if (ready < 0) { int e = errno; ioctl(fd, RTC_UIE_OFF, 0); errno = e; return rtc_fail(out, "poll", fd); }
        if (ready > 0) {
            unsigned long data;
            ssize_t n = read(fd, &data, sizeof data);
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (n < 0) { int e = errno; ioctl(fd, RTC_UIE_OFF, 0); errno = e; return rtc_fail(out, "read", fd); }
            int64_t seconds;
            if (rtc_seconds(fd, &seconds) != 0) { int e = errno; ioctl(fd, RTC_UIE_OFF, 0); errno = e; return rtc_fail(out, "RTC_RD_TIME", fd); }
            ioctl(fd, RTC_UIE_OFF, 0);
            close(fd);
            out->monotonic_ns = ns(&now);
            out->rtc_s = seconds;
            out->interrupt = 1;
            return 0;
        }
        // The interrupt was accepted but never came (an alarm line not wired): poll instead.
        ioctl(fd, RTC_UIE_OFF, 0);
    }
    // Polling asked for, no update interrupt (EINVAL, ENOTTY), or none came: poll the time until its second
    // changes. The edge fell between the end of the read before and the end of the read
    // that saw it: the middle, and half the width as `width_ns`.
    int64_t first, seconds;
    struct timespec start, before;
    if (rtc_seconds(fd, &first) != 0) return rtc_fail(out, "RTC_RD_TIME", fd);
    clock_gettime(CLOCK_MONOTONIC, &start);
    before = start;
    for (;;) {
        struct timespec pause = { .tv_sec = 0, .tv_nsec = (long)poll_us * 1000L };
        nanosleep(&pause, NULL);
        if (rtc_seconds(fd, &seconds) != 0) return rtc_fail(out, "RTC_RD_TIME", fd);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (seconds != first) break;
        before = now;
        if (ns(&now) - ns(&start) > (int64_t)timeout_ms * 1000000LL) { errno = ETIMEDOUT; return rtc_fail(out, "RTC_RD_TIME (the second never changed)", fd); }
    }
    close(fd);
    out->monotonic_ns = (ns(&before) + ns(&now)) / 2;
    out->width_ns = ns(&now) - ns(&before);
    out->rtc_s = seconds;
    out->interrupt = 0;
    return 0;
}
