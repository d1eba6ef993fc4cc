// sponge_fuzz_kernels: every entry (permute, and absorb for each rate) of every kernel this
// CPU runs, called directly through the kernel table, against the portable permutation, on
// states and blocks from the fuzz input. The block may have any alignment or end at a
// PROT_NONE page (an absorb entry reads exactly one rate block); the state sits either in
// its own heap allocation (ASan's redzones on both sides) or right before a PROT_NONE page
// behind canary bytes. Checks the resulting state, that the block is unchanged and that no
// byte around the state was written. SPONGE_KERNEL plays no part: all kernels run on every
// input.
//
// Input (bytes past the end read as zero; make_corpus.py writes examples):
//   block placement (see PlacedBuffer), state placement (odd: at the guard page, even: on
//   the heap), chained calls (% 4 + 1), then 200 state bytes (lanes little-endian), then
//   168 block bytes (each absorb entry reads its rate's first bytes).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "kernel_test_support.hpp"

namespace {

using sponge_fuzz::FuzzInput;
using sponge_fuzz::require_equal;
using sponge_kernel_test::Entry;

constexpr std::size_t kStateBytes = 200;
constexpr std::size_t kMaxRate = 168;
constexpr std::size_t kCanaryBytes = 56;  // before a state at the guard page
constexpr std::uint8_t kCanary = 0xA5;

const sponge_fuzz::GuardedRegion& block_region() {
  static const sponge_fuzz::GuardedRegion region(kMaxRate);
  return region;
}
const sponge_fuzz::GuardedRegion& state_region() {
  static const sponge_fuzz::GuardedRegion region(kCanaryBytes + kStateBytes);
  return region;
}

const std::vector<Entry>& all_entries() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> all;
    for (const sponge::detail::KeccakKernel* kernel : sponge_kernel_test::runnable_kernels()) {
      const std::vector<Entry> of_kernel = sponge_kernel_test::entries_of(*kernel);
      all.insert(all.end(), of_kernel.begin(), of_kernel.end());
    }
    return all;
  }();
  return entries;
}

std::span<const std::uint8_t> bytes_of(const std::uint64_t* lanes) {
  return {reinterpret_cast<const std::uint8_t*>(lanes), kStateBytes};
}

void check_entry(const Entry& entry, const std::array<std::uint64_t, 25>& start,
                 std::span<const std::uint8_t> block_bytes, std::uint8_t block_placement,
                 bool state_at_guard, unsigned calls) {
  const std::size_t block_length = entry.rate;
  const sponge_fuzz::PlacedBuffer block(block_region(), block_placement, block_length);
  std::copy_n(block_bytes.begin(), block_length, block.bytes().begin());

  std::vector<std::uint64_t> heap_state;
  std::uint64_t* state = nullptr;
  std::span<std::uint8_t> canary;
  if (state_at_guard) {
    // The page end is aligned, so the state 200 bytes before it is 8-byte aligned.
    const std::span<std::uint8_t> region =
        state_region().ending_at_guard(kCanaryBytes + kStateBytes);
    canary = region.first(kCanaryBytes);
    std::fill(canary.begin(), canary.end(), kCanary);
    state = reinterpret_cast<std::uint64_t*>(region.data() + kCanaryBytes);
  } else {
    heap_state.resize(25);
    state = heap_state.data();
  }
  std::copy(start.begin(), start.end(), state);

  std::array<std::uint64_t, 25> expected = start;
  for (unsigned call = 0; call < calls; ++call) {
    entry.call(state, block.bytes().data());
    sponge_kernel_test::reference_call(expected.data(), block_bytes.data(), entry);
  }
  const std::string name = entry.name();
  require_equal(name + ": state after " + std::to_string(calls) + " call(s)",
                bytes_of(expected.data()), bytes_of(state));
  require_equal(name + ": the block after the call", block_bytes.first(block_length),
                block.bytes());
  for (const std::uint8_t value : canary) {
    if (value != kCanary) sponge_fuzz::fail(name + ": wrote below the state");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sponge_fuzz::start_target("sponge_fuzz_kernels");
  std::vector<std::string> names;
  for (const sponge::detail::KeccakKernel* kernel : sponge_kernel_test::runnable_kernels()) {
    names.emplace_back(kernel->name);
  }
  const sponge_kernel_test::ExpectedKernels expected =
      sponge_kernel_test::expected_runnable_kernels();
  const std::vector<std::string> missing = sponge_kernel_test::missing_kernels(expected, names);
  if (!missing.empty()) {
    sponge_fuzz::fail("expected kernels (" + expected.source +
                      ") this CPU does not run: " + sponge_kernel_test::join_names(missing));
  }
  std::fprintf(stderr, "sponge_fuzz_kernels: %zu entries of the kernels this CPU runs: %s\n",
               all_entries().size(), sponge_kernel_test::join_names(names).c_str());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input(data, size);
  const std::uint8_t block_placement = input.byte();
  const bool state_at_guard = input.byte() % 2 != 0;
  const unsigned calls = input.byte() % 4 + 1;
  std::array<std::uint8_t, kStateBytes> state_bytes{};
  input.fill(state_bytes);
  std::array<std::uint64_t, 25> start{};
  for (std::size_t i = 0; i < kStateBytes; ++i) {
    start[i / 8] |= std::uint64_t{state_bytes[i]} << (8 * (i % 8));
  }
  std::array<std::uint8_t, kMaxRate> block{};
  input.fill(block);
  for (const Entry& entry : all_entries()) {
    check_entry(entry, start, block, block_placement, state_at_guard, calls);
  }
  return 0;
}
