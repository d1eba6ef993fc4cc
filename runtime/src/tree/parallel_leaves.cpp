#include "tree/parallel_leaves.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>
#include <thread>

#include "batch/batch_kernel.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {
namespace {

// At most this many threads, however many the caller asks for.
constexpr unsigned kMaxThreads = 64;

// Hashes leaves [begin, end) into their places in `outputs`.
void hash_run(const KeccakSponge& fresh_leaf, std::size_t output_bytes, const std::uint8_t* leaves,
              std::size_t leaf_bytes, std::size_t begin, std::size_t end,
              std::uint8_t* outputs) noexcept {
  KeccakSponge leaf = fresh_leaf;
  std::uint8_t* out = outputs + begin * output_bytes;
  hash_whole_leaves(leaf, leaves + begin * leaf_bytes, leaf_bytes, end - begin, output_bytes,
                    [&out](std::span<const std::uint8_t> output) {
                      std::memcpy(out, output.data(), output.size());
                      out += output.size();
                    });
}

}  // namespace

unsigned parallel_thread_count(unsigned requested) noexcept {
  if (requested != 0) return requested;
  const unsigned cpus = std::thread::hardware_concurrency();
  return cpus == 0 ? 1 : cpus;
}

ParallelLeafOutputs::~ParallelLeafOutputs() {
  // The outputs are as secret as the message.
  if (bytes_) {
    std::memset(bytes_.get(), 0, size_);
    keep_stores(bytes_.get());
  }
  clear_caller_saved_registers();
}

bool ParallelLeafOutputs::compute(const KeccakSponge& fresh_leaf, std::size_t output_bytes,
                                  const std::uint8_t* leaves, std::size_t leaf_bytes,
                                  std::size_t leaf_count, unsigned threads) noexcept {
  const std::size_t most_useful = leaf_count / min_leaves_per_thread(leaf_bytes);
  const unsigned thread_count =
      static_cast<unsigned>(std::min<std::size_t>({threads, most_useful, kMaxThreads}));
  if (thread_count < 2) return false;
  if (bytes_) return false;  // one compute() an object
  bytes_.reset(new (std::nothrow) std::uint8_t[leaf_count * output_bytes]);
  if (!bytes_) return false;
  size_ = leaf_count * output_bytes;
  output_bytes_ = output_bytes;

  // Runs of whole groups of the widest multi-state kernel, so no run but the last has a
  // remainder to hash one state at a time.
  const std::size_t group = kMaxBatchStates;
  const std::size_t groups = (leaf_count + group - 1) / group;
  const std::size_t run_groups = (groups + thread_count - 1) / thread_count;
  const std::size_t run_leaves = run_groups * group;
  std::thread workers[kMaxThreads];
  bool started[kMaxThreads] = {};
  std::uint8_t* outputs = bytes_.get();
  // Run `run` is leaves [begin(run), begin(run + 1)); the last runs may be empty.
  const auto begin = [&](unsigned run) { return std::min(leaf_count, run * run_leaves); };
  unsigned used = 1;
  for (unsigned run = 1; run < thread_count && begin(run) < leaf_count; ++run) {
    try {
      workers[run] = std::thread(hash_run, std::cref(fresh_leaf), output_bytes, leaves, leaf_bytes,
                                 begin(run), begin(run + 1), outputs);
      started[run] = true;
      ++used;
    } catch (const std::system_error&) {
      // No thread: the caller's thread hashes this run below.
    } catch (const std::bad_alloc&) {
    }
  }
  hash_run(fresh_leaf, output_bytes, leaves, leaf_bytes, 0, begin(1), outputs);
  for (unsigned run = 1; run < thread_count && begin(run) < leaf_count; ++run) {
    if (started[run]) {
      workers[run].join();
    } else {
      hash_run(fresh_leaf, output_bytes, leaves, leaf_bytes, begin(run), begin(run + 1), outputs);
    }
  }
  threads_used_ = used;
  return true;
}

}  // namespace sponge::detail
