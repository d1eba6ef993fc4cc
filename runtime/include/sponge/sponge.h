/* sponge C API: the one-shot hashes of <sponge/sponge.hpp>, callable from C.
 *
 * Every function returns SPONGE_OK (0) or a negative error code, and writes nothing to
 * its output when it fails. When both `in` and `out` are invalid, the input's error
 * (SPONGE_ERROR_NULL_INPUT) is returned. `out` may overlap `in`: the whole input is
 * absorbed before the first output byte is written. No function allocates memory. */
#ifndef SPONGE_SPONGE_H
#define SPONGE_SPONGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sponge_status {
  SPONGE_OK = 0,
  /* `in` is NULL while `in_len` is not zero. */
  SPONGE_ERROR_NULL_INPUT = -1,
  /* `out` is NULL (fixed-output functions), or NULL while `out_len` is not zero (SHAKE). */
  SPONGE_ERROR_NULL_OUTPUT = -2
} sponge_status;

/* Digest sizes in bytes. */
#define SPONGE_KECCAK256_BYTES 32
#define SPONGE_SHA3_224_BYTES 28
#define SPONGE_SHA3_256_BYTES 32
#define SPONGE_SHA3_384_BYTES 48
#define SPONGE_SHA3_512_BYTES 64

/* `out` receives exactly the digest size given above. */
sponge_status sponge_keccak256(const uint8_t* in, size_t in_len, uint8_t out[32]);
sponge_status sponge_sha3_224(const uint8_t* in, size_t in_len, uint8_t out[28]);
sponge_status sponge_sha3_256(const uint8_t* in, size_t in_len, uint8_t out[32]);
sponge_status sponge_sha3_384(const uint8_t* in, size_t in_len, uint8_t out[48]);
sponge_status sponge_sha3_512(const uint8_t* in, size_t in_len, uint8_t out[64]);

/* `out` receives `out_len` bytes of output, any length. */
sponge_status sponge_shake128(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len);
sponge_status sponge_shake256(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len);

/* A fixed description of an error code, e.g. for logging. */
const char* sponge_status_message(sponge_status status);

/* The name of the kernel in use, e.g. "amd64-bmi2" or "portable" (NUL-terminated). */
const char* sponge_active_kernel(void);

#ifdef __cplusplus
}
#endif

#endif /* SPONGE_SPONGE_H */
