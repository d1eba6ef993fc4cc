// Whole leaves of a tree mode (KangarooTwelve, ParallelHash) hashed on several threads: the
// leaves split into contiguous runs, one thread a run (the caller's among them), each run
// hashed as the single-threaded path hashes it (hash_whole_leaves: groups on the multi-state
// kernel, the rest one state at a time), and the outputs handed back in leaf order, so the
// parent node absorbs exactly what it absorbs single-threaded: the output is byte for byte the
// same for any thread count.
//
// What it allocates: the leaf outputs (output_bytes per leaf: 32 or 64 bytes a leaf, 4 or 8
// KiB per MiB of 8 KiB leaves), wiped before they are freed, and what std::thread allocates to
// start each thread. The plain tree functions never come here and allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "sponge/sponge.hpp"
#include "tree/leaf_hashing.hpp"

namespace sponge::detail {

// The threads a parallel tree function uses for the caller's `requested` count: 0 means one
// per CPU the OS reports (one where it reports none).
unsigned parallel_thread_count(unsigned requested) noexcept;

// The least input one thread is given: starting and joining a thread cost 40-60 us on an AMD
// EPYC Zen 5 VM (2 vCPUs), where KT128 hashes 1 MiB in about 170 us on the eight-state kernel;
// with 1 MiB a thread, two threads were 0.70-1.01x one thread at 1 MiB + 72 KiB, 0.92-1.25x at
// 2 MiB, 1.22-1.28x at 4 MiB and 1.51-1.65x at 16 MiB (best of 101 runs each, two runs).
inline constexpr std::size_t kMinBytesPerThread = std::size_t{1} << 20;

// The fewest whole leaves of `leaf_bytes` one thread is given (whole groups of 8 at least).
constexpr std::size_t min_leaves_per_thread(std::size_t leaf_bytes) noexcept {
  const std::size_t leaves = (kMinBytesPerThread + leaf_bytes - 1) / leaf_bytes;
  return leaves < 8 ? 8 : leaves;
}

// The outputs of a run of whole leaves, computed on several threads, owned and wiped here.
// One object serves one compute().
class ParallelLeafOutputs {
 public:
  ParallelLeafOutputs() = default;
  ParallelLeafOutputs(const ParallelLeafOutputs&) = delete;
  ParallelLeafOutputs& operator=(const ParallelLeafOutputs&) = delete;
  ~ParallelLeafOutputs();

  // Hashes `leaf_count` leaves of `leaf_bytes` each at `leaves`, each with a copy of
  // `fresh_leaf` (reset, nothing absorbed) squeezed to `output_bytes`, on up to `threads`
  // threads. Returns false, having hashed nothing, where fewer than two threads would run
  // (threads < 2, fewer than 2 * min_leaves_per_thread leaves) or the outputs' buffer cannot be
  // allocated: the caller then hashes the leaves itself. A thread that cannot be started
  // leaves its run to the caller's thread: fewer threads, never a different output.
  bool compute(const KeccakSponge& fresh_leaf, std::size_t output_bytes, const std::uint8_t* leaves,
               std::size_t leaf_bytes, std::size_t leaf_count, unsigned threads) noexcept;

  // Leaf `index`'s output, after compute() returned true.
  std::span<const std::uint8_t> output(std::size_t index) const noexcept {
    return {bytes_.get() + index * output_bytes_, output_bytes_};
  }

  // How many threads the last compute() ran on (the caller's included).
  unsigned threads_used() const noexcept { return threads_used_; }

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
  std::size_t output_bytes_ = 0;
  unsigned threads_used_ = 0;
};

// hash_whole_leaves (the same leaves, the same outputs to `absorb_output` in leaf order) on up
// to `threads` threads (0: one per CPU). With 1, or where fewer than two threads would run or
// the outputs cannot be allocated, the caller's thread hashes them all, allocating nothing.
template <typename AbsorbOutput>
void hash_whole_leaves_on_threads(KeccakSponge& leaf, const std::uint8_t* leaves,
                                  std::size_t leaf_bytes, std::size_t leaf_count,
                                  std::size_t output_bytes, unsigned threads,
                                  AbsorbOutput&& absorb_output) noexcept {
  if (threads != 1) {
    ParallelLeafOutputs outputs;
    if (outputs.compute(leaf, output_bytes, leaves, leaf_bytes, leaf_count,
                        parallel_thread_count(threads))) {
      for (std::size_t i = 0; i < leaf_count; ++i)
        absorb_output(outputs.output(i));
      return;
    }
  }
  hash_whole_leaves(leaf, leaves, leaf_bytes, leaf_count, output_bytes, absorb_output);
}

}  // namespace sponge::detail
