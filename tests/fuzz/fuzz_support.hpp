// What the libFuzzer targets share: the reader of a fuzz input, buffers whose end touches a
// PROT_NONE page, the mismatch report, and the kernel announcement at start-up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sponge_fuzz {

// Reads a fuzz input front to back. Bytes past its end read as zero, so every input is a
// whole program: the formats (see each target and make_corpus.py) never need a length check,
// and a mutation that cuts an input short still means something.
class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}
  bool empty() const noexcept { return position_ >= size_; }
  std::uint8_t byte() noexcept { return position_ < size_ ? data_[position_++] : 0; }
  // Little-endian.
  std::uint16_t u16() noexcept {
    const std::uint16_t low = byte();
    return static_cast<std::uint16_t>(low | byte() << 8);
  }
  // The next `out.size()` bytes (zeros past the end).
  void fill(std::span<std::uint8_t> out) noexcept {
    for (std::uint8_t& value : out)
      value = byte();
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

// A read-write mapping of `capacity` bytes followed by a PROT_NONE page: a read or write one
// byte past a span from ending_at_guard() faults, even in code ASan does not instrument (the
// assembly kernels). Lives for the whole process.
class GuardedRegion {
 public:
  explicit GuardedRegion(std::size_t capacity);
  GuardedRegion(const GuardedRegion&) = delete;
  GuardedRegion& operator=(const GuardedRegion&) = delete;

  // The last `length` bytes before the guard page (length <= capacity). Each call returns
  // the same memory: one live span per region at a time.
  std::span<std::uint8_t> ending_at_guard(std::size_t length) const;
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::uint8_t* guard_ = nullptr;  // first byte of the PROT_NONE page
  std::size_t capacity_ = 0;
};

// Where a target puts a buffer of `length` bytes, chosen by one input byte: odd -> ending at
// the guard page of `region`; even -> its own heap allocation of exactly offset + length
// bytes, at offset (byte / 2) % 16, so ASan's redzone is right behind the last byte and the
// start has every alignment.
class PlacedBuffer {
 public:
  PlacedBuffer(const GuardedRegion& region, std::uint8_t placement, std::size_t length);
  std::span<std::uint8_t> bytes() const noexcept { return bytes_; }

 private:
  std::vector<std::uint8_t> heap_;
  std::span<std::uint8_t> bytes_;
};

// When `actual` differs from `expected`: prints "<target>: <what>", the sizes, the first
// differing byte and both byte strings from just before it in hex to stderr, and aborts, so
// libFuzzer saves the input.
void require_equal(std::string_view what, std::span<const std::uint8_t> expected,
                   std::span<const std::uint8_t> actual);
// Prints "<target>: <what>" to stderr and aborts.
[[noreturn]] void fail(std::string_view what);

// Called from LLVMFuzzerInitialize: names the target for messages, and prints the kernel
// the dispatcher chose (SPONGE_KERNEL forces it; the dispatcher refuses a kernel this CPU
// lacks) so a log says what was fuzzed.
void start_target(std::string_view target_name);

}  // namespace sponge_fuzz
