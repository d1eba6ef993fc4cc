// Hashes a buffer already in memory with one algorithm of spongesum's table, through the
// same StreamingHash and block size spongesum uses for files, and prints the throughput:
// the ceiling that spongesum's file reading is measured against (bench/spongesum.sh).
//   spongesum_memory_throughput [ALGORITHM] [MIB] [REPEATS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "file_hasher.hpp"

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : std::string(spongesum::kDefaultAlgorithm);
  const std::size_t mebibytes = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 256;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const spongesum::Algorithm* algorithm = spongesum::find_algorithm(name);
  if (!algorithm) {
    std::fprintf(stderr, "unknown algorithm %s\n", name.c_str());
    return 2;
  }
  std::vector<std::uint8_t> data(mebibytes << 20, 0x5a);
  std::vector<std::uint8_t> digest(algorithm->default_bits / 8);
  auto hash = algorithm->make_hash();
  double best_seconds = 1e30;
  for (int repeat = 0; repeat < repeats; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t offset = 0; offset < data.size();
         offset += spongesum::FileHasher::kBlockBytes) {
      const std::size_t size = std::min(spongesum::FileHasher::kBlockBytes, data.size() - offset);
      hash->update({data.data() + offset, size});
    }
    hash->finish(digest);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best_seconds = std::min(best_seconds, took.count());
  }
  std::printf("%s in memory: %zu MiB in %.3f s, %.1f MB/s (best of %d)\n", name.c_str(), mebibytes,
              best_seconds, static_cast<double>(data.size()) / best_seconds / 1e6, repeats);
  return 0;
}
