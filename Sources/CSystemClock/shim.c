#define _GNU_SOURCE
#include "shim.h"
#include <errno.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>

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
