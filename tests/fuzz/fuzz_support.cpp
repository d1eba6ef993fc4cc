#include "fuzz_support.hpp"

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ascon/ascon_kernel.hpp"
#include "sponge/sponge.hpp"
#include "support/test_support.hpp"

namespace sponge_fuzz {
namespace {

std::string target = "sponge_fuzz";

std::size_t page_size() {
#if defined(_WIN32)
  SYSTEM_INFO system;
  GetSystemInfo(&system);
  return system.dwPageSize;
#else
  return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
#endif
}

}  // namespace

GuardedRegion::GuardedRegion(std::size_t capacity) {
  const std::size_t page = page_size();
  capacity_ = (capacity + page - 1) / page * page;
#if defined(_WIN32)
  void* mapping = VirtualAlloc(nullptr, capacity_ + page, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
  if (mapping == nullptr) fail("VirtualAlloc of a guarded region failed");
  guard_ = static_cast<std::uint8_t*>(mapping) + capacity_;
  DWORD previous = 0;
  if (!VirtualProtect(guard_, page, PAGE_NOACCESS, &previous)) {
    fail("VirtualProtect of the guard page failed");
  }
#else
  void* mapping =
      mmap(nullptr, capacity_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) fail("mmap of a guarded region failed");
  guard_ = static_cast<std::uint8_t*>(mapping) + capacity_;
  if (mprotect(guard_, page, PROT_NONE) != 0) fail("mprotect of the guard page failed");
#endif
}

std::span<std::uint8_t> GuardedRegion::ending_at_guard(std::size_t length) const {
  if (length > capacity_) fail("a buffer larger than its guarded region");
  return {guard_ - length, length};
}

PlacedBuffer::PlacedBuffer(const GuardedRegion& region, std::uint8_t placement,
                           std::size_t length) {
  if (placement % 2 != 0) {
    bytes_ = region.ending_at_guard(length);
  } else {
    const std::size_t offset = placement / 2 % 16;
    heap_.resize(offset + length);
    bytes_ = std::span<std::uint8_t>(heap_).subspan(offset);
  }
}

void require_equal(std::string_view what, std::span<const std::uint8_t> expected,
                   std::span<const std::uint8_t> actual) {
  const std::size_t common = std::min(expected.size(), actual.size());
  const std::size_t first_difference =
      std::mismatch(expected.begin(), expected.begin() + common, actual.begin()).first -
      expected.begin();
  if (first_difference == common && expected.size() == actual.size()) return;
  // Long buffers: the 64 bytes from a little before the first difference.
  const std::size_t from = first_difference < 16 ? 0 : first_difference - 16;
  const auto window = [&](std::span<const std::uint8_t> bytes) {
    return sponge_test::to_hex(
        bytes.subspan(std::min(from, bytes.size()))
            .first(std::min<std::size_t>(64, bytes.size() - std::min(from, bytes.size()))));
  };
  std::fprintf(stderr,
               "%s: %.*s differs (kernel %.*s): %zu and %zu bytes, first difference at byte "
               "%zu\n  expected [%zu..] %s\n  actual   [%zu..] %s\n",
               target.c_str(), static_cast<int>(what.size()), what.data(),
               static_cast<int>(sponge::active_kernel().size()), sponge::active_kernel().data(),
               expected.size(), actual.size(), first_difference, from, window(expected).c_str(),
               from, window(actual).c_str());
  std::abort();
}

void fail(std::string_view what) {
  std::fprintf(stderr, "%s: %.*s\n", target.c_str(), static_cast<int>(what.size()), what.data());
  std::abort();
}

void start_target(std::string_view target_name) {
  target = std::string(target_name);
  const std::string_view kernel = sponge::active_kernel();
  std::fprintf(stderr, "%s: active kernel %.*s\n", target.c_str(), static_cast<int>(kernel.size()),
               kernel.data());
}

const std::vector<const sponge::detail::AsconKernel*>& runnable_ascon_kernels() {
  static const std::vector<const sponge::detail::AsconKernel*> kernels = [] {
    std::vector<const sponge::detail::AsconKernel*> runnable;
    for (const sponge::detail::AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
      if (kernel->cpu_supports()) runnable.push_back(kernel);
    }
    return runnable;
  }();
  return kernels;
}

void start_ascon_target(std::string_view target_name) {
  start_target(target_name);
  std::string names;
  for (const sponge::detail::AsconKernel* kernel : runnable_ascon_kernels()) {
    names += names.empty() ? "" : ", ";
    names.append(kernel->name);
  }
  std::fprintf(stderr, "%s: Ascon kernels this CPU runs: %s\n", target.c_str(), names.c_str());
}

const sponge::detail::AsconKernel& portable_ascon_kernel() {
  for (const sponge::detail::AsconKernel* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (kernel->name == "portable") return *kernel;
  }
  fail("the Ascon kernel table has no \"portable\" kernel");
}

std::vector<std::size_t> piece_lengths(FuzzInput& input, std::size_t total, std::size_t max_piece) {
  std::vector<std::size_t> pieces;
  std::size_t remaining = total;
  while (remaining > 0) {
    const std::size_t piece =
        input.empty() ? remaining
                      : std::min<std::size_t>(input.byte() % (max_piece + 1), remaining);
    pieces.push_back(piece);
    remaining -= piece;
  }
  return pieces;
}

}  // namespace sponge_fuzz
