#include "file_hasher.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

namespace spongesum {
namespace {

// Standard input can be named more than once; one reader at a time, as GNU reads it
// (the second time it is at its end).
std::mutex standard_input_mutex;

// One read() of up to `bytes`, retried on EINTR: the bytes read, or -errno.
ssize_t read_some(int descriptor, std::uint8_t* buffer, std::size_t bytes) {
  ssize_t got;
  while ((got = ::read(descriptor, buffer, bytes)) < 0 && errno == EINTR) {
  }
  return got < 0 ? -errno : got;
}

}  // namespace

// Left unwritten (read() fills them), and from 2 MiB on asked for in transparent huge pages,
// which Linux gives on request by default (THP "madvise"): the first touch of a 4 KiB page
// costs about 10 us on the KVM guests measured (perf: faults and memset were two thirds of
// `spongesum -j 2 -a kt128` of a 1-byte file, 18 ms against 7 with -j 1, before), so two
// 4 MiB buffers in small pages would add 20 ms to every run.
FileHasher::Buffer FileHasher::allocate_buffer(std::size_t bytes) {
  constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
  void* memory = nullptr;
  if (bytes < kHugePageBytes) {
    memory = std::malloc(bytes);
  } else {
    bytes = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    memory = std::aligned_alloc(kHugePageBytes, bytes);
#ifdef MADV_HUGEPAGE
    if (memory) ::madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  }
  if (!memory) throw std::bad_alloc();
  return Buffer(static_cast<std::uint8_t*>(memory));
}

FileHasher::FileHasher(Progress& progress, unsigned file_threads)
    : progress_(progress), file_threads_(std::max(1u, file_threads)) {
  // Made here, on the thread that makes the workers, before they start and their stacks
  // take the address space (`ulimit -v`).
  buffer(0, kBlockBytes);
}

StreamingHash& FileHasher::hash_for(const Algorithm& algorithm, unsigned threads) {
  StreamingHash* plain = nullptr;
  for (auto& [known, hash] : plain_hashes_) {
    if (known == &algorithm) plain = hash.get();
  }
  if (!plain) plain = plain_hashes_.emplace_back(&algorithm, algorithm.make_hash()).second.get();
  if (threads <= 1) return *plain;
  if (threaded_hash_ && threaded_algorithm_ == &algorithm) return *threaded_hash_;
  try {
    threaded_hash_ = algorithm.make_threaded_hash(threads);
    threaded_algorithm_ = &algorithm;
    return *threaded_hash_;
  } catch (const std::bad_alloc&) {
    return *plain;  // the same digest on one thread
  }
}

std::uint8_t* FileHasher::buffer(int index, std::size_t bytes) {
  if (bytes > buffer_bytes_[index]) {
    buffers_[index] = allocate_buffer(bytes);
    buffer_bytes_[index] = bytes;
  }
  return buffers_[index].get();
}

ssize_t FileHasher::hash_next_block(int descriptor, StreamingHash& hash, std::size_t block_bytes) {
  std::uint8_t* block = buffer(0, block_bytes);
  const ssize_t got = read_some(descriptor, block, block_bytes);
  if (got <= 0) return got;
  hash.update({block, static_cast<std::size_t>(got)});
  progress_.add_done(static_cast<std::uint64_t>(got));
  return got;
}

int FileHasher::hash_descriptor(int descriptor, StreamingHash& hash, std::size_t block_bytes) {
  for (;;) {
    const ssize_t got = hash_next_block(descriptor, hash, block_bytes);
    if (got <= 0) return static_cast<int>(-got);
  }
}

int FileHasher::hash_with_reader_thread(int descriptor, StreamingHash& hash,
                                        std::size_t block_bytes) {
  // Two buffers handed back and forth: filled[i] is kEmpty while buffer i waits for the
  // reader, then what read_some returned for it (0 at the end, -errno on an error).
  constexpr ssize_t kEmpty = -1 - 0x7fff;
  std::uint8_t* blocks[2];
  try {
    blocks[0] = buffer(0, block_bytes);
    blocks[1] = buffer(1, block_bytes);
  } catch (const std::bad_alloc&) {
    return hash_descriptor(descriptor, hash, kBlockBytes);
  }
  ssize_t filled[2] = {kEmpty, kEmpty};
  bool stop = false;
  std::mutex mutex;
  std::condition_variable changed;
  const auto reader_loop = [&] {
    for (int next = 0;; next ^= 1) {
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || filled[next] == kEmpty; });
        if (stop) return;
      }
      const ssize_t got = read_some(descriptor, blocks[next], block_bytes);
      {
        std::lock_guard lock(mutex);
        filled[next] = got;
      }
      changed.notify_all();
      if (got <= 0) return;
    }
  };
  std::thread reader;
  try {
    reader = std::thread(reader_loop);
  } catch (const std::system_error&) {
    return hash_descriptor(descriptor, hash, kBlockBytes);
  }
  // The reader is stopped and joined however this function is left (hash.update may throw).
  struct StopReader {
    std::thread& reader;
    bool& stop;
    std::mutex& mutex;
    std::condition_variable& changed;
    ~StopReader() {
      {
        std::lock_guard lock(mutex);
        stop = true;
      }
      changed.notify_all();
      reader.join();
    }
  } stop_reader{reader, stop, mutex, changed};
  for (int next = 0;; next ^= 1) {
    ssize_t got;
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return filled[next] != kEmpty; });
      got = filled[next];
    }
    if (got <= 0) return static_cast<int>(-got);
    hash.update({blocks[next], static_cast<std::size_t>(got)});
    progress_.add_done(static_cast<std::uint64_t>(got));
    {
      std::lock_guard lock(mutex);
      filled[next] = kEmpty;
    }
    changed.notify_all();
  }
}

