// The sponge engine shared by Keccak-256, SHA3-* and SHAKE*, and the one-shot functions.
//
// Full rate blocks of the input go straight from the caller's buffer through the kernel's
// fused "XOR block, then permute" entry. Input that does not fill a block is XORed into
// the state here in C++ as it arrives, and the block is permuted with the permute-only entry
// once it is full; the final, padded block goes the same way (a fused entry, as the Go
// package this project grew from has for full blocks, would XOR a whole rate of mostly zeros). No
// input is ever copied into a buffer. The loop over blocks is here, not in the kernel, so no single
// kernel call runs for longer than one permutation.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "keccak/keccak_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {

static_assert(KeccakSponge::kFullRounds == kFullRounds &&
              KeccakSponge::kReducedRounds == kReducedRounds);
static_assert(sizeof(KeccakSponge) == 25 * 8 + 3 * 2 + 2, "KeccakSponge has padding bytes");

KeccakSponge::KeccakSponge(std::size_t rate_bytes, std::uint8_t domain_byte, int rounds) noexcept
    : rate_bytes_(static_cast<std::uint16_t>(rate_bytes)),
      rounds_(static_cast<std::uint16_t>(rounds)),
      domain_byte_(domain_byte) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  reset();
}

KeccakSponge::~KeccakSponge() {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  zero_words(lanes_);
  // The fields tell which function was used and how long the message was, modulo the rate.
  rate_bytes_ = 0;
  position_ = 0;
  domain_byte_ = 0;
  rounds_ = 0;
  squeezing_ = false;
  keep_stores(this);
  clear_caller_saved_registers();  // what copied or finished the lanes last held them
}

void KeccakSponge::reset() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  zero_words(lanes_);
  position_ = 0;
  squeezing_ = false;
  clear_caller_saved_registers();
}

void KeccakSponge::require_absorbing() const {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  if (squeezing_) {
    throw std::logic_error("sponge: update() called after squeeze(); call reset() first");
  }
}

void KeccakSponge::absorb(const std::uint8_t* data, std::size_t length) {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  require_absorbing();
  const std::size_t rate = rate_bytes_;
  if (position_ != 0) {
    const std::size_t take = std::min(length, rate - position_);
    xor_into_state(lanes_, position_, data, take);
    position_ = static_cast<std::uint16_t>(position_ + take);
    data += take;
    length -= take;
    if (position_ < rate) return;
    permute();
    position_ = 0;
  }
  if (length >= rate) {
    const AbsorbFn absorb_block = active_keccak_kernel().absorb_for(rate, rounds_);
    for (; length >= rate; data += rate, length -= rate)
      absorb_block(lanes_, data);
  }
  xor_into_state(lanes_, 0, data, length);
  position_ = static_cast<std::uint16_t>(length);
}

void KeccakSponge::permute() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  active_keccak_kernel().permute_for(rounds_)(lanes_);
}

void KeccakSponge::absorb_zeros_to_block_boundary() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  if (position_ == 0) return;
  permute();
  position_ = 0;
}

void KeccakSponge::pad_and_permute() noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturnInSharedLibrary clear_registers_on_return{};
  xor_into_state(lanes_, position_, &domain_byte_, 1);
  constexpr std::uint8_t kLastBit = 0x80;
  xor_into_state(lanes_, rate_bytes_ - 1u, &kLastBit, 1);
  permute();
  position_ = 0;
}

void KeccakSponge::squeeze(std::uint8_t* out, std::size_t length) noexcept {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
  if (!squeezing_) {
    pad_and_permute();
    squeezing_ = true;
  }
  const std::size_t rate = rate_bytes_;
  while (length != 0) {
    if (position_ == rate) {
      permute();
      position_ = 0;
    }
    const std::size_t take = std::min(length, rate - position_);
    copy_state_bytes(lanes_, position_, out, take);
    position_ = static_cast<std::uint16_t>(position_ + take);
    out += take;
    length -= take;
  }
}

void KeccakSponge::peek_digest(std::uint8_t* out, std::size_t length) const {
  [[maybe_unused]] const detail::ClearRegistersOnReturn clear_registers_on_return{};
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
