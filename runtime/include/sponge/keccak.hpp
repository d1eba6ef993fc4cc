// sponge: Keccak-256, SHA3-224/256/384/512 and SHAKE128/256 (FIPS 202) on generated kernels:
// the sponge engine every Keccak function shares, the streaming classes and the one-shot
// functions.
//
// No hashing path allocates heap memory. The one-shot functions are noexcept. The streaming
// classes throw std::logic_error only on misuse (absorbing or taking a digest after squeezing
// has begun); building an exception is the one allocation.
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sponge/byte_io.hpp"
#include "sponge/kernels.hpp"

SPONGE_API_BEGIN
namespace sponge {

// ---------------------------------------------------------------------------------------
// The sponge engine shared by every function. Rate, domain byte, round count (24 or 12) and
// output length are its only parameters; the permutation is reached through the kernel
// dispatcher.
// ---------------------------------------------------------------------------------------
namespace detail {

class KeccakSponge {
 public:
  static constexpr std::size_t kStateBytes = 200;

  static constexpr int kFullRounds = 24;     // Keccak-f[1600]
  static constexpr int kReducedRounds = 12;  // Keccak-p[1600,12] (RFC 9861)

  KeccakSponge(std::size_t rate_bytes, std::uint8_t domain_byte, int rounds = kFullRounds) noexcept;
  KeccakSponge(const KeccakSponge&) = default;
  KeccakSponge& operator=(const KeccakSponge&) = default;
  // Wipes the state: what was hashed (a key, a password) does not linger in memory.
  ~KeccakSponge();

  void absorb(const std::uint8_t* data, std::size_t length);
  // Throws std::logic_error once squeezing has begun (absorb() checks it too).
  void require_absorbing() const;
  // Pads a copy of the sponge and squeezes `length` (<= rate) bytes from it; `this` is
  // left as it was, so absorbing may continue.
  void peek_digest(std::uint8_t* out, std::size_t length) const;
  void squeeze(std::uint8_t* out, std::size_t length) noexcept;
  void reset() noexcept;

  std::size_t rate_bytes() const noexcept { return rate_bytes_; }
  // The padding's domain byte and the permutation's rounds (24, or 12): with the rate, what
  // a multi-state kernel needs to hash this sponge's function on several messages at once.
  std::uint8_t domain_byte() const noexcept { return domain_byte_; }
  int rounds() const noexcept { return rounds_; }
  bool squeezing() const noexcept { return squeezing_; }
  // Absorbs zeros up to the next block boundary (the end of SP 800-185's bytepad). XORing
  // zeros changes nothing, so this only permutes a partly filled block. Must be absorbing.
  void absorb_zeros_to_block_boundary() noexcept;
  // The padding's domain byte, for modes that learn it only at the end (KangarooTwelve).
  void set_domain_byte(std::uint8_t domain_byte) noexcept { domain_byte_ = domain_byte; }
  // The lanes, for whole rate blocks absorbed into them elsewhere (a multi-state kernel's
  // spare state: hash_batch's passenger). Only at a block boundary while absorbing, where
  // absorbing k whole blocks is exactly k times XOR a block into the lanes and permute.
  std::uint64_t* lanes_at_block_boundary() noexcept { return lanes_; }

 private:
  void pad_and_permute() noexcept;
  void permute() noexcept;

  // No padding between or after the fields (sponge.cpp checks): copies carry padding bytes
  // along as they are, and a destroyed sponge leaves only zeros.
  std::uint64_t lanes_[25];
  std::uint16_t rate_bytes_;
  // Bytes of the current rate block already XORed in (absorbing) or read out (squeezing).
  std::uint16_t position_;
  std::uint16_t rounds_;
  std::uint8_t domain_byte_;
  bool squeezing_;
};

// One fixed-output hash (digest of `DigestBytes`), or one XOF when DigestBytes is 0.
template <std::size_t RateBytes, std::uint8_t DomainByte, std::size_t DigestBytes>
class Hasher {
 public:
  static constexpr std::size_t rate_bytes = RateBytes;
  static constexpr std::size_t digest_bytes = DigestBytes;
  static constexpr std::uint8_t domain_byte = DomainByte;

  Hasher() noexcept : sponge_(RateBytes, DomainByte) {}

