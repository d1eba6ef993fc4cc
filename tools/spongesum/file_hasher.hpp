// Reads a file, or standard input for "-", in large blocks and hashes it. One per thread:
// it owns the read buffer and one hasher per algorithm met.
#pragma once

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

  explicit FileHasher(Progress& progress);

  // Hashes the file into `out` (out.size() bytes: the algorithm's output). Returns 0, or
  // the errno of the open or read that failed.
  int hash(const std::string& name, const Algorithm& algorithm, std::span<std::uint8_t> out);

 private:
  StreamingHash& hash_for(const Algorithm& algorithm);
  int hash_descriptor(int descriptor, StreamingHash& hash);

  Progress& progress_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::vector<std::pair<const Algorithm*, std::unique_ptr<StreamingHash>>> hashes_;
};

}  // namespace spongesum
