// Reads a file, or standard input for "-", in large blocks and hashes it. One per thread: it
// owns the read buffers, a plain hasher per algorithm met and one that spreads over threads.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "progress.hpp"

namespace spongesum {

// Files are read with read(), never mapped: on the KVM guests this was measured on (AMD EPYC
// Zen 5, 2 vCPUs, page cache warm, spongesum_input_paths over 1 GiB), a mapping loses to the
// copy read() makes: SHA3-256 mapped in 64 MiB windows reached 70-77% of the in-memory speed
// (with MADV_SEQUENTIAL, MADV_WILLNEED or MAP_POPULATE) against 93-95% read in 256 KiB
// blocks; KT128 19-24% against 55-61%.
class FileHasher {
 public:
  // 256 KiB: large enough that the system call per block costs under 1% at the kernels'
  // speed, small enough to stay in L2 between the copy out of the page cache and hashing.
  static constexpr std::size_t kBlockBytes = 256 * 1024;

  // KT128 and KT256 hash about as fast as read() copies out of the page cache, so a file of
  // this size or more, when the files leave this hasher a second thread, is read on that
  // thread while this one hashes the previous block (KT128 of 1 GiB: 86-99% of the in-memory
  // speed, against 58-61% reading and hashing in turn and 75% hashing on both threads).
  static constexpr std::uint64_t kReadAheadMinimumBytes = std::uint64_t{1} << 20;
  // The reader hands over this much at a time: each handover may wake the other thread, and
  // fewer of them won (KT128 of 1 GiB, two threads, best of 7 in two runs each: 256 KiB
  // 0.197-0.198 s, 1 MiB 0.180-0.188, 2 MiB 0.181-0.183, 4 MiB 0.153-0.176, 8 MiB 0.174-0.187).
  static constexpr std::size_t kReadAheadBlockBytes = std::size_t{4} << 20;

  // With three threads or more for one file, the hashing side spreads over all but the
  // reader's (sponge::Kt128 with sponge::Threads), fed this much at a time: 1,024 KT128
  // chunks, several runs of them for each thread, so starting the threads costs a few
  // percent of hashing the block.
  static constexpr std::size_t kTreeBlockBytes = std::size_t{8} << 20;

  // `file_threads`: the threads one file may use (the -j threads the files leave idle).
  // Only the tree modes (KT128, KT256) use more than one.
  explicit FileHasher(Progress& progress, unsigned file_threads = 1);

  // Hashes the file into `out` (out.size() bytes: the algorithm's output). Returns 0, or
  // the errno of the open or read that failed.
  int hash(const std::string& name, const Algorithm& algorithm, std::span<std::uint8_t> out);

 private:
  // The algorithm's hasher spreading over `threads` threads (1: the plain one); the plain one
  // when the other cannot be made.
  StreamingHash& hash_for(const Algorithm& algorithm, unsigned threads);
  // The read buffer `index` (0 or 1), at least `bytes` long.
  std::uint8_t* buffer(int index, std::size_t bytes);
  // One read() of up to `block_bytes` (retried on EINTR), hashed: the bytes read, or -errno.
  ssize_t hash_next_block(int descriptor, StreamingHash& hash, std::size_t block_bytes);
  // Reads and hashes to the end of the file.
  int hash_descriptor(int descriptor, StreamingHash& hash, std::size_t block_bytes);
  // The same with a second thread reading block n+1 while this one hashes block n; reads and
  // hashes in turn when that thread or its buffers cannot be had.
  int hash_with_reader_thread(int descriptor, StreamingHash& hash, std::size_t block_bytes);
  // Hashes an open file or standard input into `hash`. With `read_ahead_block_bytes` not 0,
  // a file of kReadAheadMinimumBytes or more is read on a second thread, that much a read.
  int hash_opened_file(int descriptor, StreamingHash& hash, std::size_t read_ahead_block_bytes);

  struct FreeBuffer {
    void operator()(std::uint8_t* memory) const { std::free(memory); }
  };
  using Buffer = std::unique_ptr<std::uint8_t[], FreeBuffer>;
  static Buffer allocate_buffer(std::size_t bytes);

  Progress& progress_;
  unsigned file_threads_;
  Buffer buffers_[2];
  std::size_t buffer_bytes_[2] = {0, 0};
  std::vector<std::pair<const Algorithm*, std::unique_ptr<StreamingHash>>> plain_hashes_;
  // The hasher spreading over threads, made for the first tree algorithm that needs it
  // (file_threads_ is fixed, so one thread count is ever asked for).
  const Algorithm* threaded_algorithm_ = nullptr;
  std::unique_ptr<StreamingHash> threaded_hash_;
};

}  // namespace spongesum