int FileHasher::hash_opened_file(int descriptor, StreamingHash& hash,
                                 std::size_t read_ahead_block_bytes) {
  // Most files of a large tree are small: their size is only asked for when the progress
  // display may need it, or once a whole first block was read. A file of 1 KiB costs open,
  // two reads and close.
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
  if (read_ahead_block_bytes == 0) return hash_descriptor(descriptor, hash, kBlockBytes);
  const ssize_t got = hash_next_block(descriptor, hash, kBlockBytes);
  if (got < 0) return static_cast<int>(-got);
  if (static_cast<std::size_t>(got) == kBlockBytes) {
    if (!progress_.possible()) known_size = regular_file_size();
    if (known_size >= kReadAheadMinimumBytes) {
      return hash_with_reader_thread(descriptor, hash, read_ahead_block_bytes);
    }
  }
  return hash_descriptor(descriptor, hash, kBlockBytes);
}

int FileHasher::hash(const std::string& name, const Algorithm& algorithm,
                     std::span<std::uint8_t> out) {
  // A tree mode with threads to spare gives one to a reader and the others to hashing.
  const bool reader_thread = file_threads_ > 1 && algorithm.make_threaded_hash != nullptr;
  const unsigned hashing_threads = reader_thread ? file_threads_ - 1 : 1;
  StreamingHash& hash = hash_for(algorithm, hashing_threads);
  const std::size_t read_ahead_block_bytes = !reader_thread        ? 0
                                             : hashing_threads > 1 ? kTreeBlockBytes
                                                                   : kReadAheadBlockBytes;
  int error = 0;
  if (name == "-") {
    std::lock_guard lock(standard_input_mutex);
    error = hash_opened_file(STDIN_FILENO, hash, read_ahead_block_bytes);
  } else {
    const int descriptor = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return errno;
    error = hash_opened_file(descriptor, hash, read_ahead_block_bytes);
    ::close(descriptor);
  }
  // Also after an error: the hasher starts the next file from the empty message.
  hash.finish(out);
  return error;
}

}  // namespace spongesum
