#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 only. libmosquitto links it
// already, so it adds no library to the device.
#include <openssl/evp.h>
#endif
