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

  explicit FileHasher(Progress& progress);

  // Hashes the file into `out` (out.size() bytes: the algorithm's output). Returns 0, or
  // the errno of the open or read that failed.
  int hash(const std::string& name, const Algorithm& algorithm, std::span<std::uint8_t> out);

 private:
  StreamingHash& hash_for(const Algorithm& algorithm);
  // One read() of up to a block (retried on EINTR), hashed: the bytes read, or -errno.
  ssize_t hash_next_block(int descriptor, StreamingHash& hash);
  // Reads and hashes to the end of the file.
  int hash_descriptor(int descriptor, StreamingHash& hash);
  int hash_regular_or_other(int descriptor, StreamingHash& hash);
  // Hashes bytes [start, size) of the file through mappings; leaves the offset at `size`.
  int hash_mapped(int descriptor, std::uint64_t start, std::uint64_t size, StreamingHash& hash);

  Progress& progress_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::vector<std::pair<const Algorithm*, std::unique_ptr<StreamingHash>>> hashes_;
};

}  // namespace spongesum
