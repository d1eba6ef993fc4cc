// Little-endian lane loads and stores: Keccak's byte order, on hosts of either endianness.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace sponge::detail {

inline std::uint64_t load_le64(const std::uint8_t* bytes) noexcept {
  std::uint64_t value;
  std::memcpy(&value, bytes, 8);
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  return value;
}

// Copies `length` bytes of the state's little-endian byte string, from byte `offset` on.
inline void copy_state_bytes(const std::uint64_t* lanes, std::size_t offset, std::uint8_t* out,
                             std::size_t length) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, reinterpret_cast<const std::uint8_t*>(lanes) + offset, length);
  } else {
    for (std::size_t i = 0; i < length; ++i) {
      const std::size_t byte = offset + i;
      out[i] = static_cast<std::uint8_t>(lanes[byte / 8] >> (8 * (byte % 8)));
    }
  }
}

}  // namespace sponge::detail
