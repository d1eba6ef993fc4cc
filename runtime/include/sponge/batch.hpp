// Batch hashing on the multi-state kernels: many messages of one function at once, and four
// SHAKE streams in lockstep (ML-KEM's and ML-DSA's matrix expansion). The batch functions throw
// std::invalid_argument when the digest count differs from the message count.
#pragma once

#include "sponge/export.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "sponge/keccak.hpp"

SPONGE_API_BEGIN
namespace sponge {

// ---------------------------------------------------------------------------------------
// Batch hashing: digests[i] = hash(messages[i]) for every i, messages of any and mixed
// lengths, on a multi-state kernel that permutes several states per call (active_kernel(
// KernelFamily::keccak_p1600_batch); SPONGE_BATCH_KERNEL forces one). Where this CPU runs no
// multi-state kernel, the messages are hashed one at a time on the active kernel. The digests
// equal the one-shot functions' on every kernel.
//
// digests.size() must equal messages.size(): otherwise std::invalid_argument is thrown and
// nothing is written. Messages may overlap each other. digests[i] may overlap messages[i]
// (in-place hashing: a message is read completely before its digest is written), but must
// not overlap any other message, which may still be read after digests[i] is written; the
// digests must not overlap each other. No allocation (an exception aside); every state and
// padded block the batch went through is wiped before return.
// ---------------------------------------------------------------------------------------
void keccak256_batch(std::span<const std::span<const std::uint8_t>> messages,
                     std::span<std::array<std::uint8_t, 32>> digests);
void sha3_224_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 28>> digests);
void sha3_256_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 32>> digests);
void sha3_384_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 48>> digests);
void sha3_512_batch(std::span<const std::span<const std::uint8_t>> messages,
                    std::span<std::array<std::uint8_t, 64>> digests);

// ---------------------------------------------------------------------------------------
// Four SHAKE streams at once: the shape of ML-KEM's and ML-DSA's matrix expansion (four
// seed || i || j inputs, then 168-byte blocks squeezed from each). Shake128x4 / Shake256x4
// hold four independent SHAKE states lane-interleaved for the batch kernel
// (active_kernel(KernelFamily::keccak_p1600_batch)); every output byte equals what four
// separate Shake128 / Shake256 objects give for the same calls.
//
// update(inputs) absorbs inputs[s] into stream s. Inputs of any, different lengths are
// correct; inputs of equal length (from equal positions) are the fast path: their blocks go
// through the batch kernel in lockstep, one call per block for a four-state kernel, two for
// a two-state one, four for `single`. A stream out of step with the others permutes alone,
// on the single-state kernel. Like Shake128, update() throws std::logic_error once
// squeeze() has been called, until reset(). squeeze(outputs) needs outputs of one length per
// call (std::invalid_argument otherwise, nothing written); any length, any number of calls.
// A whole-block squeeze costs one batch permutation of all four states. No allocation (an
// exception aside); the destructor and reset() wipe the states.
// ---------------------------------------------------------------------------------------
namespace detail {

struct KeccakBatchKernel;  // runtime/src/batch/batch_kernel.hpp: the dispatcher's view of a kernel

// Four Keccak sponges of one rate and domain byte on a batch kernel of N states, N dividing
// 4 (1, 2 or 4; a kernel of more states is replaced by the first one this CPU runs by default
// whose N divides 4, at least `single`): the states are laid out
// as 4 / N groups of N interleaved states, each group what one kernel call permutes (lane i
// of stream s at states_[25 * N * (s / N) + N * i + s % N]).
class KeccakSpongeX4 {
 public:
  static constexpr std::size_t kStreams = 4;

  KeccakSpongeX4(std::size_t rate_bytes, std::uint8_t domain_byte) noexcept;
  KeccakSpongeX4(const KeccakBatchKernel& kernel, std::size_t rate_bytes,
                 std::uint8_t domain_byte) noexcept;
  KeccakSpongeX4(const KeccakSpongeX4&) = default;
  KeccakSpongeX4& operator=(const KeccakSpongeX4&) = default;
  // Wipes the states and every field.
  ~KeccakSpongeX4();

