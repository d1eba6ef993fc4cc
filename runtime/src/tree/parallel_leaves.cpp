#include "tree/parallel_leaves.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>
#include <thread>

#include "batch/batch_kernel.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {

unsigned parallel_thread_count(unsigned requested) noexcept {
  if (requested != 0) return requested;
  const unsigned cpus = std::thread::hardware_concurrency();
  return cpus == 0 ? 1 : cpus;
}

ParallelLeafRuns::~ParallelLeafRuns() {
  join();
  // The outputs are as secret as the message.
  if (bytes_) {
    std::memset(bytes_.get(), 0, size_);
    keep_stores(bytes_.get());
  }
  clear_caller_saved_registers();
}

void ParallelLeafRuns::hash_run(const Run& run) const noexcept {
  KeccakSponge leaf = *fresh_leaf_;
  std::uint8_t* out = bytes_.get() + (run.begin - caller_leaves_) * output_bytes_;
  hash_whole_leaves(leaf, leaves_ + run.begin * leaf_bytes_, leaf_bytes_, run.end - run.begin,
                    output_bytes_, [&out](std::span<const std::uint8_t> output) {
                      std::memcpy(out, output.data(), output.size());
                      out += output.size();
                    });
}

std::size_t ParallelLeafRuns::start(const KeccakSponge& fresh_leaf, std::size_t output_bytes,
                                    const std::uint8_t* leaves, std::size_t leaf_bytes,
                                    std::size_t leaf_count, unsigned threads) noexcept {
  if (bytes_ || !joined_) return 0;  // one start() an object
  const std::size_t most_useful = leaf_count / min_leaves_per_thread(leaf_bytes);
  const unsigned thread_count =
      static_cast<unsigned>(std::min<std::size_t>({threads, most_useful, kMaxThreads}));
  if (thread_count < 2) return 0;

  // Runs of whole groups of the widest multi-state kernel, so no run but the last has a
  // remainder to hash with idle states or one state at a time.
  const std::size_t group = kMaxBatchStates;
  const std::size_t groups = (leaf_count + group - 1) / group;
  const std::size_t run_leaves = (groups + thread_count - 1) / thread_count * group;
  const std::size_t caller_leaves = std::min(leaf_count, run_leaves);
  if (caller_leaves == leaf_count) return 0;
  bytes_.reset(new (std::nothrow) std::uint8_t[(leaf_count - caller_leaves) * output_bytes]);
  if (!bytes_) return 0;
  size_ = (leaf_count - caller_leaves) * output_bytes;
  fresh_leaf_ = &fresh_leaf;
  leaves_ = leaves;
  leaf_bytes_ = leaf_bytes;
  output_bytes_ = output_bytes;
  caller_leaves_ = caller_leaves;
  joined_ = false;

  unsigned used = 1;
  for (std::size_t begin = caller_leaves; begin < leaf_count; begin += run_leaves) {
    Run& run = runs_[run_count_++];
    run.begin = begin;
    run.end = std::min(leaf_count, begin + run_leaves);
    try {
      threads_[run_count_ - 1] = std::thread(&ParallelLeafRuns::hash_run, this, std::cref(run));
      run.started = true;
      ++used;
    } catch (const std::system_error&) {
      // No thread: join() hashes this run on the caller's thread.
    } catch (const std::bad_alloc&) {
    }
  }
  threads_used_ = used;
  return caller_leaves;
}

void ParallelLeafRuns::join() noexcept {
  if (joined_) return;
  for (unsigned i = 0; i < run_count_; ++i) {
    if (runs_[i].started) {
      threads_[i].join();
    } else {
      hash_run(runs_[i]);
    }
  }
  joined_ = true;
}

}  // namespace sponge::detail
