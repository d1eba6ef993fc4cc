// The C API: argument checks, then the C++ one-shot functions.
#include "sponge/sponge.h"

#include <algorithm>
#include <array>
#include <memory>
#include <new>
#include <tuple>

#include "ascon/ascon_modes.hpp"
#include "batch/batch_hash.hpp"
#include "sponge/sponge.hpp"
#include "support/wipe.hpp"

namespace {

template <auto Hash>
sponge_status fixed_output(const uint8_t* in, size_t in_len, uint8_t* out) noexcept {
  if (in == nullptr && in_len != 0) return SPONGE_ERROR_NULL_INPUT;
  if (out == nullptr) return SPONGE_ERROR_NULL_OUTPUT;
  const auto digest = Hash(std::span<const std::uint8_t>(in, in_len));
  std::copy(digest.begin(), digest.end(), out);
  return SPONGE_OK;
}

template <auto Xof>
sponge_status extendable_output(const uint8_t* in, size_t in_len, uint8_t* out,
                                size_t out_len) noexcept {
  if (in == nullptr && in_len != 0) return SPONGE_ERROR_NULL_INPUT;
  if (out == nullptr && out_len != 0) return SPONGE_ERROR_NULL_OUTPUT;
  Xof(std::span<const std::uint8_t>(in, in_len), std::span<std::uint8_t>(out, out_len));
  return SPONGE_OK;
}

// The overload sets of the C++ API, narrowed to their byte-span members.
using FixedSpanFn32 = std::array<std::uint8_t, 32> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn28 = std::array<std::uint8_t, 28> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn48 = std::array<std::uint8_t, 48> (*)(std::span<const std::uint8_t>) noexcept;
using FixedSpanFn64 = std::array<std::uint8_t, 64> (*)(std::span<const std::uint8_t>) noexcept;
using XofSpanFn = void (*)(std::span<const std::uint8_t>, std::span<std::uint8_t>) noexcept;

// A pointer-and-length argument of the C API.
struct ByteString {
  const uint8_t* data;
  size_t length;
};

// The argument checks every function of the RFC 9861 and SP 800-185 families shares, in the
// documented order: each input (NULL only with length 0), then `parameters_valid`, then the
// output (NULL only with length 0). Only when all pass is `hash(inputs as spans..., out)`
// called.
template <std::size_t InputCount, typename Hash>
sponge_status checked_call(const std::array<ByteString, InputCount>& inputs, bool parameters_valid,
                           uint8_t* out, size_t out_len, Hash&& hash) noexcept {
  std::array<std::span<const std::uint8_t>, InputCount> spans;
  for (std::size_t i = 0; i < InputCount; ++i) {
    if (inputs[i].data == nullptr && inputs[i].length != 0) return SPONGE_ERROR_NULL_INPUT;
    spans[i] = {inputs[i].data, inputs[i].length};
  }
  if (!parameters_valid) return SPONGE_ERROR_INVALID_PARAMETER;
  if (out == nullptr && out_len != 0) return SPONGE_ERROR_NULL_OUTPUT;
  std::apply([&](auto... input) { hash(input..., std::span<std::uint8_t>(out, out_len)); }, spans);
  return SPONGE_OK;
}

bool is_turboshake_domain(uint8_t domain) noexcept {
  return domain >= 0x01 && domain <= 0x7F;
}

// The tuple's arrays and elements: NULL only where the count or length is 0.
bool tuple_valid(const uint8_t* const* parts, const size_t* part_lens, size_t part_count) noexcept {
  if (part_count == 0) return true;
  if (parts == nullptr || part_lens == nullptr) return false;
  for (size_t i = 0; i < part_count; ++i) {
    if (parts[i] == nullptr && part_lens[i] != 0) return false;
  }
  return true;
}

template <typename Tuple>
sponge_status tuple_hash(const uint8_t* const* parts, const size_t* part_lens, size_t part_count,
                         const uint8_t* custom, size_t custom_len, uint8_t* out,
                         size_t out_len) noexcept {
  // A bad tuple is a NULL input: checked before the customization, like the message before it.
  if (!tuple_valid(parts, part_lens, part_count)) return SPONGE_ERROR_NULL_INPUT;
  return checked_call<1>(
      {{{custom, custom_len}}}, true, out, out_len, [&](auto customization, auto output) {
        sponge::detail::tuple_one_shot<Tuple>(
            part_count,
            [&](std::size_t i) { return std::span<const std::uint8_t>(parts[i], part_lens[i]); },
            customization, output);
      });
}

// The batch functions: every argument checked first (inputs, then the output), then the
// scheduler on the active batch kernel.
template <typename Hash>
sponge_status batch_hash(const uint8_t* const* messages, const size_t* lengths, size_t count,
                         uint8_t* digests) noexcept {
  if (count == 0) return SPONGE_OK;
  if (messages == nullptr || lengths == nullptr) return SPONGE_ERROR_NULL_INPUT;
  for (size_t i = 0; i < count; ++i) {
    if (messages[i] == nullptr && lengths[i] != 0) return SPONGE_ERROR_NULL_INPUT;
  }
  if (digests == nullptr) return SPONGE_ERROR_NULL_OUTPUT;
  sponge::detail::hash_batch(
      sponge::detail::active_batch_kernel(),
      {Hash::rate_bytes, Hash::domain_byte, Hash::digest_bytes, sponge::detail::kFullRounds},
      sponge::detail::BatchMessages(messages, lengths, count), digests);
  return SPONGE_OK;
}

// The four-stream SHAKE states: the C++ object (Xof, Shake128x4 or Shake256x4) lives at the
// start of the caller's struct, and the struct's last word holds a marker while it is alive,
// so a state that was never initialised (or was cleared) is refused.
template <typename Xof, typename State>
class ShakeX4State {
 public:
  static_assert(sizeof(Xof) + sizeof(std::uint64_t) <= sizeof(State::opaque),
                "SPONGE_SHAKE_X4_STATE_WORDS is too small for the C++ object");
  static_assert(alignof(Xof) <= alignof(State), "the C state is less aligned than the object");
  static constexpr std::uint64_t kAlive = 0x5348414b45583400u | Xof::rate_bytes;  // "SHAKEX4"

