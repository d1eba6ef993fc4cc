// A 20 kHz SIGALRM interrupts every entry of every runnable kernel for about a second. The
// handler runs on the same stack as the interrupted code (no sigaltstack) and fills a 4 KiB
// local buffer with junk, so it overwrites whatever lies below the interrupted rsp and the
// 128-byte red zone the kernel delivers signals past. A kernel that kept live data there
// (for example a 200-byte scratch state in the red zone instead of a real frame) would
// compute wrong results; every result must equal the portable one.
#include <doctest/doctest.h>
#include <signal.h>
#include <ucontext.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"
#include "signal_timer.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

std::atomic<std::uint64_t> g_signals{0};
std::atomic<std::uint64_t> g_signals_in_asm_kernel{0};
// The generated kernels' code under test, each [its first entry, its last entry): the first
// entry holds the shared rounds. Written before the timer starts, read by the handler.
struct CodeRange {
  std::uintptr_t begin = 0, end = 0;
};
constexpr std::size_t kMaxCodeRanges = 4;
CodeRange g_asm_ranges[kMaxCodeRanges];
std::size_t g_asm_range_count = 0;
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

bool in_generated_code(std::uintptr_t pc) {
  for (std::size_t i = 0; i < g_asm_range_count; ++i) {
    if (pc >= g_asm_ranges[i].begin && pc < g_asm_ranges[i].end) return true;
  }
  return false;
}

void add_code_range(const void* first_entry, const void* last_entry) {
  REQUIRE(g_asm_range_count < kMaxCodeRanges);
  g_asm_ranges[g_asm_range_count++] = {reinterpret_cast<std::uintptr_t>(first_entry),
                                       reinterpret_cast<std::uintptr_t>(last_entry)};
}

void dirty_the_stack(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  volatile std::uint8_t junk[4096];
  const std::uint64_t count = g_signals.fetch_add(1, std::memory_order_relaxed);
  for (std::size_t i = 0; i < sizeof junk; ++i) {
    junk[i] = static_cast<std::uint8_t>(0xA5 ^ (i * 131) ^ count);
  }
#if defined(__x86_64__) && defined(REG_RIP)
  const auto pc =
      static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  if (in_generated_code(pc)) g_signals_in_asm_kernel.fetch_add(1, std::memory_order_relaxed);
#elif defined(__aarch64__) && defined(__linux__)
  const auto pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
  if (in_generated_code(pc)) g_signals_in_asm_kernel.fetch_add(1, std::memory_order_relaxed);
#elif defined(__riscv) && defined(__linux__)
  const auto pc =
      static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.__gregs[REG_PC]);
  if (in_generated_code(pc)) g_signals_in_asm_kernel.fetch_add(1, std::memory_order_relaxed);
#else
  (void)context;
#endif
  errno = saved_errno;
}

}  // namespace

