// The batch scheduler: any number of messages of any, mixed lengths hashed with an N-state
// kernel (batch_kernel.hpp), one fixed-output sponge function for all of them. Used by the
// C++ and C batch functions, and by the tests on every compiled batch kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "batch/batch_kernel.hpp"

namespace sponge::detail {

// One fixed-output sponge function: its digest fits in one rate block, so one squeeze.
struct BatchHashFunction {
  std::size_t rate_bytes;
  std::uint8_t domain_byte;
  std::size_t digest_bytes;  // <= rate_bytes
  int rounds;                // 24, or 12 for Keccak-p[1600, 12]
};

// The messages of a batch: the C++ API's spans, or the C API's pointers and lengths (already
// checked: a NULL pointer only with length 0).
class BatchMessages {
 public:
  explicit BatchMessages(std::span<const std::span<const std::uint8_t>> spans) noexcept
      : spans_(spans.data()), count_(spans.size()) {}
  BatchMessages(const std::uint8_t* const* pointers, const std::size_t* lengths,
                std::size_t count) noexcept
      : pointers_(pointers), lengths_(lengths), count_(count) {}

  std::size_t size() const noexcept { return count_; }
  std::span<const std::uint8_t> operator[](std::size_t i) const noexcept {
    if (spans_ != nullptr) return spans_[i];
    return {pointers_[i], lengths_[i]};
  }

 private:
  const std::span<const std::uint8_t>* spans_ = nullptr;
  const std::uint8_t* const* pointers_ = nullptr;
  const std::size_t* lengths_ = nullptr;
  std::size_t count_;
};

// A sponge that rides in a state the messages leave idle: `block_count` (> 0) full rate
// blocks from `blocks` are absorbed into `lanes` (no padding, no digest), in lockstep with
// the messages. KangarooTwelve's final node absorbs its first chunk this way beside the
// first group of leaves, where it would otherwise take a single-state permutation a block.
struct BatchPassenger {
  std::uint64_t* lanes;  // 25 lanes, read at the start and written at the end
  const std::uint8_t* blocks;
  std::size_t block_count;
};

// Writes the digest of messages[i] to digests + i * function.digest_bytes, for every i, on
// `kernel`; the single-state steps (a kernel of one state, the last message in flight) run
// on the active single-state kernel. Message i is read completely before digest i is
// written; messages after it may be read after it is written (see sponge.hpp). Every state
// copy, the interleaved states and the padded blocks are wiped before returning; nothing is
// allocated.
// With a `passenger`, its blocks are absorbed too, in a state no message holds (on the
// single-state kernel where the kernel has one state, or every state holds a message).
void hash_batch(const KeccakBatchKernel& kernel, const BatchHashFunction& function,
                const BatchMessages& messages, std::uint8_t* digests,
                const BatchPassenger* passenger = nullptr) noexcept;

}  // namespace sponge::detail