  static sponge_status init(State* state) noexcept {
    if (state == nullptr) return SPONGE_ERROR_NULL_STATE;
    // Not a branch on the old marker: a state never initialised holds whatever its memory
    // held (the constant-time test's memcheck reported the read). An object still alive
    // there is overwritten instead of destroyed, which loses nothing: it owns no resource,
    // and its destructor only wipes bytes the new object's construction overwrites (no
    // padding: shake_x4.cpp checks).
    for (std::uint64_t& word : state->opaque)
      word = 0;
    new (state->opaque) Xof();
    marker(state) = kAlive;
    return SPONGE_OK;
  }

  static sponge_status absorb(State* state, const uint8_t* const* inputs, size_t length) noexcept {
    if (state == nullptr) return SPONGE_ERROR_NULL_STATE;
    if (!alive(state) || object(state)->squeezing()) return SPONGE_ERROR_MISUSE;
    if (inputs == nullptr && length != 0) return SPONGE_ERROR_NULL_INPUT;
    if (length == 0) return SPONGE_OK;
    typename Xof::Inputs spans;
    for (std::size_t s = 0; s < Xof::streams; ++s) {
      if (inputs[s] == nullptr) return SPONGE_ERROR_NULL_INPUT;
      spans[s] = {inputs[s], length};
    }
    object(state)->update(spans);  // cannot throw: absorbing was checked
    return SPONGE_OK;
  }

  static sponge_status squeeze(State* state, uint8_t* const* outputs, size_t length) noexcept {
    if (state == nullptr) return SPONGE_ERROR_NULL_STATE;
    if (!alive(state)) return SPONGE_ERROR_MISUSE;
    if (outputs == nullptr && length != 0) return SPONGE_ERROR_NULL_OUTPUT;
    typename Xof::Outputs spans;
    for (std::size_t s = 0; s < Xof::streams && length != 0; ++s) {
      if (outputs[s] == nullptr) return SPONGE_ERROR_NULL_OUTPUT;
      spans[s] = {outputs[s], length};
    }
    object(state)->squeeze(spans);  // cannot throw: the lengths are equal
    return SPONGE_OK;
  }

  static sponge_status clear(State* state) noexcept {
    if (state == nullptr) return SPONGE_ERROR_NULL_STATE;
    if (alive(state)) std::destroy_at(object(state));
    for (std::uint64_t& word : state->opaque)
      word = 0;
    sponge::detail::keep_stores(state);
    return SPONGE_OK;
  }

