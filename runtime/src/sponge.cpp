// The sponge engine shared by Keccak-256, SHA3-* and SHAKE*, and the one-shot functions.
//
// Full rate blocks of the input go straight from the caller's buffer through the kernel's
// fused "XOR block, then permute" entry; only a trailing partial block is copied into
// `pending_`. The final, padded block is XORed into the state here in C++ and permuted with
// the permute-only entry (seed 003: a fused entry would XOR a whole rate of mostly zeros).
// The loop over blocks is here, not in the kernel, so no single kernel call runs for longer
// than one permutation.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "byte_order.hpp"
#include "kernel.hpp"
#include "sponge/sponge.hpp"

namespace sponge::detail {

KeccakSponge::KeccakSponge(std::size_t rate_bytes, std::uint8_t domain_byte) noexcept
    : rate_bytes_(static_cast<std::uint16_t>(rate_bytes)), domain_byte_(domain_byte) {
  reset();
}

void KeccakSponge::reset() noexcept {
  std::memset(lanes_, 0, sizeof lanes_);
  pending_bytes_ = 0;
  squeeze_offset_ = 0;
  squeezing_ = false;
}

void KeccakSponge::absorb(const std::uint8_t* data, std::size_t length) {
  if (squeezing_) {
    throw std::logic_error("sponge: update() called after squeeze(); call reset() first");
  }
  if (length == 0) return;
  const std::size_t rate = rate_bytes_;
  const AbsorbFn absorb_block = active_keccak_kernel().absorb_for(rate);
  if (pending_bytes_ != 0) {
    const std::size_t take = std::min(length, rate - pending_bytes_);
    std::memcpy(pending_ + pending_bytes_, data, take);
    pending_bytes_ = static_cast<std::uint16_t>(pending_bytes_ + take);
    data += take;
    length -= take;
    if (pending_bytes_ < rate) return;
    absorb_block(lanes_, pending_);
    pending_bytes_ = 0;
  }
  for (; length >= rate; data += rate, length -= rate) {
    absorb_block(lanes_, data);
  }
  std::memcpy(pending_, data, length);
  pending_bytes_ = static_cast<std::uint16_t>(length);
}

void KeccakSponge::pad_and_permute() noexcept {
  const std::size_t rate = rate_bytes_;
  // Pad pending_ to a whole rate block in place, then XOR only the lanes that hold message
  // or domain bytes, and the lane holding the final 0x80.
  std::memset(pending_ + pending_bytes_, 0, rate - pending_bytes_);
  pending_[pending_bytes_] ^= domain_byte_;
  pending_[rate - 1] ^= 0x80;
  const std::size_t filled_lanes = pending_bytes_ / 8 + 1;
  for (std::size_t lane = 0; lane < filled_lanes; ++lane) {
    lanes_[lane] ^= load_le64(pending_ + 8 * lane);
  }
  if (filled_lanes < rate / 8) {
    lanes_[rate / 8 - 1] ^= load_le64(pending_ + rate - 8);
  }
  active_keccak_kernel().permute(lanes_);
  pending_bytes_ = 0;
}

void KeccakSponge::squeeze(std::uint8_t* out, std::size_t length) noexcept {
  if (!squeezing_) {
    pad_and_permute();
    squeezing_ = true;
    squeeze_offset_ = 0;
  }
  const std::size_t rate = rate_bytes_;
  while (length != 0) {
    if (squeeze_offset_ == rate) {
      active_keccak_kernel().permute(lanes_);
      squeeze_offset_ = 0;
    }
    const std::size_t take = std::min(length, rate - squeeze_offset_);
    copy_state_bytes(lanes_, squeeze_offset_, out, take);
    squeeze_offset_ = static_cast<std::uint16_t>(squeeze_offset_ + take);
    out += take;
    length -= take;
  }
}

void KeccakSponge::peek_digest(std::uint8_t* out, std::size_t length) const {
  if (squeezing_) {
    throw std::logic_error("sponge: digest() called after squeeze(); call reset() first");
  }
  KeccakSponge finished = *this;
  finished.squeeze(out, length);
}

namespace {

template <typename Hash>
std::array<std::uint8_t, Hash::digest_bytes> one_shot(std::span<const std::uint8_t> data) {
  Hash hash;
  hash.update(data);
  std::array<std::uint8_t, Hash::digest_bytes> digest;
  hash.squeeze(digest);
  return digest;
}

}  // namespace
}  // namespace sponge::detail

namespace sponge {

std::array<std::uint8_t, 32> keccak256(std::span<const std::uint8_t> data) noexcept {
  return detail::one_shot<Keccak256>(data);
}
std::array<std::uint8_t, 28> sha3_224(std::span<const std::uint8_t> data) noexcept {
  return detail::one_shot<Sha3_224>(data);
}
std::array<std::uint8_t, 32> sha3_256(std::span<const std::uint8_t> data) noexcept {
  return detail::one_shot<Sha3_256>(data);
}
std::array<std::uint8_t, 48> sha3_384(std::span<const std::uint8_t> data) noexcept {
  return detail::one_shot<Sha3_384>(data);
}
std::array<std::uint8_t, 64> sha3_512(std::span<const std::uint8_t> data) noexcept {
  return detail::one_shot<Sha3_512>(data);
}
void shake128(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept {
  Shake128 xof;
  xof.update(in);
  xof.squeeze(out);
}
void shake256(std::span<const std::uint8_t> in, std::span<std::uint8_t> out) noexcept {
  Shake256 xof;
  xof.update(in);
  xof.squeeze(out);
}

}  // namespace sponge
