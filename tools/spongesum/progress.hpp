// The progress line on stderr: bytes done, throughput and time left, redrawn in place.
// Shown only when stderr is a terminal, never into a pipe or a file; there it is on with
// --progress, and by itself once a large file is being hashed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace spongesum {

class Progress {
 public:
  // A file at least this large turns the display on without --progress.
  static constexpr std::uint64_t kLargeFileBytes = std::uint64_t{256} << 20;

  Progress(bool stderr_is_terminal, bool requested);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Whether the display can ever be shown: readers only ask a file's size when it can.
  bool possible() const { return possible_; }
  void add_total(std::uint64_t bytes);
  void add_done(std::uint64_t bytes) { done_.fetch_add(bytes, std::memory_order_relaxed); }

  // Runs `print` (which writes result lines) with the progress line erased, so the two
  // never share a terminal line.
  template <class Print>
  void print_above(Print print) {
    std::lock_guard lock(terminal_mutex_);
    erase_line();
    print();
  }

 private:
  void run();
  void draw();
  void erase_line();

  const bool possible_;
  std::atomic<bool> active_;
  std::atomic<std::uint64_t> total_{0};
  std::atomic<std::uint64_t> done_{0};
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex terminal_mutex_;  // guards stderr/stdout writes and line_shown_
  bool line_shown_ = false;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread drawer_;
};

}  // namespace spongesum
