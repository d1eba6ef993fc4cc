#include "file_hasher.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>

namespace spongesum {
namespace {

// Standard input can be named more than once; one reader at a time, as GNU reads it
// (the second time it is at its end).
std::mutex standard_input_mutex;

}  // namespace

FileHasher::FileHasher(Progress& progress)
    : progress_(progress), buffer_(std::make_unique<std::uint8_t[]>(kBlockBytes)) {}

StreamingHash& FileHasher::hash_for(const Algorithm& algorithm) {
  for (auto& [known, hash] : hashes_) {
    if (known == &algorithm) return *hash;
  }
  return *hashes_.emplace_back(&algorithm, algorithm.make_hash()).second;
}

int FileHasher::hash_descriptor(int descriptor, StreamingHash& hash) {
  for (;;) {
    const ssize_t got = ::read(descriptor, buffer_.get(), kBlockBytes);
    if (got == 0) return 0;
    if (got < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    hash.update({buffer_.get(), static_cast<std::size_t>(got)});
    progress_.add_done(static_cast<std::uint64_t>(got));
  }
}

int FileHasher::hash(const std::string& name, const Algorithm& algorithm,
                     std::span<std::uint8_t> out) {
  StreamingHash& hash = hash_for(algorithm);
  int error = 0;
  if (name == "-") {
    std::lock_guard lock(standard_input_mutex);
    error = hash_descriptor(STDIN_FILENO, hash);
  } else {
    const int descriptor = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return errno;
    // The size only matters to the progress display; skip the system call without one.
    struct stat status;
    if (progress_.possible() && ::fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode)) {
      progress_.add_total(static_cast<std::uint64_t>(status.st_size));
    }
    error = hash_descriptor(descriptor, hash);
    ::close(descriptor);
  }
  // Also after an error: the hasher starts the next file from the empty message.
  hash.finish(out);
  return error;
}

}  // namespace spongesum
