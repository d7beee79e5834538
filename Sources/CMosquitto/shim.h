#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H
// libmosquitto (Debian's libmosquitto-dev), the MQTT client the share service runs on.
#include <mosquitto.h>
#endif
