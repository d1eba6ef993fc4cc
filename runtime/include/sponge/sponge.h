/* sponge C API: the one-shot hashes of <sponge/sponge.hpp>, callable from C.
 *
 * Every function returns SPONGE_OK (0) or a negative error code, and writes nothing to
 * its output when it fails. Every input (message, key, customization string, function name,
 * tuple element) may be NULL when its length is 0. When several arguments are invalid, the
 * first error in this order is returned: a NULL input (SPONGE_ERROR_NULL_INPUT), a
 * parameter out of range (SPONGE_ERROR_INVALID_PARAMETER), a NULL output
 * (SPONGE_ERROR_NULL_OUTPUT). `out` may overlap any input: every input is absorbed before the
 * first output byte is written (the Ascon-AEAD128 and the batch functions differ: see there). No
 * function allocates memory. */
#ifndef SPONGE_SPONGE_H
#define SPONGE_SPONGE_H

#include <stddef.h>
#include <stdint.h>

#include "sponge/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sponge_status {
  SPONGE_OK = 0,
  /* `in` is NULL while `in_len` is not zero. */
  SPONGE_ERROR_NULL_INPUT = -1,
  /* `out` is NULL (fixed-output functions), or NULL while `out_len` is not zero (SHAKE). */
  SPONGE_ERROR_NULL_OUTPUT = -2,
  /* A parameter is out of its range: a TurboSHAKE domain byte outside 0x01..0x7F, a
   * ParallelHash block size of 0, an Ascon-CXOF128 customization string over 256 bytes. */
  SPONGE_ERROR_INVALID_PARAMETER = -3,
  /* Ascon-AEAD128 decryption: the tag does not match (wrong key, nonce, associated data,
   * ciphertext or tag). The plaintext output is zeroed. */
  SPONGE_ERROR_AUTHENTICATION = -4,
  /* A streaming state (sponge_shake128_x4 ...) is NULL. */
  SPONGE_ERROR_NULL_STATE = -5,
  /* A streaming state used out of order: not initialised (or cleared), or absorbing after
   * squeezing has begun (initialise it again to start over). Nothing is absorbed. */
  SPONGE_ERROR_MISUSE = -6,
  /* Ascon-AEAD128: the text output partly overlaps the text input (the same buffer exactly
   * is allowed). Nothing is encrypted or decrypted; the output (and an encryption's tag) is
   * zeroed. */
  SPONGE_ERROR_OVERLAP = -7
} sponge_status;

/* Digest sizes in bytes. */
#define SPONGE_KECCAK256_BYTES 32
#define SPONGE_SHA3_224_BYTES 28
#define SPONGE_SHA3_256_BYTES 32
#define SPONGE_SHA3_384_BYTES 48
#define SPONGE_SHA3_512_BYTES 64

/* `out` receives exactly the digest size given above. */
SPONGE_API sponge_status sponge_keccak256(const uint8_t* in, size_t in_len, uint8_t out[32]);
SPONGE_API sponge_status sponge_sha3_224(const uint8_t* in, size_t in_len, uint8_t out[28]);
SPONGE_API sponge_status sponge_sha3_256(const uint8_t* in, size_t in_len, uint8_t out[32]);
SPONGE_API sponge_status sponge_sha3_384(const uint8_t* in, size_t in_len, uint8_t out[48]);
SPONGE_API sponge_status sponge_sha3_512(const uint8_t* in, size_t in_len, uint8_t out[64]);

/* Batch hashing: digests[i] receives the digest of the lengths[i] bytes at messages[i], for
 * i in 0 .. count - 1, on a multi-state kernel where this CPU runs one (see
 * sponge_active_batch_kernel; SPONGE_BATCH_KERNEL forces one), else one message at a time.
 * count 0: SPONGE_OK, nothing read or written (any pointer may be NULL). Otherwise `messages`
 * and `lengths` must not be NULL, and messages[i] only when lengths[i] is 0
 * (SPONGE_ERROR_NULL_INPUT), and `digests` must not be NULL (SPONGE_ERROR_NULL_OUTPUT); every
 * argument is checked before anything is hashed, so on an error nothing is written.
 * Unlike the one-shot functions, an output may not overlap every input: digests[i] may
 * overlap messages[i] (that message is read completely before its digest is written) but no
 * other message, and the digests must not overlap each other. */
SPONGE_API sponge_status sponge_keccak256_batch(const uint8_t* const* messages,
                                                const size_t* lengths, size_t count,
                                                uint8_t (*digests)[32]);
