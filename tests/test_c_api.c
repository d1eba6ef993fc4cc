/* Calls the C API from C: proves <sponge/sponge.h> is valid C11 and that the functions
 * behave as documented when reached from C. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_api_check.h"
#include "sponge/sponge.h"

typedef struct {
  int failures;
  int checks;
  char* first_failure;
  size_t first_failure_size;
} checker;

static void check(checker* c, int condition, const char* what, int line) {
  ++c->checks;
  if (condition) return;
  if (c->failures == 0)
    snprintf(c->first_failure, c->first_failure_size, "line %d: %s", line, what);
  ++c->failures;
}

#define CHECK_C(c, condition) check((c), (condition), #condition, __LINE__)

static void to_hex(const uint8_t* bytes, size_t length, char* out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < length; ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 0x0f];
  }
  out[2 * length] = '\0';
}

int sponge_c_api_check(char* first_failure, size_t first_failure_size, int* checks_run) {
  checker c = {0, 0, first_failure, first_failure_size};
  const uint8_t abc[3] = {'a', 'b', 'c'};
  uint8_t digest[SPONGE_SHA3_512_BYTES];
  char hex[2 * SPONGE_SHA3_512_BYTES + 1];

  CHECK_C(&c, sponge_keccak256(abc, sizeof abc, digest) == SPONGE_OK);
  to_hex(digest, SPONGE_KECCAK256_BYTES, hex);
  CHECK_C(&c, strcmp(hex, "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45") == 0);

  CHECK_C(&c, sponge_sha3_256(abc, sizeof abc, digest) == SPONGE_OK);
  to_hex(digest, SPONGE_SHA3_256_BYTES, hex);
  CHECK_C(&c, strcmp(hex, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532") == 0);

  /* NULL with length zero is the empty message. */
  CHECK_C(&c, sponge_keccak256(NULL, 0, digest) == SPONGE_OK);
  to_hex(digest, SPONGE_KECCAK256_BYTES, hex);
  CHECK_C(&c, strcmp(hex, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470") == 0);

  /* SHAKE128("") begins 7f9c2ba4e88f827d616045507605853e. */
  uint8_t shake[16];
  CHECK_C(&c, sponge_shake128(NULL, 0, shake, sizeof shake) == SPONGE_OK);
  to_hex(shake, sizeof shake, hex);
  CHECK_C(&c, strcmp(hex, "7f9c2ba4e88f827d616045507605853e") == 0);

  /* Bad arguments: an error code, and the output untouched. */
  memset(digest, 0xA5, sizeof digest);
  CHECK_C(&c, sponge_sha3_224(NULL, 1, digest) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, digest[0] == 0xA5 && digest[27] == 0xA5);
  CHECK_C(&c, sponge_sha3_384(abc, sizeof abc, NULL) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK_C(&c, sponge_shake256(abc, sizeof abc, NULL, 1) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK_C(&c, sponge_shake256(abc, sizeof abc, NULL, 0) == SPONGE_OK);

  /* RFC 9861 and SP 800-185: one known answer each family (tests/kat), the NULL rules for
   * every input, the range checks, and the output left untouched on every error. */
  uint8_t out32[32];
  CHECK_C(&c, sponge_turboshake128(NULL, 0, 0x1F, out32, sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c") == 0);
  CHECK_C(&c, sponge_kt128(NULL, 0, NULL, 0, out32, sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5") == 0);

  uint8_t key[32], data[24];
  for (int i = 0; i < 32; ++i)
    key[i] = (uint8_t)(0x40 + i);
  for (int i = 0; i < 24; ++i)
    data[i] = (uint8_t)((i / 8) * 0x10 + i % 8);
  const uint8_t email_signature[] = "Email Signature";
  const uint8_t counting[4] = {0, 1, 2, 3};
  CHECK_C(&c, sponge_kmac128(key, sizeof key, counting, sizeof counting, NULL, 0, out32,
                             sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "e5780b0d3ea6f7d3a429c5706aa43a00fadbd7d49628839e3187243f456ee14e") == 0);
  CHECK_C(&c, sponge_cshake128(counting, sizeof counting, NULL, 0, email_signature,
                               sizeof email_signature - 1, out32, sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5") == 0);
  const uint8_t tuple_first[3] = {0x00, 0x01, 0x02};
  const uint8_t tuple_second[6] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15};
  const uint8_t* const parts[2] = {tuple_first, tuple_second};
  const size_t part_lens[2] = {sizeof tuple_first, sizeof tuple_second};
  CHECK_C(&c, sponge_tuplehash128(parts, part_lens, 2, NULL, 0, out32, sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "c5d8786c1afb9b82111ab34b65b2c0048fa64e6d48e263264ce1707d3ffc8ed1") == 0);
  CHECK_C(&c,
          sponge_parallelhash128(data, sizeof data, 8, NULL, 0, out32, sizeof out32) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "ba8dc1d1d979331d3f813603c67f72609ab5e44b94a0b8f9af46514454a2b4f5") == 0);
  /* The threaded forms, from C: the same vectors (too short to start a thread). */
  CHECK_C(&c, sponge_kt128_parallel(NULL, 0, NULL, 0, out32, sizeof out32, 2) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5") == 0);
  CHECK_C(&c, sponge_parallelhash128_parallel(data, sizeof data, 8, NULL, 0, out32, sizeof out32,
                                              0) == SPONGE_OK);
  to_hex(out32, sizeof out32, hex);
  CHECK_C(&c, strcmp(hex, "ba8dc1d1d979331d3f813603c67f72609ab5e44b94a0b8f9af46514454a2b4f5") == 0);

  memset(out32, 0xA5, sizeof out32);
  CHECK_C(&c,
          sponge_turboshake256(abc, sizeof abc, 0x00, out32, 1) == SPONGE_ERROR_INVALID_PARAMETER);
  CHECK_C(&c,
          sponge_turboshake128(abc, sizeof abc, 0x80, out32, 1) == SPONGE_ERROR_INVALID_PARAMETER);
  CHECK_C(&c, sponge_turboshake128(NULL, 1, 0x80, NULL, 1) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, sponge_turboshake128(abc, sizeof abc, 0x7F, NULL, 1) == SPONGE_ERROR_NULL_OUTPUT);
  CHECK_C(&c, sponge_kt256(abc, sizeof abc, NULL, 1, out32, 1) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c,
          sponge_cshake256(abc, sizeof abc, NULL, 1, NULL, 0, out32, 1) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c,
          sponge_kmac256(NULL, 1, abc, sizeof abc, NULL, 0, out32, 1) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, sponge_kmacxof256(key, sizeof key, abc, sizeof abc, NULL, 0, NULL, 1) ==
                  SPONGE_ERROR_NULL_OUTPUT);
  CHECK_C(&c,
          sponge_tuplehash256(NULL, part_lens, 2, NULL, 0, out32, 1) == SPONGE_ERROR_NULL_INPUT);
  const uint8_t* const null_part[1] = {NULL};
  CHECK_C(&c, sponge_tuplehashxof256(null_part, part_lens, 1, NULL, 0, out32, 1) ==
                  SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, sponge_tuplehashxof128(NULL, NULL, 0, NULL, 0, out32, 0) == SPONGE_OK);
  CHECK_C(&c, sponge_parallelhash256(data, sizeof data, 0, NULL, 0, out32, 1) ==
                  SPONGE_ERROR_INVALID_PARAMETER);
  CHECK_C(&c, sponge_parallelhashxof128(data, sizeof data, 0, NULL, 0, NULL, 1) ==
                  SPONGE_ERROR_INVALID_PARAMETER);
  CHECK_C(&c, out32[0] == 0xA5 && out32[31] == 0xA5);
  CHECK_C(&c, strcmp(sponge_status_message(SPONGE_ERROR_INVALID_PARAMETER),
                     sponge_status_message(SPONGE_ERROR_NULL_INPUT)) != 0);

  /* Ascon (SP 800-232): known answers from tests/kat/ascon-sp800-232 (Hash256 and XOF128 of
   * the empty message, AEAD128 vector 35: PT = 20, AD = 30), a forgery, the NULL rules, the
   * customization limit. */
  CHECK_C(&c, sponge_ascon_hash256(NULL, 0, out32) == SPONGE_OK);
  to_hex(out32, SPONGE_ASCON_HASH256_BYTES, hex);
  CHECK_C(&c, strcmp(hex, "0b3be5850f2f6b98caf29f8fdea89b64a1fa70aa249b8f839bd53baa304d92b2") == 0);
  CHECK_C(&c, sponge_ascon_xof128(NULL, 0, out32, 16) == SPONGE_OK);
  to_hex(out32, 16, hex);
  CHECK_C(&c, strcmp(hex, "473d5e6164f58b39dfd84aacdb8ae42e") == 0);
  uint8_t ascon_key[SPONGE_ASCON_AEAD128_KEY_BYTES], ascon_nonce[SPONGE_ASCON_AEAD128_NONCE_BYTES];
  for (int i = 0; i < 16; ++i) {
    ascon_key[i] = (uint8_t)i;
    ascon_nonce[i] = (uint8_t)(0x10 + i);
  }
  const uint8_t ascon_pt[1] = {0x20}, ascon_ad[1] = {0x30};
  uint8_t ascon_ct[1], ascon_tag[SPONGE_ASCON_AEAD128_TAG_BYTES], ascon_opened[1];
  CHECK_C(&c, sponge_ascon_aead128_encrypt(ascon_key, ascon_nonce, ascon_ad, 1, ascon_pt, 1,
                                           ascon_ct, ascon_tag) == SPONGE_OK);
  to_hex(ascon_ct, 1, hex);
  CHECK_C(&c, strcmp(hex, "96") == 0);
  to_hex(ascon_tag, 16, hex);
  CHECK_C(&c, strcmp(hex, "2b8016836c75a7d86866588ca245d886") == 0);
  CHECK_C(&c, sponge_ascon_aead128_decrypt(ascon_key, ascon_nonce, ascon_ad, 1, ascon_ct, 1,
                                           ascon_tag, ascon_opened) == SPONGE_OK);
  CHECK_C(&c, ascon_opened[0] == 0x20);
  ascon_tag[0] ^= 1;
  CHECK_C(&c, sponge_ascon_aead128_decrypt(ascon_key, ascon_nonce, ascon_ad, 1, ascon_ct, 1,
                                           ascon_tag, ascon_opened) == SPONGE_ERROR_AUTHENTICATION);
  CHECK_C(&c, ascon_opened[0] == 0);
  CHECK_C(&c, sponge_ascon_aead128_encrypt(NULL, ascon_nonce, NULL, 0, NULL, 0, NULL, ascon_tag) ==
                  SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, sponge_ascon_aead128_decrypt(ascon_key, ascon_nonce, NULL, 0, ascon_ct, 1, ascon_tag,
                                           NULL) == SPONGE_ERROR_NULL_OUTPUT);
  uint8_t long_custom[SPONGE_ASCON_CXOF128_MAX_CUSTOM_BYTES + 1];
  memset(long_custom, 0x5A, sizeof long_custom);
  memset(out32, 0xA5, sizeof out32);
  CHECK_C(&c, sponge_ascon_cxof128(long_custom, sizeof long_custom, abc, sizeof abc, out32, 32) ==
                  SPONGE_ERROR_INVALID_PARAMETER);
  CHECK_C(&c, sponge_ascon_cxof128(NULL, 1, abc, sizeof abc, out32, 32) == SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, out32[0] == 0xA5 && out32[31] == 0xA5);
  CHECK_C(&c, sponge_ascon_cxof128(long_custom, sizeof long_custom - 1, abc, sizeof abc, out32,
                                   32) == SPONGE_OK);
  CHECK_C(&c, strcmp(sponge_status_message(SPONGE_ERROR_AUTHENTICATION),
                     sponge_status_message(SPONGE_ERROR_INVALID_PARAMETER)) != 0);
  /* Encryption into a buffer partly overlapping the plaintext, ahead of it or behind it by
   * 1..17 bytes: refused, ciphertext and tag zeroed. The same buffer exactly is allowed. */
  {
    uint8_t overlap[160], overlap_tag[SPONGE_ASCON_AEAD128_TAG_BYTES];
    int zeroed = 1;
    for (int offset = -17; offset <= 17; ++offset) {
      memset(overlap, 0x5A, sizeof overlap);
      memset(overlap_tag, 0xA5, sizeof overlap_tag);
      uint8_t* overlap_ct = overlap + 30 + offset;
      const sponge_status status = sponge_ascon_aead128_encrypt(
          ascon_key, ascon_nonce, ascon_ad, 1, overlap + 30, 100, overlap_ct, overlap_tag);
      CHECK_C(&c, status == (offset == 0 ? SPONGE_OK : SPONGE_ERROR_OVERLAP));
      if (offset == 0) continue;
      for (size_t i = 0; i < 100; ++i)
        zeroed &= overlap_ct[i] == 0;
      for (size_t i = 0; i < sizeof overlap_tag; ++i)
        zeroed &= overlap_tag[i] == 0;
    }
    CHECK_C(&c, zeroed);
    CHECK_C(&c, strcmp(sponge_status_message(SPONGE_ERROR_OVERLAP),
                       sponge_status_message(SPONGE_ERROR_AUTHENTICATION)) != 0);
    /* Decryption the same way: refused with the plaintext output zeroed, in place allowed. */
    uint8_t sealed[100];
    memset(overlap, 0x5A, sizeof overlap);
    CHECK_C(&c, sponge_ascon_aead128_encrypt(ascon_key, ascon_nonce, ascon_ad, 1, overlap, 100,
                                             sealed, overlap_tag) == SPONGE_OK);
    zeroed = 1;
    int refused = 1;
    for (int offset = -17; offset <= 17; ++offset) {
      memset(overlap, 0x5A, sizeof overlap);
      memcpy(overlap + 30, sealed, sizeof sealed);
      uint8_t* overlap_pt = overlap + 30 + offset;
      const sponge_status status = sponge_ascon_aead128_decrypt(
          ascon_key, ascon_nonce, ascon_ad, 1, overlap + 30, 100, overlap_tag, overlap_pt);
      if (offset == 0) {
        CHECK_C(&c, status == SPONGE_OK && overlap_pt[0] == 0x5A && overlap_pt[99] == 0x5A);
        continue;
      }
      refused &= status == SPONGE_ERROR_OVERLAP;
      for (size_t i = 0; i < 100; ++i)
        zeroed &= overlap_pt[i] == 0;
    }
    CHECK_C(&c, refused);
    CHECK_C(&c, zeroed);
  }
  const char* ascon_kernel = sponge_active_ascon_kernel();
  CHECK_C(&c, ascon_kernel != NULL && ascon_kernel[0] != '\0');

  /* Batch hashing: "abc", "" (NULL, 0) and "abc" again (the same pointer) give the one-shot
   * digests; the argument errors write nothing. */
  {
    const uint8_t* messages[3] = {abc, NULL, abc};
    const size_t lengths[3] = {sizeof abc, 0, sizeof abc};
    uint8_t batch32[3][32];
    uint8_t batch28[3][28];
    uint8_t batch48[3][48];
    uint8_t batch64[3][64];
    uint8_t single[64];
    CHECK_C(&c, sponge_keccak256_batch(messages, lengths, 3, batch32) == SPONGE_OK);
    to_hex(batch32[0], 32, hex);
    CHECK_C(&c,
            strcmp(hex, "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45") == 0);
    to_hex(batch32[1], 32, hex);
    CHECK_C(&c,
            strcmp(hex, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470") == 0);
    CHECK_C(&c, memcmp(batch32[0], batch32[2], 32) == 0);
    CHECK_C(&c, sponge_sha3_256_batch(messages, lengths, 3, batch32) == SPONGE_OK);
    to_hex(batch32[2], 32, hex);
    CHECK_C(&c,
            strcmp(hex, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532") == 0);
    CHECK_C(&c, sponge_sha3_224_batch(messages, lengths, 3, batch28) == SPONGE_OK);
    CHECK_C(&c, sponge_sha3_224(abc, sizeof abc, single) == SPONGE_OK);
    CHECK_C(&c, memcmp(batch28[0], single, 28) == 0 && memcmp(batch28[2], single, 28) == 0);
    CHECK_C(&c, sponge_sha3_384_batch(messages, lengths, 3, batch48) == SPONGE_OK);
    CHECK_C(&c, sponge_sha3_384(NULL, 0, single) == SPONGE_OK);
    CHECK_C(&c, memcmp(batch48[1], single, 48) == 0);
    CHECK_C(&c, sponge_sha3_512_batch(messages, lengths, 3, batch64) == SPONGE_OK);
    CHECK_C(&c, sponge_sha3_512(abc, sizeof abc, single) == SPONGE_OK);
    CHECK_C(&c, memcmp(batch64[2], single, 64) == 0);

    /* count 0: OK with anything NULL, nothing written. */
    memset(batch32, 0xA5, sizeof batch32);
    CHECK_C(&c, sponge_keccak256_batch(NULL, NULL, 0, NULL) == SPONGE_OK);
    CHECK_C(&c, sponge_sha3_256_batch(messages, lengths, 0, batch32) == SPONGE_OK);
    CHECK_C(&c, batch32[0][0] == 0xA5 && batch32[2][31] == 0xA5);
    /* NULL arrays, a NULL message with a length, a NULL output: nothing written. */
    CHECK_C(&c, sponge_keccak256_batch(NULL, lengths, 3, batch32) == SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, sponge_keccak256_batch(messages, NULL, 3, batch32) == SPONGE_ERROR_NULL_INPUT);
    const uint8_t* bad_messages[3] = {abc, NULL, abc};
    const size_t bad_lengths[3] = {sizeof abc, 1, sizeof abc};
    CHECK_C(&c, sponge_sha3_512_batch(bad_messages, bad_lengths, 3, batch64) ==
                    SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, sponge_sha3_256_batch(bad_messages, bad_lengths, 3, batch32) ==
                    SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, sponge_sha3_224_batch(messages, lengths, 3, NULL) == SPONGE_ERROR_NULL_OUTPUT);
    /* A NULL input is reported before a NULL output. */
    CHECK_C(&c,
            sponge_sha3_384_batch(bad_messages, bad_lengths, 3, NULL) == SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, batch32[0][0] == 0xA5 && batch32[1][0] == 0xA5 && batch32[2][31] == 0xA5);
    const char* batch_kernel = sponge_active_batch_kernel();
    CHECK_C(&c, batch_kernel != NULL && batch_kernel[0] != '\0');
  }

  /* Four SHAKE streams: "abc" absorbed in two calls gives the one-shot output in every
   * stream; empty SHAKE256 streams give the known answer; the state and argument errors
   * change nothing. */
  {
    sponge_shake128_x4 x4;
    sponge_shake256_x4 y4;
    sponge_shake256_x4 never_initialised;
    const uint8_t* a[4] = {abc, abc, abc, abc};
    const uint8_t* bc[4] = {abc + 1, abc + 1, abc + 1, abc + 1};
    const uint8_t* null_in[4] = {abc, NULL, abc, abc};
    uint8_t streams[4][40];
    uint8_t* outs[4] = {streams[0], streams[1], streams[2], streams[3]};
    uint8_t* null_out[4] = {streams[0], streams[1], NULL, streams[3]};
    uint8_t one[40];
    CHECK_C(&c, sponge_shake128_x4_init(&x4) == SPONGE_OK);
    CHECK_C(&c, sponge_shake128_x4_absorb(&x4, a, 1) == SPONGE_OK);
    CHECK_C(&c, sponge_shake128_x4_absorb(&x4, bc, 2) == SPONGE_OK);
    CHECK_C(&c, sponge_shake128_x4_squeeze(&x4, outs, 40) == SPONGE_OK);
    CHECK_C(&c, sponge_shake128(abc, sizeof abc, one, sizeof one) == SPONGE_OK);
    CHECK_C(&c, memcmp(streams[0], one, 40) == 0 && memcmp(streams[3], one, 40) == 0);
    CHECK_C(&c, sponge_shake128_x4_absorb(&x4, a, 1) == SPONGE_ERROR_MISUSE);

    CHECK_C(&c, sponge_shake256_x4_init(&y4) == SPONGE_OK);
    CHECK_C(&c, sponge_shake256_x4_squeeze(&y4, outs, 16) == SPONGE_OK);
    to_hex(streams[2], 16, hex);
    CHECK_C(&c, strcmp(hex, "46b9dd2b0ba88d13233b3feb743eeb24") == 0);
    CHECK_C(&c, sponge_shake256_x4_init(&y4) == SPONGE_OK); /* again: absorbing from empty */
    CHECK_C(&c, sponge_shake256_x4_absorb(&y4, null_in, 1) == SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, sponge_shake256_x4_absorb(&y4, NULL, 1) == SPONGE_ERROR_NULL_INPUT);
    CHECK_C(&c, sponge_shake256_x4_absorb(&y4, NULL, 0) == SPONGE_OK);
    memset(streams, 0xA5, sizeof streams);
    CHECK_C(&c, sponge_shake256_x4_squeeze(&y4, null_out, 1) == SPONGE_ERROR_NULL_OUTPUT);
    CHECK_C(&c, sponge_shake256_x4_squeeze(&y4, NULL, 1) == SPONGE_ERROR_NULL_OUTPUT);
    CHECK_C(&c, streams[0][0] == 0xA5 && streams[3][0] == 0xA5);
    /* The failed squeezes did not begin squeezing: absorbing continues. */
    CHECK_C(&c, sponge_shake256_x4_absorb(&y4, a, sizeof abc) == SPONGE_OK);

    CHECK_C(&c, sponge_shake128_x4_init(NULL) == SPONGE_ERROR_NULL_STATE);
    CHECK_C(&c, sponge_shake128_x4_absorb(NULL, a, 1) == SPONGE_ERROR_NULL_STATE);
    CHECK_C(&c, sponge_shake256_x4_squeeze(NULL, outs, 1) == SPONGE_ERROR_NULL_STATE);
    CHECK_C(&c, sponge_shake256_x4_clear(NULL) == SPONGE_ERROR_NULL_STATE);
    memset(&never_initialised, 0, sizeof never_initialised);
    CHECK_C(&c, sponge_shake256_x4_absorb(&never_initialised, a, 1) == SPONGE_ERROR_MISUSE);
    CHECK_C(&c, sponge_shake256_x4_squeeze(&never_initialised, outs, 1) == SPONGE_ERROR_MISUSE);

    CHECK_C(&c, sponge_shake128_x4_clear(&x4) == SPONGE_OK);
    CHECK_C(&c, sponge_shake256_x4_clear(&y4) == SPONGE_OK);
    CHECK_C(&c, y4.opaque[0] == 0 && y4.opaque[SPONGE_SHAKE_X4_STATE_WORDS - 1] == 0);
    CHECK_C(&c, sponge_shake128_x4_squeeze(&x4, outs, 1) == SPONGE_ERROR_MISUSE);
    CHECK_C(&c, strcmp(sponge_status_message(SPONGE_ERROR_NULL_STATE),
                       sponge_status_message(SPONGE_ERROR_MISUSE)) != 0);
  }

  const char* ok = sponge_status_message(SPONGE_OK);
  const char* null_input = sponge_status_message(SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, ok != NULL && null_input != NULL && strcmp(ok, null_input) != 0);

  const char* kernel = sponge_active_kernel();
  CHECK_C(&c, kernel != NULL && kernel[0] != '\0');

  *checks_run = c.checks;
  return c.failures;
}
