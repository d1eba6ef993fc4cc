// Reads a file, or standard input for "-", in large blocks (or maps it) and hashes it. One per
// thread: it owns the read buffer and one hasher per algorithm met.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "progress.hpp"

namespace spongesum {

class FileHasher {
 public:
  // 256 KiB: large enough that the system call per block costs under 1% at the kernels'
  // speed, small enough to stay in L2 between the copy out of the page cache and hashing.
  static constexpr std::size_t kBlockBytes = 256 * 1024;

  // Regular files from this size on are mapped instead of read: at the kernels' speed the
  // copy out of the page cache that read() makes costs about 15% of the hashing time
  // (measured on 256 MiB: 0.17 s of system time with read(), 0.04 s mapped, 0.9 s hashing).
  static constexpr std::uint64_t kMapMinimumBytes = std::uint64_t{1} << 20;
  // Mapped a window at a time, so a huge file takes a bounded part of the address space.
  static constexpr std::size_t kMapWindowBytes = std::size_t{64} << 20;

  // With `tree_threads` above 1, an algorithm that can (KT128, KT256) hashes each file on
  // that many threads, reading kTreeBlockBytes at a time and never mapping: a mapped window
  // that faults (SIGBUS) must fault on the thread that catches it.
  explicit FileHasher(Progress& progress, unsigned tree_threads = 1);

  // 8 MiB: 1,024 KT128 chunks, several runs of them for each thread, so starting the threads
  // costs a few percent of hashing the block.
  static constexpr std::size_t kTreeBlockBytes = std::size_t{8} << 20;

  // Hashes the file into `out` (out.size() bytes: the algorithm's output). Returns 0, or
  // the errno of the open or read that failed.
  int hash(const std::string& name, const Algorithm& algorithm, std::span<std::uint8_t> out);

 private:
  // The algorithm's hasher, and whether it spreads over threads.
  std::pair<StreamingHash*, bool> hash_for(const Algorithm& algorithm);
  // One read() of up to `block_bytes` (retried on EINTR), hashed: the bytes read, or -errno.
  ssize_t hash_next_block(int descriptor, StreamingHash& hash, std::size_t block_bytes);
  // Reads and hashes to the end of the file.
  int hash_descriptor(int descriptor, StreamingHash& hash, std::size_t block_bytes);
  // A file other than standard input; `threaded`: the hasher spreads over threads.
  int hash_regular_or_other(int descriptor, StreamingHash& hash, bool threaded);
  // Hashes bytes [start, size) of the file through mappings; leaves the offset at `size`.
  int hash_mapped(int descriptor, std::uint64_t start, std::uint64_t size, StreamingHash& hash);

  Progress& progress_;
  unsigned tree_threads_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::size_t buffer_bytes_;
  std::vector<std::pair<const Algorithm*, std::unique_ptr<StreamingHash>>> hashes_;
};

}  // namespace spongesum
