// Prints keccak256("abc") with the installed sponge library, through the C++ and the C API.
#include <sponge/sponge.h>

#include <cstdio>
#include <sponge/sponge.hpp>

int main() {
  const auto digest = sponge::keccak256(std::string_view("abc"));
  std::uint8_t c_digest[SPONGE_KECCAK256_BYTES];
  const auto* abc = reinterpret_cast<const std::uint8_t*>("abc");
  if (sponge_keccak256(abc, 3, c_digest) != SPONGE_OK) return 1;
  for (std::size_t i = 0; i < digest.size(); ++i) {
    if (digest[i] != c_digest[i]) return 2;
  }
  std::printf("keccak256(abc) = ");
  for (const std::uint8_t byte : digest)
    std::printf("%02x", byte);
  std::printf("\nkernel = %s\n", sponge_active_kernel());
  return 0;
}
