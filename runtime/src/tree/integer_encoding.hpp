// The integer encodings of SP 800-185 (left_encode, right_encode) and RFC 9861
// (length_encode): an integer's big-endian bytes without leading zeros, with their count
// before or after them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sponge::detail {

class EncodedInteger {
 public:
  // left_encode(x): count || digits, at least one digit (0 is 01 00).
  static EncodedInteger left(std::uint64_t value, std::uint8_t above_64_bits = 0) noexcept {
    EncodedInteger encoded = digits_of(value, above_64_bits, 1);
    encoded.bytes_[0] = static_cast<std::uint8_t>(encoded.size_ - 1);
    return encoded;
  }
  // left_encode(8 * byte_count), the head of encode_string: the bit count may need 67 bits.
  static EncodedInteger left_bit_count(std::uint64_t byte_count) noexcept {
    return left(byte_count << 3, static_cast<std::uint8_t>(byte_count >> 61));
  }
  // right_encode(x): digits || count, at least one digit (0 is 00 01).
  static EncodedInteger right(std::uint64_t value) noexcept { return trailing_count(value, 1); }
  // length_encode(x) of RFC 9861: digits || count, no digit for 0 (0 is 00).
  static EncodedInteger length(std::uint64_t value) noexcept { return trailing_count(value, 0); }

  std::span<const std::uint8_t> bytes() const noexcept { return {bytes_ + first_, size_}; }

 private:
  // The digits of above_64_bits * 2^64 + value at bytes_[1 ..], at least `min_digits` of
  // them; bytes_[0] is left for a leading count.
  static EncodedInteger digits_of(std::uint64_t value, std::uint8_t above_64_bits,
                                  std::size_t min_digits) noexcept {
    std::uint8_t digits[9] = {above_64_bits};
    for (int i = 0; i < 8; ++i)
      digits[8 - i] = static_cast<std::uint8_t>(value >> (8 * i));
    std::size_t skipped = 0;
    while (skipped < 9 - min_digits && digits[skipped] == 0)
      ++skipped;
    EncodedInteger encoded;
    encoded.size_ = 1 + 9 - skipped;
    for (std::size_t i = skipped; i < 9; ++i)
      encoded.bytes_[1 + i - skipped] = digits[i];
    return encoded;
  }
  static EncodedInteger trailing_count(std::uint64_t value, std::size_t min_digits) noexcept {
    EncodedInteger encoded = digits_of(value, 0, min_digits);
    encoded.bytes_[encoded.size_] = static_cast<std::uint8_t>(encoded.size_ - 1);
    encoded.first_ = 1;
    return encoded;
  }

  std::uint8_t bytes_[11] = {};
  std::size_t first_ = 0;  // 1 when the count trails: the digits start at bytes_[1]
  std::size_t size_ = 0;
};

}  // namespace sponge::detail