 private:
  static Xof* object(State* state) noexcept {
    return std::launder(reinterpret_cast<Xof*>(state->opaque));
  }
  static std::uint64_t& marker(State* state) noexcept {
    return state->opaque[std::size(state->opaque) - 1];
  }
  static bool alive(State* state) noexcept { return marker(state) == kAlive; }
};

using Shake128x4State = ShakeX4State<sponge::Shake128x4, sponge_shake128_x4>;
using Shake256x4State = ShakeX4State<sponge::Shake256x4, sponge_shake256_x4>;

}  // namespace

extern "C" {

sponge_status sponge_keccak256(const uint8_t* in, size_t in_len, uint8_t out[32]) {
  return fixed_output<static_cast<FixedSpanFn32>(sponge::keccak256)>(in, in_len, out);
}
sponge_status sponge_sha3_224(const uint8_t* in, size_t in_len, uint8_t out[28]) {
  return fixed_output<static_cast<FixedSpanFn28>(sponge::sha3_224)>(in, in_len, out);
}
sponge_status sponge_sha3_256(const uint8_t* in, size_t in_len, uint8_t out[32]) {
  return fixed_output<static_cast<FixedSpanFn32>(sponge::sha3_256)>(in, in_len, out);
}
sponge_status sponge_sha3_384(const uint8_t* in, size_t in_len, uint8_t out[48]) {
  return fixed_output<static_cast<FixedSpanFn48>(sponge::sha3_384)>(in, in_len, out);
}
sponge_status sponge_sha3_512(const uint8_t* in, size_t in_len, uint8_t out[64]) {
  return fixed_output<static_cast<FixedSpanFn64>(sponge::sha3_512)>(in, in_len, out);
}
sponge_status sponge_keccak256_batch(const uint8_t* const* messages, const size_t* lengths,
                                     size_t count, uint8_t (*digests)[32]) {
  return batch_hash<sponge::Keccak256>(messages, lengths, count,
                                       reinterpret_cast<uint8_t*>(digests));
}
sponge_status sponge_sha3_224_batch(const uint8_t* const* messages, const size_t* lengths,
                                    size_t count, uint8_t (*digests)[28]) {
  return batch_hash<sponge::Sha3_224>(messages, lengths, count,
                                      reinterpret_cast<uint8_t*>(digests));
}
sponge_status sponge_sha3_256_batch(const uint8_t* const* messages, const size_t* lengths,
                                    size_t count, uint8_t (*digests)[32]) {
  return batch_hash<sponge::Sha3_256>(messages, lengths, count,
                                      reinterpret_cast<uint8_t*>(digests));
}
sponge_status sponge_sha3_384_batch(const uint8_t* const* messages, const size_t* lengths,
                                    size_t count, uint8_t (*digests)[48]) {
  return batch_hash<sponge::Sha3_384>(messages, lengths, count,
                                      reinterpret_cast<uint8_t*>(digests));
}
sponge_status sponge_sha3_512_batch(const uint8_t* const* messages, const size_t* lengths,
                                    size_t count, uint8_t (*digests)[64]) {
  return batch_hash<sponge::Sha3_512>(messages, lengths, count,
                                      reinterpret_cast<uint8_t*>(digests));
}
sponge_status sponge_shake128(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  return extendable_output<static_cast<XofSpanFn>(sponge::shake128)>(in, in_len, out, out_len);
}
sponge_status sponge_shake256(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  return extendable_output<static_cast<XofSpanFn>(sponge::shake256)>(in, in_len, out, out_len);
}

sponge_status sponge_shake128_x4_init(sponge_shake128_x4* state) {
  return Shake128x4State::init(state);
}
sponge_status sponge_shake128_x4_absorb(sponge_shake128_x4* state, const uint8_t* const inputs[4],
                                        size_t length) {
  return Shake128x4State::absorb(state, inputs, length);
}
sponge_status sponge_shake128_x4_squeeze(sponge_shake128_x4* state, uint8_t* const outputs[4],
                                         size_t length) {
  return Shake128x4State::squeeze(state, outputs, length);
}
sponge_status sponge_shake128_x4_clear(sponge_shake128_x4* state) {
  return Shake128x4State::clear(state);
}
sponge_status sponge_shake256_x4_init(sponge_shake256_x4* state) {
  return Shake256x4State::init(state);
}
sponge_status sponge_shake256_x4_absorb(sponge_shake256_x4* state, const uint8_t* const inputs[4],
                                        size_t length) {
  return Shake256x4State::absorb(state, inputs, length);
}
sponge_status sponge_shake256_x4_squeeze(sponge_shake256_x4* state, uint8_t* const outputs[4],
                                         size_t length) {
  return Shake256x4State::squeeze(state, outputs, length);
}
sponge_status sponge_shake256_x4_clear(sponge_shake256_x4* state) {
  return Shake256x4State::clear(state);
}

sponge_status sponge_turboshake128(const uint8_t* in, size_t in_len, uint8_t domain, uint8_t* out,
                                   size_t out_len) {
  return checked_call<1>(
      {{{in, in_len}}}, is_turboshake_domain(domain), out, out_len,
      [&](auto message, auto output) { sponge::turboshake128(message, output, domain); });
}
sponge_status sponge_turboshake256(const uint8_t* in, size_t in_len, uint8_t domain, uint8_t* out,
                                   size_t out_len) {
  return checked_call<1>(
      {{{in, in_len}}}, is_turboshake_domain(domain), out, out_len,
      [&](auto message, auto output) { sponge::turboshake256(message, output, domain); });
}
sponge_status sponge_kt128(const uint8_t* in, size_t in_len, const uint8_t* custom,
                           size_t custom_len, uint8_t* out, size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, true, out, out_len, sponge::kt128);
}
sponge_status sponge_kt256(const uint8_t* in, size_t in_len, const uint8_t* custom,
                           size_t custom_len, uint8_t* out, size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, true, out, out_len, sponge::kt256);
}
sponge_status sponge_kt128_parallel(const uint8_t* in, size_t in_len, const uint8_t* custom,
                                    size_t custom_len, uint8_t* out, size_t out_len,
                                    unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::kt128_parallel(message, customization, output, threads);
                         });
}
sponge_status sponge_kt256_parallel(const uint8_t* in, size_t in_len, const uint8_t* custom,
                                    size_t custom_len, uint8_t* out, size_t out_len,
                                    unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::kt256_parallel(message, customization, output, threads);
                         });
}
sponge_status sponge_cshake128(const uint8_t* in, size_t in_len, const uint8_t* name,
                               size_t name_len, const uint8_t* custom, size_t custom_len,
                               uint8_t* out, size_t out_len) {
  return checked_call<3>({{{in, in_len}, {name, name_len}, {custom, custom_len}}}, true, out,
                         out_len, sponge::cshake128);
}
sponge_status sponge_cshake256(const uint8_t* in, size_t in_len, const uint8_t* name,
                               size_t name_len, const uint8_t* custom, size_t custom_len,
                               uint8_t* out, size_t out_len) {
  return checked_call<3>({{{in, in_len}, {name, name_len}, {custom, custom_len}}}, true, out,
                         out_len, sponge::cshake256);
}
sponge_status sponge_kmac128(const uint8_t* key, size_t key_len, const uint8_t* in, size_t in_len,
                             const uint8_t* custom, size_t custom_len, uint8_t* out,
                             size_t out_len) {
  return checked_call<3>({{{key, key_len}, {in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         sponge::kmac128);
}
sponge_status sponge_kmac256(const uint8_t* key, size_t key_len, const uint8_t* in, size_t in_len,
                             const uint8_t* custom, size_t custom_len, uint8_t* out,
                             size_t out_len) {
  return checked_call<3>({{{key, key_len}, {in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         sponge::kmac256);
}
sponge_status sponge_kmacxof128(const uint8_t* key, size_t key_len, const uint8_t* in,
                                size_t in_len, const uint8_t* custom, size_t custom_len,
                                uint8_t* out, size_t out_len) {
  return checked_call<3>({{{key, key_len}, {in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         sponge::kmacxof128);
}
sponge_status sponge_kmacxof256(const uint8_t* key, size_t key_len, const uint8_t* in,
                                size_t in_len, const uint8_t* custom, size_t custom_len,
                                uint8_t* out, size_t out_len) {
  return checked_call<3>({{{key, key_len}, {in, in_len}, {custom, custom_len}}}, true, out, out_len,
                         sponge::kmacxof256);
}
sponge_status sponge_tuplehash128(const uint8_t* const* parts, const size_t* part_lens,
                                  size_t part_count, const uint8_t* custom, size_t custom_len,
                                  uint8_t* out, size_t out_len) {
  return tuple_hash<sponge::TupleHash128>(parts, part_lens, part_count, custom, custom_len, out,
                                          out_len);
}
sponge_status sponge_tuplehash256(const uint8_t* const* parts, const size_t* part_lens,
                                  size_t part_count, const uint8_t* custom, size_t custom_len,
                                  uint8_t* out, size_t out_len) {
  return tuple_hash<sponge::TupleHash256>(parts, part_lens, part_count, custom, custom_len, out,
                                          out_len);
}
sponge_status sponge_tuplehashxof128(const uint8_t* const* parts, const size_t* part_lens,
                                     size_t part_count, const uint8_t* custom, size_t custom_len,
                                     uint8_t* out, size_t out_len) {
  return tuple_hash<sponge::TupleHashXof128>(parts, part_lens, part_count, custom, custom_len, out,
                                             out_len);
}
sponge_status sponge_tuplehashxof256(const uint8_t* const* parts, const size_t* part_lens,
                                     size_t part_count, const uint8_t* custom, size_t custom_len,
                                     uint8_t* out, size_t out_len) {
  return tuple_hash<sponge::TupleHashXof256>(parts, part_lens, part_count, custom, custom_len, out,
                                             out_len);
}
// ParallelHash: the block size was checked, so the C++ function cannot throw.
sponge_status sponge_parallelhash128(const uint8_t* in, size_t in_len, size_t block_size,
                                     const uint8_t* custom, size_t custom_len, uint8_t* out,
                                     size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhash128(message, block_size, customization, output);
                         });
}
sponge_status sponge_parallelhash256(const uint8_t* in, size_t in_len, size_t block_size,
                                     const uint8_t* custom, size_t custom_len, uint8_t* out,
                                     size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhash256(message, block_size, customization, output);
                         });
}
sponge_status sponge_parallelhashxof128(const uint8_t* in, size_t in_len, size_t block_size,
                                        const uint8_t* custom, size_t custom_len, uint8_t* out,
                                        size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhashxof128(message, block_size, customization, output);
                         });
}
sponge_status sponge_parallelhashxof256(const uint8_t* in, size_t in_len, size_t block_size,
                                        const uint8_t* custom, size_t custom_len, uint8_t* out,
                                        size_t out_len) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhashxof256(message, block_size, customization, output);
                         });
}
sponge_status sponge_parallelhash128_parallel(const uint8_t* in, size_t in_len, size_t block_size,
                                              const uint8_t* custom, size_t custom_len,
                                              uint8_t* out, size_t out_len, unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhash128_parallel(message, block_size, customization,
                                                            output, threads);
                         });
}
sponge_status sponge_parallelhash256_parallel(const uint8_t* in, size_t in_len, size_t block_size,
                                              const uint8_t* custom, size_t custom_len,
                                              uint8_t* out, size_t out_len, unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhash256_parallel(message, block_size, customization,
                                                            output, threads);
                         });
}
sponge_status sponge_parallelhashxof128_parallel(const uint8_t* in, size_t in_len,
                                                 size_t block_size, const uint8_t* custom,
                                                 size_t custom_len, uint8_t* out, size_t out_len,
                                                 unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhashxof128_parallel(message, block_size, customization,
                                                               output, threads);
                         });
}
sponge_status sponge_parallelhashxof256_parallel(const uint8_t* in, size_t in_len,
                                                 size_t block_size, const uint8_t* custom,
                                                 size_t custom_len, uint8_t* out, size_t out_len,
                                                 unsigned threads) {
  return checked_call<2>({{{in, in_len}, {custom, custom_len}}}, block_size != 0, out, out_len,
                         [&](auto message, auto customization, auto output) {
                           sponge::parallelhashxof256_parallel(message, block_size, customization,
                                                               output, threads);
                         });
}

