// What the libFuzzer targets share: the reader of a fuzz input, buffers whose end touches a
// PROT_NONE page, the mismatch report, the kernel announcement at start-up, and for the Ascon
// targets the Ascon kernels to run and the split of a buffer into streaming pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace sponge::detail {
struct AsconKernel;
}

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

// The compiled Ascon kernels this CPU runs, in table order (portable last). The Ascon
// targets run every one on each input, so SPONGE_ASCON_KERNEL plays no part in them.
const std::vector<const sponge::detail::AsconKernel*>& runnable_ascon_kernels();
// start_target for an Ascon target, which also prints the Ascon kernels it runs on each input
// ("<target>: Ascon kernels this CPU runs: a, b"; scripts/fuzz reads that line).
void start_ascon_target(std::string_view target_name);
// The kernel named "portable": what every other Ascon kernel is compared with.
const sponge::detail::AsconKernel& portable_ascon_kernel();

// The lengths of the streaming pieces `total` bytes are cut into: one input byte per piece,
// `byte % (max_piece + 1)` bytes long (0 is an empty call, which must change nothing). Once
// the input is used up, the rest is one piece, so every input ends the split.
std::vector<std::size_t> piece_lengths(FuzzInput& input, std::size_t total, std::size_t max_piece);

}  // namespace sponge_fuzz
