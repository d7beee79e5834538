#ifndef CGPS_SHIM_H
#define CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// libgps API 11 (gpsd 3.22, bookworm), 12 (3.23), 14 (3.24 to 3.26; trixie's 3.25) and 16
// (3.27, unstable); 13 and 15 were never released. Each release's gps.h was read for what
// this shim uses, and these are the same in all of them: gps_open, gps_read(gd, NULL, 0),
// gps_waiting, gps_close; gps_mask_t set with TIME_SET, LATLON_SET, MODE_SET, SATELLITE_SET, PPS_SET at the
// same bits; struct gps_fix_t's mode (int), latitude, longitude, eph, epx, speed, track
// (double) and time (timespec_t); struct timedelta_t pps with real and clock; WATCH_ENABLE,
// WATCH_JSON and WATCH_PPS with the same values. What differs is handled here:
// - gps_stream's flags are `unsigned int` up to 3.24 and `watch_t` (uint32_t) after; its
//   third parameter `void *`, then `const char *`: NULL suits both.
// - gps_fd is `socket_t` (int) up to 3.25 and `gps_fd_t`, an intptr_t, from 3.26: read as a
//   descriptor (int) either way, which is what it holds on Linux.
#if GPSD_API_MAJOR_VERSION < 11 || GPSD_API_MAJOR_VERSION > 16
#error "marktime needs libgps API 11 to 16 (gpsd 3.22 to 3.27); install that libgps-dev"
#endif

/// What marktime needs from one gps_read(), flattened. Values are NaN when unknown.
typedef struct {
    /// The gps_read() result: bytes read, 0 when nothing was ready, -1 on error or EOF.
    int status;
    /// The message was a report from the receiver (a fix, time, satellites or PPS), not
    /// gpsd's own VERSION, DEVICES or WATCH answer.
    int is_report;
    /// gpsd said its fix mode (a TPV): `mode` holds it, 0 (not seen) to 3 (3D).
    int has_mode;
    int has_fix;
    int mode;
    double latitude;
    double longitude;
    double eph;
    double epx;
    /// Speed over ground (m/s) and course over ground (degrees true).
    double speed;
    double track;
    int has_time;
    int64_t time_ns;
    int has_pps;
    /// The true UTC of the PPS edge, and the system clock's reading of it.
    int64_t pps_real_ns;
    int64_t pps_clock_ns;
} cgps_report;

static inline int64_t cgps_ns(timespec_t ts) {
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}

/// gps_data_t is large: allocate it once on the heap.
static inline struct gps_data_t *cgps_new(void) {
    return (struct gps_data_t *)calloc(1, sizeof(struct gps_data_t));
}

static inline void cgps_free(struct gps_data_t *gd) { free(gd); }

/// gps_open, then gps_stream with WATCH_ENABLE|WATCH_JSON|WATCH_PPS. 0 on success.
static inline int cgps_connect(struct gps_data_t *gd, const char *host, const char *port) {
    memset(gd, 0, sizeof *gd);
    if (gps_open(host, port, gd) != 0) return -1;
    if (gps_stream(gd, WATCH_ENABLE | WATCH_JSON | WATCH_PPS, NULL) != 0) {
        gps_close(gd);
        return -1;
    }
    return 0;
}

static inline void cgps_disconnect(struct gps_data_t *gd) { gps_close(gd); }

static inline bool cgps_waiting(struct gps_data_t *gd, int timeout_us) { return gps_waiting(gd, timeout_us); }

/// The socket to gpsd, for poll(2).
static inline int cgps_fd(struct gps_data_t *gd) { return (int)(intptr_t)gd->gps_fd; }

/// gps_read, and the fields marktime uses from what it set.
static inline void cgps_read(struct gps_data_t *gd, cgps_report *out) {
    memset(out, 0, sizeof *out);
    gd->set = 0;
    out->status = gps_read(gd, NULL, 0);
    if (out->status <= 0) return;
    out->mode = gd->fix.mode;
    out->latitude = gd->fix.latitude;
    out->longitude = gd->fix.longitude;
    out->eph = gd->fix.eph;
    out->epx = gd->fix.epx;
    out->speed = gd->fix.speed;
    out->track = gd->fix.track;
    out->is_report = (gd->set & (MODE_SET | TIME_SET | LATLON_SET | SATELLITE_SET | PPS_SET)) != 0;
    out->has_mode = (gd->set & MODE_SET) != 0;
    out->has_fix = (gd->set & (MODE_SET | LATLON_SET)) != 0 && gd->fix.mode >= MODE_2D &&
                   isfinite(gd->fix.latitude) && isfinite(gd->fix.longitude);
    out->has_time = (gd->set & TIME_SET) != 0 && gd->fix.mode >= MODE_2D && gd->fix.time.tv_sec > 0;
    out->time_ns = cgps_ns(gd->fix.time);
    out->has_pps = (gd->set & PPS_SET) != 0 && gd->pps.real.tv_sec > 0;
    out->pps_real_ns = cgps_ns(gd->pps.real);
    out->pps_clock_ns = cgps_ns(gd->pps.clock);
}

#endif
