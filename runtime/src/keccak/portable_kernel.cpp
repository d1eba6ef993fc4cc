// The portable kernel as a dispatcher entry: the reference permutations of
// keccak_portable.cpp and absorb entries built on them, in the generated lists' form.
#include "keccak/keccak_kernel.hpp"
#include "support/byte_order.hpp"

namespace sponge::detail {

namespace {

template <std::size_t RateBytes, PermuteFn Permute>
void absorb_portable(std::uint64_t* state, const std::uint8_t* block) noexcept {
  for (std::size_t lane = 0; lane < RateBytes / 8; ++lane) {
    state[lane] ^= load_le64(block + 8 * lane);
  }
  Permute(state);
}

bool always_supported() noexcept {
  return true;
}

// The portable kernel's entry list, in the generated lists' form.
#define SPONGE_PORTABLE_ENTRIES(X)                                                        \
  X(permute, "keccak-f1600", 24, 0, 1, keccak_f1600_portable)                             \
  X(absorb, "keccak-f1600", 24, 72, 1, (absorb_portable<72, keccak_f1600_portable>))      \
  X(absorb, "keccak-f1600", 24, 104, 1, (absorb_portable<104, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 136, 1, (absorb_portable<136, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 144, 1, (absorb_portable<144, keccak_f1600_portable>))    \
  X(absorb, "keccak-f1600", 24, 168, 1, (absorb_portable<168, keccak_f1600_portable>))    \
  X(permute, "keccak-p1600", 12, 0, 1, keccak_p1600_12_portable)                          \
  X(absorb, "keccak-p1600", 12, 136, 1, (absorb_portable<136, keccak_p1600_12_portable>)) \
  X(absorb, "keccak-p1600", 12, 168, 1, (absorb_portable<168, keccak_p1600_12_portable>))

constexpr KeccakEntry kPortableEntries[] = {SPONGE_PORTABLE_ENTRIES(SPONGE_KECCAK_ENTRY)};

}  // namespace

extern const KeccakKernel kPortableKernel =
    make_keccak_kernel("portable", always_supported, kPortableEntries);

}  // namespace sponge::detail
