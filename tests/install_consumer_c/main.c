/* Prints keccak256("abc") with the installed sponge library, from C only. */
#include <sponge/sponge.h>
#include <stdio.h>

int main(void) {
  const uint8_t abc[3] = {'a', 'b', 'c'};
  uint8_t digest[SPONGE_KECCAK256_BYTES];
  if (sponge_keccak256(abc, sizeof abc, digest) != SPONGE_OK) return 1;
  printf("keccak256(abc) = ");
  for (size_t i = 0; i < sizeof digest; ++i)
    printf("%02x", digest[i]);
  printf("\nkernel = %s\n", sponge_active_kernel());
  return 0;
}
