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

  const char* ok = sponge_status_message(SPONGE_OK);
  const char* null_input = sponge_status_message(SPONGE_ERROR_NULL_INPUT);
  CHECK_C(&c, ok != NULL && null_input != NULL && strcmp(ok, null_input) != 0);

  const char* kernel = sponge_active_kernel();
  CHECK_C(&c, kernel != NULL && kernel[0] != '\0');

  *checks_run = c.checks;
  return c.failures;
}