SPONGE_API sponge_status sponge_sha3_224_batch(const uint8_t* const* messages,
                                               const size_t* lengths, size_t count,
                                               uint8_t (*digests)[28]);
SPONGE_API sponge_status sponge_sha3_256_batch(const uint8_t* const* messages,
                                               const size_t* lengths, size_t count,
                                               uint8_t (*digests)[32]);
SPONGE_API sponge_status sponge_sha3_384_batch(const uint8_t* const* messages,
                                               const size_t* lengths, size_t count,
                                               uint8_t (*digests)[48]);
SPONGE_API sponge_status sponge_sha3_512_batch(const uint8_t* const* messages,
                                               const size_t* lengths, size_t count,
                                               uint8_t (*digests)[64]);

/* Four SHAKE128 or SHAKE256 streams at once, on the batch kernel (ML-KEM / ML-DSA matrix
 * expansion: absorb four seed || i || j, squeeze 168-byte blocks). Stream s gives exactly the
 * output of sponge_shake128 (sponge_shake256) of everything absorbed into it. The caller owns
 * the state (a stack or static variable: nothing is allocated); its contents are private.
 *   init     prepares `state` (four empty messages); call it again to start over.
 *   absorb   appends `length` bytes at inputs[s] to stream s, for the four s; may be called
 *            any number of times before the first squeeze.
 *   squeeze  pads on the first call, then writes the next `length` bytes of stream s to
 *            outputs[s]; successive calls continue the streams.
 *   clear    wipes the state (what was absorbed does not linger); it must be initialised
 *            again before further use. Call it when done: C has no destructor.
 * Errors, checked in this order, leave the state and the outputs as they were: a NULL state
 * (SPONGE_ERROR_NULL_STATE); a state not initialised, or absorb after squeeze
 * (SPONGE_ERROR_MISUSE); `inputs` NULL, or inputs[s] NULL with a non-zero length
 * (SPONGE_ERROR_NULL_INPUT); `outputs` NULL, or outputs[s] NULL with a non-zero length
 * (SPONGE_ERROR_NULL_OUTPUT). A zero length with NULL pointers is allowed. The state must not
 * be copied byte-wise (initialise a second one and absorb the same input). */
#if defined(__cplusplus)
#define SPONGE_ALIGN32 alignas(32)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SPONGE_ALIGN32 _Alignas(32)
#else
#define SPONGE_ALIGN32 __attribute__((aligned(32)))
#endif
#define SPONGE_SHAKE_X4_STATE_WORDS 112
typedef struct sponge_shake128_x4 {
  SPONGE_ALIGN32 uint64_t opaque[SPONGE_SHAKE_X4_STATE_WORDS];
} sponge_shake128_x4;
typedef struct sponge_shake256_x4 {
  SPONGE_ALIGN32 uint64_t opaque[SPONGE_SHAKE_X4_STATE_WORDS];
} sponge_shake256_x4;

SPONGE_API sponge_status sponge_shake128_x4_init(sponge_shake128_x4* state);
SPONGE_API sponge_status sponge_shake128_x4_absorb(sponge_shake128_x4* state,
                                                   const uint8_t* const inputs[4], size_t length);
SPONGE_API sponge_status sponge_shake128_x4_squeeze(sponge_shake128_x4* state,
                                                    uint8_t* const outputs[4], size_t length);
SPONGE_API sponge_status sponge_shake128_x4_clear(sponge_shake128_x4* state);
SPONGE_API sponge_status sponge_shake256_x4_init(sponge_shake256_x4* state);
SPONGE_API sponge_status sponge_shake256_x4_absorb(sponge_shake256_x4* state,
                                                   const uint8_t* const inputs[4], size_t length);
SPONGE_API sponge_status sponge_shake256_x4_squeeze(sponge_shake256_x4* state,
                                                    uint8_t* const outputs[4], size_t length);
SPONGE_API sponge_status sponge_shake256_x4_clear(sponge_shake256_x4* state);

/* `out` receives `out_len` bytes of output, any length. */
SPONGE_API sponge_status sponge_shake128(const uint8_t* in, size_t in_len, uint8_t* out,
                                         size_t out_len);
SPONGE_API sponge_status sponge_shake256(const uint8_t* in, size_t in_len, uint8_t* out,
                                         size_t out_len);

/* RFC 9861 (Keccak-p[1600,12]). TurboSHAKE with domain byte `domain` in 0x01..0x7F (0x1F for
 * plain hashing); KangarooTwelve with customization string `custom`. `out_len` bytes of output,
 * any length. */
