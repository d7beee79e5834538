#ifndef CGPS_SHIM_H
#define CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if GPSD_API_MAJOR_VERSION < 9 || GPSD_API_MAJOR_VERSION > 14
#error "marktime needs libgps API 9 to 14 (timespec_t fix times)"
#endif

/// What marktime needs from one gps_read(), flattened. Values are NaN when unknown.
typedef struct {
    /// The gps_read() result: bytes read, 0 when nothing was ready, -1 on error or EOF.
    int status;
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
static inline int cgps_fd(struct gps_data_t *gd) { return (int)gd->gps_fd; }

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
    out->has_fix = (gd->set & (MODE_SET | LATLON_SET)) != 0 && gd->fix.mode >= MODE_2D &&
                   isfinite(gd->fix.latitude) && isfinite(gd->fix.longitude);
    out->has_time = (gd->set & TIME_SET) != 0 && gd->fix.mode >= MODE_2D && gd->fix.time.tv_sec > 0;
    out->time_ns = cgps_ns(gd->fix.time);
    out->has_pps = (gd->set & PPS_SET) != 0 && gd->pps.real.tv_sec > 0;
    out->pps_real_ns = cgps_ns(gd->pps.real);
    out->pps_clock_ns = cgps_ns(gd->pps.clock);
}

#endif