TEST_CASE("kernels interrupted by a 20 kHz signal that dirties the stack stay correct") {
  const auto kernels = runnable_kernels();
  std::vector<Entry> entries;
  g_asm_range_count = 0;
  for (const KeccakKernel* kernel : kernels) {
    for (const Entry& entry : entries_of(*kernel))
      entries.push_back(entry);
    if (kernel->name != "portable") {  // a generated kernel
      // The generator places the entries in entries_of's order: the first starts the code.
      add_code_range(entries_of(*kernel).front().address(), entries_of(*kernel).back().address());
    }
  }
  REQUIRE(!entries.empty());
  const ExpectedKernels expected_kernels = expected_runnable_kernels();
  REQUIRE_MESSAGE(!expected_kernels.source.empty(),
                  "cross build: set SPONGE_EXPECTED_RUNNABLE_KERNELS; scripts/test does");
  std::vector<std::string> tested;
  for (const KeccakKernel* kernel : kernels)
    tested.emplace_back(kernel->name);
  INFO("expected runnable kernels from " << expected_kernels.source);
  CHECK(join_names(missing_kernels(expected_kernels, tested)) == "");

  sponge_test::Rng rng(0x516'4a11'0000'0002ull);
  std::uint64_t calls = 0, wrong = 0;
  std::string first_wrong;
  std::array<std::uint64_t, 25> state{}, expected{};
  alignas(8) std::array<std::uint8_t, 168 + 8> block_buffer{};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = std::chrono::steady_clock::duration{};
  {
    AlarmTimer timer(dirty_the_stack, 50);  // 50 us: 20 kHz
    // About one second, longer only if the machine was too busy to deliver 2000 signals.
    while (elapsed < std::chrono::seconds(1) ||
           (g_signals.load() < 2000 && elapsed < kSamplingLimit)) {
      for (int batch = 0; batch < 64; ++batch) {
        const Entry& entry = entries[calls % entries.size()];
        for (auto& lane : state)
          lane = rng.next();
        for (std::size_t i = 0; i < block_buffer.size(); ++i)
          block_buffer[i] = static_cast<std::uint8_t>(rng.next());
        const std::uint8_t* block = block_buffer.data() + calls % 8;
        expected = state;
        reference_call(expected.data(), block, entry);
        entry.call(state.data(), block);
        if (state != expected) {
          if (wrong == 0) first_wrong = entry.name();
          ++wrong;
        }
        ++calls;
      }
      elapsed = std::chrono::steady_clock::now() - start;
    }
  }
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  MESSAGE(g_signals.load() << " SIGALRM handlers ran during " << calls << " kernel calls in " << ms
                           << " ms; " << g_signals_in_asm_kernel.load()
                           << " of them interrupted a generated kernel's code ("
                           << join_names(tested) << ")");
  INFO("first wrong result: " << first_wrong);
  CHECK(wrong == 0);
  CHECK(g_signals.load() >= 1000);
  if (g_asm_range_count != 0) CHECK(g_signals_in_asm_kernel.load() >= 1);
}

// The same for the multi-state (batch) kernels: amd64-avx2-x4 keeps an 800-byte scratch copy
// of its states below rsp, which must be a real frame, not the red zone; amd64-avx512-x8's
// block entries push three registers.
TEST_CASE("batch kernels interrupted by a 20 kHz signal that dirties the stack stay correct") {
  using sponge::detail::KeccakBatchKernel;
  std::vector<BatchEntry> entries;
  g_asm_range_count = 0;
  for (const KeccakBatchKernel* kernel : sponge::detail::compiled_batch_kernels()) {
    if (!kernel->cpu_supports() || kernel->states == 1) continue;
    const auto kernel_entries = batch_entries_of(*kernel);
    entries.insert(entries.end(), kernel_entries.begin(), kernel_entries.end());
    if (kernel->name.find("portable") == std::string_view::npos) {  // a generated kernel
      add_code_range(kernel_entries.front().address(), kernel_entries.back().address());
    }
  }
  REQUIRE(!entries.empty());  // portable-x4 runs everywhere
  g_signals = 0;
  g_signals_in_asm_kernel = 0;
  sponge_test::Rng rng(0x516'4a11'0000'0003ull);
  std::uint64_t calls = 0, wrong = 0;
  std::string first_wrong;
  std::vector<std::uint64_t> states, expected;
  constexpr std::size_t kMaxBlocks = 3;  // a block entry's count, 1 to kMaxBlocks
  alignas(8) std::uint8_t block_buffers[sponge::detail::kMaxBatchStates][kMaxBlocks * 168 + 8];
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = std::chrono::steady_clock::duration{};
  {
    AlarmTimer timer(dirty_the_stack, 50);
    while (elapsed < std::chrono::seconds(1) ||
           (g_signals.load() < 2000 && elapsed < kSamplingLimit)) {
      for (int batch = 0; batch < 16; ++batch) {
        const BatchEntry& entry = entries[calls % entries.size()];
        // Each entry's count changes from one round of the entries to the next.
        const std::size_t block_count = 1 + (calls / entries.size()) % kMaxBlocks;
        states.assign(static_cast<std::size_t>(25 * entry.kernel->states), 0);
        for (auto& lane : states)
          lane = rng.next();
        const std::uint8_t* blocks[sponge::detail::kMaxBatchStates];
        for (int s = 0; s < entry.kernel->states; ++s) {
          for (auto& byte : block_buffers[s])
            byte = static_cast<std::uint8_t>(rng.next());
          blocks[s] = block_buffers[s] + (calls + static_cast<std::uint64_t>(s)) % 8;
        }
        expected = states;
        batch_reference_call(expected.data(), blocks, entry, block_count);
        entry.call(states.data(), blocks, block_count);
        if (states != expected) {
          if (wrong == 0) first_wrong = entry.name();
          ++wrong;
        }
        ++calls;
      }
      elapsed = std::chrono::steady_clock::now() - start;
    }
  }
  MESSAGE(g_signals.load() << " SIGALRM handlers ran during " << calls << " batch kernel calls; "
                           << g_signals_in_asm_kernel.load()
                           << " of them interrupted a generated batch kernel's code");
  INFO("first wrong result: " << first_wrong);
  CHECK(wrong == 0);
  CHECK(g_signals.load() >= 1000);
  if (g_asm_range_count != 0) CHECK(g_signals_in_asm_kernel.load() >= 1);
}