sponge_status sponge_ascon_hash256(const uint8_t* in, size_t in_len, uint8_t out[32]) {
  using Hash = std::array<std::uint8_t, 32> (*)(std::span<const std::uint8_t>) noexcept;
  return fixed_output<static_cast<Hash>(sponge::ascon_hash256)>(in, in_len, out);
}
sponge_status sponge_ascon_xof128(const uint8_t* in, size_t in_len, uint8_t* out, size_t out_len) {
  return extendable_output<static_cast<XofSpanFn>(sponge::ascon_xof128)>(in, in_len, out, out_len);
}
// The length was checked, so the C++ function cannot throw.
sponge_status sponge_ascon_cxof128(const uint8_t* custom, size_t custom_len, const uint8_t* in,
                                   size_t in_len, uint8_t* out, size_t out_len) {
  return checked_call<2>({{{custom, custom_len}, {in, in_len}}},
                         custom_len <= sponge::AsconCxof128::kMaxCustomizationBytes, out, out_len,
                         [](auto customization, auto message, auto output) {
                           sponge::ascon_cxof128(message, customization, output);
                         });
}

sponge_status sponge_ascon_aead128_encrypt(const uint8_t key[16], const uint8_t nonce[16],
                                           const uint8_t* ad, size_t ad_len, const uint8_t* pt,
                                           size_t pt_len, uint8_t* ct, uint8_t tag[16]) {
  if (key == nullptr || nonce == nullptr) return SPONGE_ERROR_NULL_INPUT;
  if ((ad == nullptr && ad_len != 0) || (pt == nullptr && pt_len != 0)) {
    return SPONGE_ERROR_NULL_INPUT;
  }
  if ((ct == nullptr && pt_len != 0) || tag == nullptr) return SPONGE_ERROR_NULL_OUTPUT;
  if (sponge::detail::partly_overlap(pt, ct, pt_len)) {
    std::fill_n(ct, pt_len, std::uint8_t{0});
    std::fill_n(tag, 16, std::uint8_t{0});
    return SPONGE_ERROR_OVERLAP;
  }
  // The lengths are equal and the texts do not partly overlap, so the C++ function cannot
  // throw.
  sponge::ascon_aead128_encrypt(sponge::AsconAead128Key(key, 16),
                                sponge::AsconAead128Nonce(nonce, 16), {ad, ad_len}, {pt, pt_len},
                                {ct, pt_len}, std::span<std::uint8_t, 16>(tag, 16));
  return SPONGE_OK;
}