  // Absorbs any amount. Throws std::logic_error once squeeze() has been called.
  Hasher& update(std::span<const std::uint8_t> data) {
    sponge_.absorb(data.data(), data.size());
    return *this;
  }
  Hasher& update(std::span<const std::byte> data) {
    sponge_.absorb(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
    return *this;
  }
  Hasher& update(std::string_view text) {
    sponge_.absorb(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    return *this;
  }

  // The digest of everything absorbed so far. Leaves the object unchanged, so it may be
  // called again, and update() may continue. Throws std::logic_error after squeeze().
  std::array<std::uint8_t, DigestBytes> digest() const requires(DigestBytes != 0) {
    std::array<std::uint8_t, DigestBytes> out;
    sponge_.peek_digest(out.data(), out.size());
    return out;
  }

  // Pads on the first call, then reads output; successive calls continue the stream.
  void squeeze(std::span<std::uint8_t> out) noexcept { sponge_.squeeze(out.data(), out.size()); }
  void squeeze(std::span<std::byte> out) noexcept {
    sponge_.squeeze(reinterpret_cast<std::uint8_t*>(out.data()), out.size());
  }

  // Back to the empty message, absorbing.
  void reset() noexcept { sponge_.reset(); }

 private:
  KeccakSponge sponge_;
};

}  // namespace detail

using Keccak256 = detail::Hasher<136, 0x01, 32>;
using Sha3_224 = detail::Hasher<144, 0x06, 28>;
using Sha3_256 = detail::Hasher<136, 0x06, 32>;
using Sha3_384 = detail::Hasher<104, 0x06, 48>;
using Sha3_512 = detail::Hasher<72, 0x06, 64>;
using Shake128 = detail::Hasher<168, 0x1F, 0>;
using Shake256 = detail::Hasher<136, 0x1F, 0>;

// ---------------------------------------------------------------------------------------
// One-shot functions.
// ---------------------------------------------------------------------------------------
std::array<std::uint8_t, 32> keccak256(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 28> sha3_224(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 32> sha3_256(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 48> sha3_384(std::span<const std::uint8_t> data) noexcept;
std::array<std::uint8_t, 64> sha3_512(std::span<const std::uint8_t> data) noexcept;
void shake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;
void shake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept;

inline std::array<std::uint8_t, 32> keccak256(std::string_view text) noexcept {
  return keccak256(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 32> keccak256(std::span<const std::byte> data) noexcept {
  return keccak256(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 28> sha3_224(std::string_view text) noexcept {
  return sha3_224(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 28> sha3_224(std::span<const std::byte> data) noexcept {
  return sha3_224(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 32> sha3_256(std::string_view text) noexcept {
  return sha3_256(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 32> sha3_256(std::span<const std::byte> data) noexcept {
  return sha3_256(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 48> sha3_384(std::string_view text) noexcept {
  return sha3_384(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 48> sha3_384(std::span<const std::byte> data) noexcept {
  return sha3_384(detail::as_bytes(data));
}
inline std::array<std::uint8_t, 64> sha3_512(std::string_view text) noexcept {
  return sha3_512(detail::as_bytes(text));
}
inline std::array<std::uint8_t, 64> sha3_512(std::span<const std::byte> data) noexcept {
  return sha3_512(detail::as_bytes(data));
}
inline void shake128(std::string_view in, std::span<std::uint8_t> out) noexcept {
  shake128(detail::as_bytes(in), out);
}
inline void shake256(std::string_view in, std::span<std::uint8_t> out) noexcept {
  shake256(detail::as_bytes(in), out);
}
inline void shake128(std::span<const std::byte> in, std::span<std::uint8_t> out) noexcept {
  shake128(detail::as_bytes(in), out);
}
inline void shake128(std::span<const std::byte> in, std::span<std::byte> out) noexcept {
  shake128(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake128(std::string_view in, std::span<std::byte> out) noexcept {
  shake128(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake256(std::span<const std::byte> in, std::span<std::uint8_t> out) noexcept {
  shake256(detail::as_bytes(in), out);
}
inline void shake256(std::span<const std::byte> in, std::span<std::byte> out) noexcept {
  shake256(detail::as_bytes(in), detail::as_writable_bytes(out));
}
inline void shake256(std::string_view in, std::span<std::byte> out) noexcept {
  shake256(detail::as_bytes(in), detail::as_writable_bytes(out));
}

}  // namespace sponge
SPONGE_API_END
