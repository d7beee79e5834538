#ifndef CEVDEV_SHIM_H
#define CEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <stdint.h>

/// One input event, flattened. The kernel's timestamp is read through
/// input_event_sec/usec, which also work on 32-bit ARM with 64-bit time_t,
/// where `input_event.time` is not a field.
typedef struct {
    uint16_t type;
    uint16_t code;
    int32_t value;
    int64_t sec;
    int64_t usec;
} cevdev_event;

/// libevdev_next_event, flattened into `out`. Returns libevdev's status
/// (LIBEVDEV_READ_STATUS_SUCCESS or _SYNC) or a negative errno.
static inline int cevdev_next_event(struct libevdev *dev, unsigned int flags, cevdev_event *out) {
    struct input_event ev;
    int rc = libevdev_next_event(dev, flags, &ev);
    if (rc >= 0) {
        out->type = ev.type;
        out->code = ev.code;
        out->value = ev.value;
        out->sec = (int64_t)ev.input_event_sec;
        out->usec = (int64_t)ev.input_event_usec;
    }
    return rc;
}

static inline int cevdev_grab(struct libevdev *dev, int grab) {
    return libevdev_grab(dev, grab ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB);
}

/// A uinput device shaped like `dev`, whose file descriptor libevdev manages
/// (libevdev_uinput_create_from_device with LIBEVDEV_UINPUT_OPEN_MANAGED).
static inline int cevdev_uinput_create(const struct libevdev *dev, struct libevdev_uinput **out) {
    return libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, out);
}

static const unsigned int cevdev_read_flag_normal = LIBEVDEV_READ_FLAG_NORMAL;
static const unsigned int cevdev_read_flag_sync = LIBEVDEV_READ_FLAG_SYNC;
static const unsigned int cevdev_read_flag_blocking = LIBEVDEV_READ_FLAG_BLOCKING;
static const int cevdev_status_success = LIBEVDEV_READ_STATUS_SUCCESS;
static const int cevdev_status_sync = LIBEVDEV_READ_STATUS_SYNC;

#endif