sponge_status sponge_ascon_aead128_decrypt(const uint8_t key[16], const uint8_t nonce[16],
                                           const uint8_t* ad, size_t ad_len, const uint8_t* ct,
                                           size_t ct_len, const uint8_t tag[16], uint8_t* pt) {
  if (key == nullptr || nonce == nullptr || tag == nullptr) return SPONGE_ERROR_NULL_INPUT;
  if ((ad == nullptr && ad_len != 0) || (ct == nullptr && ct_len != 0)) {
    return SPONGE_ERROR_NULL_INPUT;
  }
  if (pt == nullptr && ct_len != 0) return SPONGE_ERROR_NULL_OUTPUT;
  if (sponge::detail::partly_overlap(ct, pt, ct_len)) {
    std::fill_n(pt, ct_len, std::uint8_t{0});
    return SPONGE_ERROR_OVERLAP;
  }
  // The tag is copied first: `pt` may then overlap it.
  std::array<std::uint8_t, 16> expected_tag;
  std::copy_n(tag, expected_tag.size(), expected_tag.begin());
  const bool authentic = sponge::ascon_aead128_decrypt(
      sponge::AsconAead128Key(key, 16), sponge::AsconAead128Nonce(nonce, 16), {ad, ad_len},
      {ct, ct_len}, expected_tag, {pt, ct_len});
  return authentic ? SPONGE_OK : SPONGE_ERROR_AUTHENTICATION;
}

