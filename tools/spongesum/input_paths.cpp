// Hashes one file through each way spongesum could get its bytes, with the hasher and block
// size spongesum uses, and prints the best time of each beside the library's in-memory speed
// on the same bytes: the measurement behind FileHasher's input path (bench/spongesum.sh).
//   spongesum_input_paths FILE [ALGORITHM] [REPEATS]
// FileHasher itself is timed with one, two and three threads for the file (what -j leaves
// it); the mappings it does not use are timed here. Every path must give the in-memory
// digest; a path that does not is reported and the program fails.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "file_hasher.hpp"
#include "progress.hpp"

namespace {

constexpr std::size_t kBlock = spongesum::FileHasher::kBlockBytes;
constexpr std::size_t kWindow = std::size_t{64} << 20;

[[noreturn]] void fail(const char* what) {
  std::perror(what);
  std::exit(1);
}

void hash_span(const std::uint8_t* data, std::size_t size, spongesum::StreamingHash& hash) {
  for (std::size_t offset = 0; offset < size; offset += kBlock) {
    hash.update({data + offset, std::min(kBlock, size - offset)});
  }
}

// Windows of kWindow bytes; `flags` joins MAP_PRIVATE, each of `advice` goes to madvise.
void map_windows(int descriptor, std::size_t size, int flags, std::initializer_list<int> advice,
                 spongesum::StreamingHash& hash) {
  for (std::size_t offset = 0; offset < size; offset += kWindow) {
    const std::size_t length = std::min(kWindow, size - offset);
    void* window = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | flags, descriptor,
                          static_cast<off_t>(offset));
    if (window == MAP_FAILED) fail("mmap");
    for (const int each : advice)
      ::madvise(window, length, each);
    hash_span(static_cast<const std::uint8_t*>(window), length, hash);
    ::munmap(window, length);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [ALGORITHM] [REPEATS]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const std::string name = argc > 2 ? argv[2] : std::string(spongesum::kDefaultAlgorithm);
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const spongesum::Algorithm* algorithm = spongesum::find_algorithm(name);
  if (!algorithm) {
    std::fprintf(stderr, "unknown algorithm %s\n", name.c_str());
    return 2;
  }
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) fail(path.c_str());
  struct stat status;
  if (::fstat(descriptor, &status) != 0) fail("fstat");
  const auto size = static_cast<std::size_t>(status.st_size);
  std::vector<std::uint8_t> in_memory(size);
  if (::pread(descriptor, in_memory.data(), size, 0) != static_cast<ssize_t>(size)) fail("pread");

  auto hash = algorithm->make_hash();
  std::vector<std::uint8_t> expected(algorithm->default_bits / 8), digest(expected.size());
  spongesum::Progress progress(false, false);
  spongesum::FileHasher file_hashers[3] = {spongesum::FileHasher(progress, 1),
                                           spongesum::FileHasher(progress, 2),
                                           spongesum::FileHasher(progress, 3)};
  const auto through_file_hasher = [&](int threads) {
    return [&, threads] {
      if (file_hashers[threads - 1].hash(path, *algorithm, digest) != 0) fail(path.c_str());
    };
  };
  // Each path leaves its digest in `digest` (the mappings through `hash`, finished here).
  const auto mapped = [&](int flags, std::initializer_list<int> advice) {
    return [&, flags, advice] {
      map_windows(descriptor, size, flags, advice, *hash);
      hash->finish(digest);
    };
  };
  struct Path {
    const char* name;
    std::function<void()> run;
  };
  std::vector<Path> paths = {
      {"FileHasher, 1 thread (-j 1)", through_file_hasher(1)},
      {"mmap, MADV_SEQUENTIAL", mapped(0, {MADV_SEQUENTIAL})},
      {"mmap, MADV_SEQUENTIAL + MADV_WILLNEED", mapped(0, {MADV_SEQUENTIAL, MADV_WILLNEED})},
      {"mmap, MAP_POPULATE", mapped(MAP_POPULATE, {})},
  };
  if (algorithm->make_threaded_hash) {
    paths.push_back({"FileHasher, 2 threads (reader + hash)", through_file_hasher(2)});
    paths.push_back({"FileHasher, 3 threads (reader + 2 hash)", through_file_hasher(3)});
  }
  const auto best_of = [&](const std::function<void()>& run) {
    double best = 1e30;
    for (int repeat = 0; repeat < repeats; ++repeat) {
      const auto start = std::chrono::steady_clock::now();
      run();
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best = std::min(best, took.count());
    }
    return best;
  };
  const double ceiling = best_of([&] {
    hash_span(in_memory.data(), size, *hash);
    hash->finish(expected);
  });
  const auto print = [&](const char* path_name, double seconds) {
    std::printf("%-40s %8.3f s %9.1f MB/s %6.1f%% of in memory\n", path_name, seconds,
                static_cast<double>(size) / seconds / 1e6, 100.0 * ceiling / seconds);
  };
  std::printf("%s, %zu bytes, best of %d\n", name.c_str(), size, repeats);
  print("in memory (the ceiling)", ceiling);
  bool all_equal = true;
  for (const Path& each : paths) {
    bool equal = true;
    print(each.name, best_of([&] {
            each.run();
            equal = equal && digest == expected;
          }));
    if (!equal) {
      std::fprintf(stderr, "%s gave a digest other than the in-memory one\n", each.name);
      all_equal = false;
    }
  }
  return all_equal ? 0 : 1;
}
