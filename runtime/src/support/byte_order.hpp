// Little-endian lane loads and stores: the byte order of Keccak and of Ascon (SP 800-232), on
// hosts of either endianness.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace sponge::detail {

// Where unaligned loads and stores are not assumed (RISC-V: GCC 12 lowers an 8-byte memcpy
// from or to a pointer of unknown alignment to byte stores into a stack slot and one load, or
// the reverse, which leaves the word, a message's or a lane's, in the function's frame), the
// bytes are combined and split in registers instead.
#if defined(__riscv)
inline constexpr bool kBytewiseWords = true;
#else
inline constexpr bool kBytewiseWords = false;
#endif

inline std::uint64_t load_le64(const std::uint8_t* bytes) noexcept {
  std::uint64_t value = 0;
  if constexpr (kBytewiseWords) {
    for (int i = 0; i < 8; ++i)
      value |= std::uint64_t{bytes[i]} << (8 * i);
    return value;
  }
  std::memcpy(&value, bytes, 8);
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  return value;
}

inline void store_le64(std::uint8_t* bytes, std::uint64_t value) noexcept {
  if constexpr (kBytewiseWords) {
    for (int i = 0; i < 8; ++i)
      bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
    return;
  }
  if constexpr (std::endian::native == std::endian::big) value = __builtin_bswap64(value);
  std::memcpy(bytes, &value, 8);
}

// XORs `length` bytes into a state's little-endian byte string, from byte `offset` on, where
// the state's lane i is lanes[stride * i]: stride 1 for a plain state, N for one state of N
// lane-interleaved ones (a column of a batch kernel's states).
inline void xor_into_lanes(std::uint64_t* lanes, std::size_t stride, std::size_t offset,
                           const std::uint8_t* data, std::size_t length) noexcept {
  const auto xor_byte = [&](std::size_t byte, std::uint8_t value) {
    std::uint64_t& lane = lanes[stride * (byte / 8)];
    if constexpr (std::endian::native == std::endian::little) {
      reinterpret_cast<std::uint8_t*>(&lane)[byte % 8] ^= value;
    } else {
      lane ^= std::uint64_t{value} << (8 * (byte % 8));
    }
  };
  // Whole 8-byte words where the state is lane-aligned; bytes around them.
  for (; length != 0 && (offset % 8) != 0; --length, ++offset)
    xor_byte(offset, *data++);
  // An unoptimised build keeps `word` on the stack, where the last input word (a message
  // or a tree leaf's output: secret) would outlive the call: it is cleared after the loop.
  // An optimised build keeps it in a register and drops the clearing store.
  std::uint64_t word = 0;
  // The bytes go straight into `word` (not through load_le64, whose local would be one more
  // copy on the stack of an unoptimised build).
  for (; length >= 8; length -= 8, offset += 8, data += 8) {
    if constexpr (kBytewiseWords) {
      word = load_le64(data);
    } else {
      std::memcpy(&word, data, 8);
      if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    }
    lanes[stride * (offset / 8)] ^= word;
  }
  word = 0;
  for (; length != 0; --length, ++offset)
    xor_byte(offset, *data++);
}

// XORs `length` bytes into the state's little-endian byte string, from byte `offset` on.
inline void xor_into_state(std::uint64_t* lanes, std::size_t offset, const std::uint8_t* data,
                           std::size_t length) noexcept {
  xor_into_lanes(lanes, 1, offset, data, length);
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
