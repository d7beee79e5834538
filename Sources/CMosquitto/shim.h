#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H
// libmosquitto (Debian's libmosquitto-dev), the MQTT client the share service runs on,
// and the OpenSSL it links (libssl-dev), for a handshake of our own that finds out why
// TLS failed: libmosquitto only says "A TLS error occurred."
#include <mosquitto.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

// Macros and inline functions in OpenSSL's headers, as functions Swift can call.
static inline int marktime_ssl_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }
static inline int marktime_err_reason(unsigned long error) { return ERR_GET_REASON(error); }
#endif