  // Absorbs lengths[s] bytes at inputs[s] into stream s (inputs[s] may be null when
  // lengths[s] is 0). Throws std::logic_error once squeezing has begun.
  void absorb(const std::uint8_t* const* inputs, const std::size_t* lengths);
  void require_absorbing() const;
  // Pads on the first call, then writes `length` bytes of stream s to outputs[s].
  void squeeze(std::uint8_t* const* outputs, std::size_t length) noexcept;
  void reset() noexcept;
  bool squeezing() const noexcept { return squeezing_ != 0; }
  // The batch kernel the states are laid out for.
  const KeccakBatchKernel& kernel() const noexcept { return *kernel_; }

 private:
  std::size_t lane_index(std::size_t stream, std::size_t lane) const noexcept;
  void xor_into_stream(std::size_t stream, std::size_t offset, const std::uint8_t* data,
                       std::size_t length) noexcept;
  void copy_from_stream(std::size_t stream, std::size_t offset, std::uint8_t* out,
                        std::size_t length) const noexcept;
  void permute_all() noexcept;
  void absorb_blocks_all(const std::uint8_t* const* blocks) noexcept;
  void absorb_stream(std::size_t stream, const std::uint8_t* data, std::size_t length) noexcept;
  void absorb_blocks_stream(std::size_t stream, const std::uint8_t* blocks,
                            std::size_t block_count) noexcept;

  // No padding between or after the fields (shake_x4.cpp checks), so a destroyed object
  // leaves only zeros.
  alignas(32) std::uint64_t states_[25 * kStreams];
  const KeccakBatchKernel* kernel_;
  // Per stream: bytes of the current block absorbed, or read out (equal while squeezing).
  std::uint32_t position_[kStreams];
  std::uint16_t rate_bytes_;
  std::uint8_t domain_byte_;
  std::uint8_t squeezing_;
  std::uint32_t group_states_;  // N, the kernel's states
};

// Throws the std::invalid_argument of squeeze() with outputs of different lengths.
[[noreturn]] void throw_unequal_x4_outputs();

// Four SHAKE streams of rate `RateBytes` (168: SHAKE128, 136: SHAKE256).
template <std::size_t RateBytes>
class ShakeX4 {
 public:
  static constexpr std::size_t streams = KeccakSpongeX4::kStreams;
  static constexpr std::size_t rate_bytes = RateBytes;
  static constexpr std::uint8_t domain_byte = 0x1F;
  using Inputs = std::array<std::span<const std::uint8_t>, KeccakSpongeX4::kStreams>;
  using Outputs = std::array<std::span<std::uint8_t>, KeccakSpongeX4::kStreams>;

  // On the dispatcher's batch kernel.
  ShakeX4() noexcept : sponge_(RateBytes, domain_byte) {}
  // On a given compiled batch kernel (the tests and benchmarks run each one).
  explicit ShakeX4(const KeccakBatchKernel& kernel) noexcept
      : sponge_(kernel, RateBytes, domain_byte) {}

  // Absorbs inputs[s] into stream s, any lengths. Throws std::logic_error once squeeze()
  // has been called.
  ShakeX4& update(const Inputs& inputs) {
    const std::uint8_t* data[streams];
    std::size_t lengths[streams];
    for (std::size_t s = 0; s < streams; ++s) {
      data[s] = inputs[s].data();
      lengths[s] = inputs[s].size();
    }
    sponge_.absorb(data, lengths);
    return *this;
  }

  // Pads on the first call, then fills outputs[s] from stream s; successive calls continue
  // the streams. The outputs must be of one length: std::invalid_argument otherwise, and
  // nothing is written or squeezed.
  void squeeze(const Outputs& outputs) {
    std::uint8_t* data[streams];
    for (std::size_t s = 0; s < streams; ++s) {
      if (outputs[s].size() != outputs[0].size()) throw_unequal_x4_outputs();
      data[s] = outputs[s].data();
    }
    sponge_.squeeze(data, outputs[0].size());
  }

  // Back to four empty messages, absorbing.
  void reset() noexcept { sponge_.reset(); }

  bool squeezing() const noexcept { return sponge_.squeezing(); }
  const KeccakBatchKernel& kernel() const noexcept { return sponge_.kernel(); }

 private:
  KeccakSpongeX4 sponge_;
};

}  // namespace detail

using Shake128x4 = detail::ShakeX4<168>;
using Shake256x4 = detail::ShakeX4<136>;

}  // namespace sponge
SPONGE_API_END
