#include "file_hasher.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <mutex>

namespace spongesum {
namespace {

// Standard input can be named more than once; one reader at a time, as GNU reads it
// (the second time it is at its end).
std::mutex standard_input_mutex;

// A mapped file that shrinks while it is hashed raises SIGBUS at the first page past its new
// end. The thread hashing a mapped window points this at its jump buffer, and the handler
// turns the signal into a read error (EIO) for that file instead of ending the process.
thread_local sigjmp_buf* mapped_window_fault = nullptr;

void on_bus_error(int signal_number) {
  if (mapped_window_fault) siglongjmp(*mapped_window_fault, 1);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void install_bus_error_handler() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action = {};
    action.sa_handler = on_bus_error;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, nullptr);
  });
}

// Returns false when the window could not be read to its end (SIGBUS). Nothing here may
// need cleaning up after the jump: the hasher is reset by finish() anyway.
bool hash_window(const std::uint8_t* window, std::size_t length, StreamingHash& hash,
                 Progress& progress) {
  sigjmp_buf fault;
  if (sigsetjmp(fault, 1) != 0) {
    mapped_window_fault = nullptr;
    return false;
  }
  mapped_window_fault = &fault;
  for (std::size_t offset = 0; offset < length; offset += FileHasher::kBlockBytes) {
    const std::size_t block = std::min(FileHasher::kBlockBytes, length - offset);
    hash.update({window + offset, block});
    progress.add_done(block);
  }
  mapped_window_fault = nullptr;
  return true;
}

}  // namespace

FileHasher::FileHasher(Progress& progress, unsigned tree_threads)
    : progress_(progress),
      tree_threads_(tree_threads),
      buffer_(std::make_unique<std::uint8_t[]>(kBlockBytes)),
      buffer_bytes_(kBlockBytes) {}

std::pair<StreamingHash*, bool> FileHasher::hash_for(const Algorithm& algorithm) {
  const bool threaded = tree_threads_ > 1 && algorithm.make_threaded_hash != nullptr;
  for (auto& [known, hash] : hashes_) {
    if (known == &algorithm) return {hash.get(), threaded};
  }
  auto hash = threaded ? algorithm.make_threaded_hash(tree_threads_) : algorithm.make_hash();
  return {hashes_.emplace_back(&algorithm, std::move(hash)).second.get(), threaded};
}

ssize_t FileHasher::hash_next_block(int descriptor, StreamingHash& hash, std::size_t block_bytes) {
  if (block_bytes > buffer_bytes_) {
    buffer_ = std::make_unique<std::uint8_t[]>(block_bytes);
    buffer_bytes_ = block_bytes;
  }
  ssize_t got;
  while ((got = ::read(descriptor, buffer_.get(), block_bytes)) < 0 && errno == EINTR) {
  }
  if (got < 0) return -errno;
  hash.update({buffer_.get(), static_cast<std::size_t>(got)});
  progress_.add_done(static_cast<std::uint64_t>(got));
  return got;
}

int FileHasher::hash_descriptor(int descriptor, StreamingHash& hash, std::size_t block_bytes) {
  for (;;) {
    const ssize_t got = hash_next_block(descriptor, hash, block_bytes);
    if (got <= 0) return static_cast<int>(-got);
  }
}

int FileHasher::hash_mapped(int descriptor, std::uint64_t start, std::uint64_t size,
                            StreamingHash& hash) {
  install_bus_error_handler();
  for (std::uint64_t offset = start; offset < size; offset += kMapWindowBytes) {
    const std::size_t length =
        static_cast<std::size_t>(std::min<std::uint64_t>(kMapWindowBytes, size - offset));
    void* window =
        ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, descriptor, static_cast<off_t>(offset));
    if (window == MAP_FAILED) return errno;
    ::madvise(window, length, MADV_SEQUENTIAL);
    const bool complete =
        hash_window(static_cast<const std::uint8_t*>(window), length, hash, progress_);
    ::munmap(window, length);
    if (!complete) return EIO;
  }
  // Whatever was appended since fstat() is read as usual, as a reading tool would see it.
  if (::lseek(descriptor, static_cast<off_t>(size), SEEK_SET) < 0) return errno;
  return 0;
}

int FileHasher::hash_regular_or_other(int descriptor, StreamingHash& hash, bool threaded) {
  // Most files of a large tree are small: their size is only asked for when the progress
  // display may need it, and the first block is read before deciding to map. A file of 1 KiB
  // costs open, two reads and close.
  std::uint64_t known_size = 0;
  struct stat status;
  const auto regular_file_size = [&] {
    return ::fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode)
               ? static_cast<std::uint64_t>(status.st_size)
               : 0;
  };
  if (progress_.possible()) {
    known_size = regular_file_size();
    progress_.add_total(known_size);
  }
  if (threaded) return hash_descriptor(descriptor, hash, kTreeBlockBytes);
  const ssize_t got = hash_next_block(descriptor, hash, kBlockBytes);
  if (got < 0) return static_cast<int>(-got);
  if (static_cast<std::size_t>(got) < kBlockBytes) {
    return hash_descriptor(descriptor, hash, kBlockBytes);
  }
  if (!progress_.possible()) known_size = regular_file_size();
  if (known_size >= kMapMinimumBytes) {
    // The first block is hashed already; map from there (kBlockBytes is a page multiple).
    const int error = hash_mapped(descriptor, kBlockBytes, known_size, hash);
    if (error != 0) return error;
  }
  return hash_descriptor(descriptor, hash, kBlockBytes);
}

int FileHasher::hash(const std::string& name, const Algorithm& algorithm,
                     std::span<std::uint8_t> out) {
  const auto [hash_pointer, threaded] = hash_for(algorithm);
  StreamingHash& hash = *hash_pointer;
  int error = 0;
  if (name == "-") {
    std::lock_guard lock(standard_input_mutex);
    error = hash_descriptor(STDIN_FILENO, hash, threaded ? kTreeBlockBytes : kBlockBytes);
  } else {
    const int descriptor = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return errno;
    error = hash_regular_or_other(descriptor, hash, threaded);
    ::close(descriptor);
  }
  // Also after an error: the hasher starts the next file from the empty message.
  hash.finish(out);
  return error;
}

}  // namespace spongesum
