#include "progress.hpp"

#include <cstdio>
#include <string>

namespace spongesum {
namespace {

std::string format_bytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return text;
}

}  // namespace

Progress::Progress(bool stderr_is_terminal, bool requested)
    : possible_(stderr_is_terminal), active_(stderr_is_terminal && requested) {
  if (possible_) drawer_ = std::thread([this] { run(); });
}

Progress::~Progress() {
  if (!drawer_.joinable()) return;
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  drawer_.join();
  std::lock_guard lock(terminal_mutex_);
  erase_line();
}

void Progress::add_total(std::uint64_t bytes) {
  total_.fetch_add(bytes, std::memory_order_relaxed);
  if (bytes >= kLargeFileBytes) active_.store(true, std::memory_order_relaxed);
}

void Progress::run() {
  // The first line comes soon, so even a file of a fraction of a second shows one.
  auto period = std::chrono::milliseconds(100);
  std::unique_lock lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, period, [this] { return stopping_; })) {
    period = std::chrono::milliseconds(250);
    if (active_.load(std::memory_order_relaxed)) draw();
  }
}

void Progress::draw() {
  const double done = static_cast<double>(done_.load(std::memory_order_relaxed));
  const double total = static_cast<double>(total_.load(std::memory_order_relaxed));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? done / seconds : 0;
  std::string line = "spongesum: " + format_bytes(done);
  if (total >= done && total > 0) line += " of " + format_bytes(total);
  char figures[64];
  std::snprintf(figures, sizeof figures, ", %.0f MB/s", rate / 1e6);
  line += figures;
  if (total > done && rate > 0) {
    std::snprintf(figures, sizeof figures, ", %.0f s left", (total - done) / rate);
    line += figures;
  }
  std::lock_guard lock(terminal_mutex_);
  // Carriage return and erase-to-end-of-line: the line is redrawn in place.
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  line_shown_ = true;
}

void Progress::erase_line() {
  if (!line_shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  line_shown_ = false;
}

}  // namespace spongesum