SPONGE_API sponge_status sponge_turboshake128(const uint8_t* in, size_t in_len, uint8_t domain,
                                              uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_turboshake256(const uint8_t* in, size_t in_len, uint8_t domain,
                                              uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kt128(const uint8_t* in, size_t in_len, const uint8_t* custom,
                                      size_t custom_len, uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kt256(const uint8_t* in, size_t in_len, const uint8_t* custom,
                                      size_t custom_len, uint8_t* out, size_t out_len);
/* The same on up to `threads` threads (0: one per CPU), 1 MiB of input or more a thread; the
 * output is the same for any thread count. Unlike every other function here, these allocate
 * (the leaves' chaining values, the threads); where memory or a thread is missing they use
 * fewer threads, down to the caller's alone. */
SPONGE_API sponge_status sponge_kt128_parallel(const uint8_t* in, size_t in_len,
                                               const uint8_t* custom, size_t custom_len,
                                               uint8_t* out, size_t out_len, unsigned threads);
SPONGE_API sponge_status sponge_kt256_parallel(const uint8_t* in, size_t in_len,
                                               const uint8_t* custom, size_t custom_len,
                                               uint8_t* out, size_t out_len, unsigned threads);

/* NIST SP 800-185. `out_len` is the output length L in bytes, any length; for KMAC,
 * TupleHash and ParallelHash it is part of the input (every byte changes with it), the XOF
 * forms produce a prefix of one stream. */
SPONGE_API sponge_status sponge_cshake128(const uint8_t* in, size_t in_len, const uint8_t* name,
                                          size_t name_len, const uint8_t* custom, size_t custom_len,
                                          uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_cshake256(const uint8_t* in, size_t in_len, const uint8_t* name,
                                          size_t name_len, const uint8_t* custom, size_t custom_len,
                                          uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kmac128(const uint8_t* key, size_t key_len, const uint8_t* in,
                                        size_t in_len, const uint8_t* custom, size_t custom_len,
                                        uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kmac256(const uint8_t* key, size_t key_len, const uint8_t* in,
                                        size_t in_len, const uint8_t* custom, size_t custom_len,
                                        uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kmacxof128(const uint8_t* key, size_t key_len, const uint8_t* in,
                                           size_t in_len, const uint8_t* custom, size_t custom_len,
                                           uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_kmacxof256(const uint8_t* key, size_t key_len, const uint8_t* in,
                                           size_t in_len, const uint8_t* custom, size_t custom_len,
                                           uint8_t* out, size_t out_len);
/* The tuple is parts[0 .. part_count - 1], element i being part_lens[i] bytes at parts[i].
 * parts and part_lens may be NULL when part_count is 0, parts[i] when part_lens[i] is 0. */
SPONGE_API sponge_status sponge_tuplehash128(const uint8_t* const* parts, const size_t* part_lens,
                                             size_t part_count, const uint8_t* custom,
                                             size_t custom_len, uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_tuplehash256(const uint8_t* const* parts, const size_t* part_lens,
                                             size_t part_count, const uint8_t* custom,
                                             size_t custom_len, uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_tuplehashxof128(const uint8_t* const* parts,
                                                const size_t* part_lens, size_t part_count,
                                                const uint8_t* custom, size_t custom_len,
                                                uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_tuplehashxof256(const uint8_t* const* parts,
                                                const size_t* part_lens, size_t part_count,
                                                const uint8_t* custom, size_t custom_len,
                                                uint8_t* out, size_t out_len);
/* `block_size` is ParallelHash's B in bytes, not 0. */
SPONGE_API sponge_status sponge_parallelhash128(const uint8_t* in, size_t in_len, size_t block_size,
                                                const uint8_t* custom, size_t custom_len,
                                                uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_parallelhash256(const uint8_t* in, size_t in_len, size_t block_size,
                                                const uint8_t* custom, size_t custom_len,
                                                uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_parallelhashxof128(const uint8_t* in, size_t in_len,
                                                   size_t block_size, const uint8_t* custom,
                                                   size_t custom_len, uint8_t* out, size_t out_len);
SPONGE_API sponge_status sponge_parallelhashxof256(const uint8_t* in, size_t in_len,
                                                   size_t block_size, const uint8_t* custom,
                                                   size_t custom_len, uint8_t* out, size_t out_len);
/* The same on up to `threads` threads (0: one per CPU), 1 MiB of input or more a thread; as
 * sponge_kt128_parallel, these allocate and fall back to fewer threads. */
SPONGE_API sponge_status sponge_parallelhash128_parallel(const uint8_t* in, size_t in_len,
                                                         size_t block_size, const uint8_t* custom,
                                                         size_t custom_len, uint8_t* out,
                                                         size_t out_len, unsigned threads);
SPONGE_API sponge_status sponge_parallelhash256_parallel(const uint8_t* in, size_t in_len,
                                                         size_t block_size, const uint8_t* custom,
                                                         size_t custom_len, uint8_t* out,
                                                         size_t out_len, unsigned threads);
SPONGE_API sponge_status sponge_parallelhashxof128_parallel(const uint8_t* in, size_t in_len,
                                                            size_t block_size,
                                                            const uint8_t* custom,
                                                            size_t custom_len, uint8_t* out,
                                                            size_t out_len, unsigned threads);
SPONGE_API sponge_status sponge_parallelhashxof256_parallel(const uint8_t* in, size_t in_len,
                                                            size_t block_size,
                                                            const uint8_t* custom,
                                                            size_t custom_len, uint8_t* out,
                                                            size_t out_len, unsigned threads);

/* Ascon, NIST SP 800-232 (Ascon-p[320]; its kernel is forced with SPONGE_ASCON_KERNEL). */
#define SPONGE_ASCON_HASH256_BYTES 32
#define SPONGE_ASCON_CXOF128_MAX_CUSTOM_BYTES 256
#define SPONGE_ASCON_AEAD128_KEY_BYTES 16
#define SPONGE_ASCON_AEAD128_NONCE_BYTES 16
#define SPONGE_ASCON_AEAD128_TAG_BYTES 16

/* Ascon-Hash256 (32-byte digest) and Ascon-XOF128 (`out_len` bytes, any length). */
SPONGE_API sponge_status sponge_ascon_hash256(const uint8_t* in, size_t in_len, uint8_t out[32]);
SPONGE_API sponge_status sponge_ascon_xof128(const uint8_t* in, size_t in_len, uint8_t* out,
                                             size_t out_len);
/* Ascon-CXOF128 with customization string `custom` of at most 256 bytes (longer:
 * SPONGE_ERROR_INVALID_PARAMETER, nothing computed). */
SPONGE_API sponge_status sponge_ascon_cxof128(const uint8_t* custom, size_t custom_len,
                                              const uint8_t* in, size_t in_len, uint8_t* out,
                                              size_t out_len);

/* Ascon-AEAD128. `key`, `nonce` and the tag are 16 bytes and never NULL; the ciphertext is as
 * long as the plaintext. The caller must never use a nonce twice with the same key.
 * Encryption writes `pt_len` bytes to `ct` and the tag to `tag`. Decryption writes `ct_len`
 * bytes to `pt` and returns SPONGE_OK only when `tag` matches (compared in constant time);
 * on a mismatch it returns SPONGE_ERROR_AUTHENTICATION with `pt` zeroed, so no unverified
 * plaintext is released. The text output may be the text input itself (in-place), but must
 * not partly overlap it: both refuse that with SPONGE_ERROR_OVERLAP, the text output (and
 * an encryption's tag) zeroed (checked after the NULL arguments). Key, nonce and tag are read
 * before any output is written. A NULL text output is allowed with a zero length, like every
 * input. */
SPONGE_API sponge_status sponge_ascon_aead128_encrypt(const uint8_t key[16],
                                                      const uint8_t nonce[16], const uint8_t* ad,
                                                      size_t ad_len, const uint8_t* pt,
                                                      size_t pt_len, uint8_t* ct, uint8_t tag[16]);
SPONGE_API sponge_status sponge_ascon_aead128_decrypt(const uint8_t key[16],
                                                      const uint8_t nonce[16], const uint8_t* ad,
                                                      size_t ad_len, const uint8_t* ct,
                                                      size_t ct_len, const uint8_t tag[16],
                                                      uint8_t* pt);

/* A fixed description of an error code, e.g. for logging. */
SPONGE_API const char* sponge_status_message(sponge_status status);

/* The name of the Keccak-p[1600] kernel in use, e.g. "amd64-bmi2" or "portable"
 * (NUL-terminated). */
SPONGE_API const char* sponge_active_kernel(void);
/* The name of the Ascon-p[320] kernel in use, e.g. "portable" (NUL-terminated). */
SPONGE_API const char* sponge_active_ascon_kernel(void);
/* The name of the batch functions' multi-state kernel, e.g. "amd64-avx2-x4", or "single"
 * (one message at a time on the Keccak-p[1600] kernel) (NUL-terminated). */
SPONGE_API const char* sponge_active_batch_kernel(void);

#ifdef __cplusplus
}
#endif

#endif /* SPONGE_SPONGE_H */