const char* sponge_status_message(sponge_status status) {
  switch (status) {
    case SPONGE_OK:
      return "success";
    case SPONGE_ERROR_NULL_INPUT:
      return "input pointer is NULL but input length is not zero";
    case SPONGE_ERROR_NULL_OUTPUT:
      return "output pointer is NULL";
    case SPONGE_ERROR_INVALID_PARAMETER:
      return "parameter out of range (TurboSHAKE domain byte outside 0x01..0x7F, "
             "ParallelHash block size 0, or Ascon-CXOF128 customization over 256 bytes)";
    case SPONGE_ERROR_AUTHENTICATION:
      return "authentication failed: the tag does not match (plaintext output zeroed)";
    case SPONGE_ERROR_NULL_STATE:
      return "state pointer is NULL";
    case SPONGE_ERROR_MISUSE:
      return "state used out of order: not initialised, or absorb after squeeze";
    case SPONGE_ERROR_OVERLAP:
      return "Ascon-AEAD128 text output partly overlaps the text input (output zeroed)";
  }
  return "unknown sponge_status";
}

const char* sponge_active_kernel(void) {
  // Kernel names are string literals, so the view is NUL-terminated.
  return sponge::active_kernel().data();
}

const char* sponge_active_ascon_kernel(void) {
  return sponge::active_kernel(sponge::KernelFamily::ascon_p320).data();
}

const char* sponge_active_batch_kernel(void) {
  return sponge::active_kernel(sponge::KernelFamily::keccak_p1600_batch).data();
}

}  // extern "C"
