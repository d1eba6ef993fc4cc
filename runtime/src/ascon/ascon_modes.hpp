// The Ascon modes' constants and their one-shot forms on a given kernel: the public one-shot
// functions run these on the dispatcher's kernel, the tests and benchmarks on each compiled
// kernel in turn.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ascon/ascon_kernel.hpp"
#include "sponge/sponge.hpp"

namespace sponge::detail {

// The initial values of SP 800-232, in x0 with zeros in x1..x4 (AEAD128: key and nonce).
inline constexpr std::uint64_t kAsconHash256Iv = 0x0000080100CC0002;
inline constexpr std::uint64_t kAsconXof128Iv = 0x0000080000CC0003;
inline constexpr std::uint64_t kAsconCxof128Iv = 0x0000080000CC0004;
inline constexpr std::uint64_t kAsconAead128Iv = 0x00001000808C0001;

// P12(IV, 0, 0, 0, 0) of Hash256 and XOF128: their initialisation costs nothing. The unit
// tests recompute both with every kernel.
inline constexpr std::uint64_t kAsconHash256Initial[5] = {0x9b1e5494e934d681, 0x4bc3a01e333751d2,
                                                          0xae65396c6b34b81a, 0x3c7fd4a4d56a4db3,
                                                          0x1a5c464906c5976d};
inline constexpr std::uint64_t kAsconXof128Initial[5] = {0xda82ce768d9447eb, 0xcc7ce6c75f1ef969,
                                                         0xe7508fd780085631, 0x0ee0ea53416b58cc,
                                                         0xe0547524db6f0bde};

// True when `a` and `b`, `length` bytes each, share a byte without being the same bytes:
// the AEAD's text input and output may be one buffer, never partly overlapping ones.
inline bool partly_overlap(const std::uint8_t* a, const std::uint8_t* b,
                           std::size_t length) noexcept {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return length != 0 && x != y && (x < y ? y - x : x - y) < length;
}

std::array<std::uint8_t, 32> ascon_hash256_on(const AsconKernel& kernel,
                                              std::span<const std::uint8_t> data) noexcept;
void ascon_xof128_on(const AsconKernel& kernel, std::span<const std::uint8_t> in,
                     std::span<std::uint8_t> out) noexcept;
void ascon_cxof128_on(const AsconKernel& kernel, std::span<const std::uint8_t> in,
                      std::span<const std::uint8_t> customization, std::span<std::uint8_t> out);
void ascon_aead128_encrypt_on(const AsconKernel& kernel, AsconAead128Key key,
                              AsconAead128Nonce nonce,
                              std::span<const std::uint8_t> associated_data,
                              std::span<const std::uint8_t> plaintext,
                              std::span<std::uint8_t> ciphertext,
                              std::span<std::uint8_t, kAsconAead128TagBytes> tag);
[[nodiscard]] bool ascon_aead128_decrypt_on(
    const AsconKernel& kernel, AsconAead128Key key, AsconAead128Nonce nonce,
    std::span<const std::uint8_t> associated_data, std::span<const std::uint8_t> ciphertext,
    std::span<const std::uint8_t, kAsconAead128TagBytes> tag, std::span<std::uint8_t> plaintext);

}  // namespace sponge::detail
