// Whole leaves of a tree mode (KangarooTwelve, ParallelHash) hashed on several threads: the
// leaves split into contiguous runs, one thread a run, each run hashed as the single-threaded
// path hashes it (hash_whole_leaves: groups on the multi-state kernel, a lone last leaf on
// the single-state one). The caller's thread takes the first run and hands its outputs to the
// parent node as they come, while the other threads hash theirs; it then joins them and
// hands over their outputs, in leaf order. The parent absorbs exactly what it absorbs
// single-threaded: the output is byte for byte the same for any thread count.
//
// Why the caller's outputs go straight to the parent: the parent is one sponge on one thread
// (32 bytes a KT128 leaf: absorbing the 2,047 chaining values of 16 MiB takes about 50 us on
// the single-state kernel), and a thread is slow to start: on an AMD EPYC Zen 5 VM (2 vCPUs)
// std::thread's constructor returns after 49 us and the thread runs 90 us after the call
// (medians of 200). The caller absorbs the first run's values in that time instead of
// after the join. KT128 of 16 MiB on two threads, 200 calls each, alternating builds: 1,013
// to 1,030 us at best and 1,032 to 1,058 us at the median, against 1,031 to 1,057 and 1,057
// to 1,191 us when every output went through the buffer (one thread: 1,954 to 2,009 us).
//
// What it allocates: the outputs of the runs after the first (output_bytes per leaf: 32 or 64
// bytes a leaf, 4 or 8 KiB per MiB of 8 KiB leaves), wiped before they are freed, and what
// std::thread allocates to start each thread. The plain tree functions never come here and
// allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <thread>

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

// The runs of whole leaves after the caller's, hashed on threads of their own; their outputs
// are owned and wiped here. One object serves one start().
class ParallelLeafRuns {
 public:
  ParallelLeafRuns() = default;
  ParallelLeafRuns(const ParallelLeafRuns&) = delete;
  ParallelLeafRuns& operator=(const ParallelLeafRuns&) = delete;
  // Joins any thread still running, then wipes the outputs.
  ~ParallelLeafRuns();

  // Splits `leaf_count` leaves of `leaf_bytes` each at `leaves` into up to `threads` runs and
  // starts a thread on every run but the first, each leaf hashed with a copy of `fresh_leaf`
  // (reset, nothing absorbed) and squeezed to `output_bytes`. Returns the length of the first
  // run, leaves [0, caller_leaves), which the caller hashes itself; or 0, having started
  // nothing, where fewer than two threads would run (threads < 2, fewer than
  // 2 * min_leaves_per_thread leaves) or the outputs' buffer cannot be allocated: the caller
  // then hashes every leaf itself. `fresh_leaf` and the leaves must stay as they are until
  // join() returns.
  std::size_t start(const KeccakSponge& fresh_leaf, std::size_t output_bytes,
                    const std::uint8_t* leaves, std::size_t leaf_bytes, std::size_t leaf_count,
                    unsigned threads) noexcept;

  // Waits for the threads. A run whose thread could not be started is hashed here, on the
  // caller's thread: fewer threads, never a different output.
  void join() noexcept;

  // Leaf `index`'s output (caller_leaves <= index < leaf_count), after join().
  std::span<const std::uint8_t> output(std::size_t index) const noexcept {
    return {bytes_.get() + (index - caller_leaves_) * output_bytes_, output_bytes_};
  }

  // How many threads the last start() ran on (the caller's included).
  unsigned threads_used() const noexcept { return threads_used_; }

 private:
  static constexpr unsigned kMaxThreads = 64;  // however many the caller asks for
  struct Run {
    std::size_t begin = 0, end = 0;
    bool started = false;
  };
  void hash_run(const Run& run) const noexcept;

  const KeccakSponge* fresh_leaf_ = nullptr;
  const std::uint8_t* leaves_ = nullptr;
  std::size_t leaf_bytes_ = 0;
  std::size_t output_bytes_ = 0;
  std::size_t caller_leaves_ = 0;
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
  Run runs_[kMaxThreads];
  std::thread threads_[kMaxThreads];
  unsigned run_count_ = 0;
  unsigned threads_used_ = 0;
  bool joined_ = true;
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
    ParallelLeafRuns runs;
    const std::size_t caller_leaves = runs.start(leaf, output_bytes, leaves, leaf_bytes, leaf_count,
                                                 parallel_thread_count(threads));
    if (caller_leaves != 0) {
      // The other threads copy `leaf` as they start, so the first run is hashed on a copy.
      KeccakSponge own_leaf = leaf;
      hash_whole_leaves(own_leaf, leaves, leaf_bytes, caller_leaves, output_bytes, absorb_output);
      runs.join();
      for (std::size_t i = caller_leaves; i < leaf_count; ++i)
        absorb_output(runs.output(i));
      return;
    }
  }
  hash_whole_leaves(leaf, leaves, leaf_bytes, leaf_count, output_bytes, absorb_output);
}

}  // namespace sponge::detail
