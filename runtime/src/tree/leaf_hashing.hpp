// Leaf hashing of the tree modes (KangarooTwelve, ParallelHash), written once: a leaf is a
// sponge over one chunk of the input whose output the parent node absorbs.
//
// Whole leaves come in runs of equal length, so a multi-state ("batch") kernel hashes them N
// at a time in lockstep: the batch scheduler (batch_hash.hpp) on a batch of exactly N
// messages absorbs every full rate block of the N chunks with one kernel call per block,
// then the N final blocks padded with the leaf's domain byte, and squeezes each leaf's output
// from its state's column (an output fits in one rate block: 32 or 64 bytes against 136 or
// 168). The function is the leaf sponge's own (rate, domain byte, rounds), so the outputs are
// the single-state path's, byte for byte; they reach the parent in leaf order. The last
// leaf_count mod N leaves go through the same kernel with idle states when there are two or
// more, and a lone last leaf takes the single-state path. (KangarooTwelve puts the leaves
// left over first when chunk 0 comes in the same call, with chunk 0's whole blocks riding in
// the spare state: rfc9861.cpp.) Measured on Zen 5 (KT128, one thread): a group of
// 8,192-byte leaves costs amd64-avx512-x8 8.6 us whether 2 or 8 of its states hold a leaf,
// one such leaf on amd64-bmi2 7.0 us, and the four-state amd64-avx512-x4 10 us a group; so
// KT128 of 64 KiB (7 leaves after the first chunk) took 15.5 us, where leaf by leaf it took
// 54.1 us (XKCP 29.3 us in the same run).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "batch/batch_hash.hpp"
#include "batch/batch_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {

// The largest leaf output: KT256's chaining value, ParallelHash256's leaf output.
inline constexpr std::size_t kMaxLeafOutputBytes = 64;

// Squeezes the `output_bytes` (<= 64) of the finished `leaf` into `absorb_output`, then resets
// the leaf for the next chunk. The output is as secret as the message: the buffer that held
// it is zeroed.
template <typename AbsorbOutput>
void finish_leaf(KeccakSponge& leaf, std::size_t output_bytes,
                 AbsorbOutput&& absorb_output) noexcept {
  std::uint64_t output[kMaxLeafOutputBytes / 8];
  auto* bytes = reinterpret_cast<std::uint8_t*>(output);
  leaf.squeeze(bytes, output_bytes);
  absorb_output(std::span<const std::uint8_t>(bytes, output_bytes));
  wipe_words(output);
  leaf.reset();
}

// Hashes the `count` (2 .. kernel.states) leaves of `leaf_bytes` each at `leaves` with
// `function` on `kernel`, in lockstep (the scheduler gives idle states an active leaf's
// blocks), and writes leaf i's output at outputs + i * function.digest_bytes. With a
// `passenger` (count from 1 to kernel.states - 1), its blocks ride in a spare state.
// The scheduler wipes the interleaved states and the padded blocks.
inline void hash_leaf_group(const KeccakBatchKernel& kernel, const BatchHashFunction& function,
                            const std::uint8_t* leaves, std::size_t leaf_bytes, std::size_t count,
                            std::uint8_t* outputs,
                            const BatchPassenger* passenger = nullptr) noexcept {
  std::span<const std::uint8_t> group[kMaxBatchStates];
  for (std::size_t i = 0; i < count; ++i)
    group[i] = {leaves + i * leaf_bytes, leaf_bytes};
  hash_batch(kernel, function, BatchMessages(std::span(group, count)), outputs, passenger);
}

// Hashes `leaf_count` whole leaves of `leaf_bytes` each, from `leaves`, in order, on
// `kernel`: groups of up to kernel.states leaves in lockstep when it has more than one
// state, a lone last leaf (or every leaf, on a kernel of one state) with `leaf` (which
// must be fresh: reset, nothing absorbed; it is fresh again after). Whole leaves reach the
// tree modes here in runs: the one place a multi-state kernel hashes several at once.
// Nothing is allocated; the leaf outputs' buffer is wiped.
template <typename AbsorbOutput>
void hash_whole_leaves(const KeccakBatchKernel& kernel, KeccakSponge& leaf,
                       const std::uint8_t* leaves, std::size_t leaf_bytes, std::size_t leaf_count,
                       std::size_t output_bytes, AbsorbOutput&& absorb_output) noexcept {
  const std::size_t group = static_cast<std::size_t>(kernel.states);
  std::size_t done = 0;
  if (group > 1 && leaf_count > 1) {
    const BatchHashFunction function{leaf.rate_bytes(), leaf.domain_byte(), output_bytes,
                                     leaf.rounds()};
    std::uint64_t outputs[kMaxBatchStates * kMaxLeafOutputBytes / 8];
    auto* bytes = reinterpret_cast<std::uint8_t*>(outputs);
    while (leaf_count - done > 1) {
      const std::size_t count = std::min(group, leaf_count - done);
      hash_leaf_group(kernel, function, leaves + done * leaf_bytes, leaf_bytes, count, bytes);
      for (std::size_t i = 0; i < count; ++i)
        absorb_output(std::span<const std::uint8_t>(bytes + i * output_bytes, output_bytes));
      done += count;
    }
    wipe_words(outputs);
  }
  for (; done < leaf_count; ++done) {
    leaf.absorb(leaves + done * leaf_bytes, leaf_bytes);
    finish_leaf(leaf, output_bytes, absorb_output);
  }
}

// The same on the process's batch kernel (SPONGE_BATCH_KERNEL forces one).
template <typename AbsorbOutput>
void hash_whole_leaves(KeccakSponge& leaf, const std::uint8_t* leaves, std::size_t leaf_bytes,
                       std::size_t leaf_count, std::size_t output_bytes,
                       AbsorbOutput&& absorb_output) noexcept {
  hash_whole_leaves(active_batch_kernel(), leaf, leaves, leaf_bytes, leaf_count, output_bytes,
                    absorb_output);
}

}  // namespace sponge::detail
