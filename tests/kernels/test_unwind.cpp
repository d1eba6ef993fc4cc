// The CFI of the generated amd64 kernel, proved by unwinding out of it: a 20 kHz SIGALRM
// samples a loop of kernel calls; whenever the interrupted PC lies inside the kernel's code,
// the handler walks the stack with _Unwind_Backtrace (the DWARF unwinder that C++
// exceptions, debuggers and profilers rely on). Every such walk must pass through the
// kernel's own frame (whose FDE starts at a kernel entry) and reach the test's looping
// function, which it can only do if the kernel's CFA and return-address rules are right at
// that instruction.
#include <doctest/doctest.h>
#include <signal.h>
#include <ucontext.h>
#include <unwind.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kernel_test_support.hpp"
#include "signal_timer.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

constexpr std::size_t kMaxFrames = 64;

// Filled before the timer starts, read by the handler.
std::uintptr_t g_code_begin = 0, g_code_end = 0;  // [permute entry, absorb168 entry)
std::array<std::uintptr_t, 1 + sponge::detail::kRateCount> g_entry_addresses{};
std::uintptr_t g_marker = 0;  // the looping function below

std::atomic<std::uint64_t> g_samples{0};
std::atomic<std::uint64_t> g_in_kernel{0};
std::atomic<std::uint64_t> g_reached_marker{0};
std::atomic<std::uint64_t> g_kernel_frame_ok{0};
// The first failing walk, for the report (written by the handler once, read afterwards).
std::atomic<bool> g_have_failure{false};
std::array<std::uintptr_t, kMaxFrames> g_failure_ips{};
std::array<std::uintptr_t, kMaxFrames> g_failure_regions{};
std::size_t g_failure_frames = 0;
std::uintptr_t g_failure_pc = 0;

struct Walk {
  std::uintptr_t interrupted_pc = 0;
  std::size_t frames = 0;
  std::array<std::uintptr_t, kMaxFrames> ips{};
  std::array<std::uintptr_t, kMaxFrames> regions{};
  bool kernel_frame_ok = false;
  bool reached_marker = false;
};

bool is_entry(std::uintptr_t address) {
  for (const std::uintptr_t entry : g_entry_addresses) {
    if (entry == address) return true;
  }
  return false;
}

_Unwind_Reason_Code record_frame(struct _Unwind_Context* context, void* argument) {
  auto& walk = *static_cast<Walk*>(argument);
  int before_instruction = 0;
  const auto ip = static_cast<std::uintptr_t>(_Unwind_GetIPInfo(context, &before_instruction));
  const auto region = static_cast<std::uintptr_t>(_Unwind_GetRegionStart(context));
  walk.ips[walk.frames] = ip;
  walk.regions[walk.frames] = region;
  ++walk.frames;
  // The frame of the signal's own PC: the unwinder found the kernel's FDE for it.
  if (ip == walk.interrupted_pc && before_instruction != 0 && is_entry(region)) {
    walk.kernel_frame_ok = true;
  }
  if (region == g_marker) {
    walk.reached_marker = true;
    return _URC_END_OF_STACK;  // far enough
  }
  return walk.frames == kMaxFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

void sample(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  g_samples.fetch_add(1, std::memory_order_relaxed);
  const auto pc =
      static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  // Only walk when the kernel was interrupted: it holds no lock the unwinder could need.
  if (pc >= g_code_begin && pc < g_code_end) {
    g_in_kernel.fetch_add(1, std::memory_order_relaxed);
    Walk walk;
    walk.interrupted_pc = pc;
    _Unwind_Backtrace(record_frame, &walk);
    if (walk.reached_marker) g_reached_marker.fetch_add(1, std::memory_order_relaxed);
    if (walk.kernel_frame_ok) g_kernel_frame_ok.fetch_add(1, std::memory_order_relaxed);
    if ((!walk.reached_marker || !walk.kernel_frame_ok) && !g_have_failure.exchange(true)) {
      g_failure_pc = pc;
      g_failure_frames = walk.frames;
      g_failure_ips = walk.ips;
      g_failure_regions = walk.regions;
    }
  }
  errno = saved_errno;
}

// The marker: the only caller of the kernel while the timer runs. noinline so it has its
// own frame and FDE; the loop keeps the kernel call from becoming a tail call.
__attribute__((noinline)) std::uint64_t call_kernel_in_a_loop(const KeccakKernel& kernel,
                                                              std::uint64_t* state,
                                                              const std::uint8_t* block,
                                                              std::uint64_t iterations) {
  for (std::uint64_t i = 0; i < iterations; ++i) {
    const std::size_t slot = i % (1 + sponge::detail::kRateCount);
    if (slot == 0) {
      kernel.permute(state);
    } else {
      kernel.absorb[slot - 1](state, block);
    }
  }
  return state[0];
}

const KeccakKernel* find_kernel(std::string_view name) {
  for (const KeccakKernel* kernel : runnable_kernels()) {
    if (kernel->name == name) return kernel;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the unwinder walks out of the amd64-bmi2 kernel from any sampled instruction") {
  const KeccakKernel* kernel = find_kernel("amd64-bmi2");
  if (!cpu_has_bmi1_bmi2_independently()) {
    // The CTest registration exists only where CMake found a BMI2 CPU; a mismatch is a bug.
    FAIL("this CPU has no BMI1/BMI2, but the test was registered for it");
  }
  REQUIRE(kernel != nullptr);

  // The generator places the permute entry (with the rounds) first and the absorb entries
  // after it, in the order of kRates; the PC range relies on that, so check it.
  g_entry_addresses[0] = reinterpret_cast<std::uintptr_t>(kernel->permute);
  for (std::size_t slot = 0; slot < sponge::detail::kRateCount; ++slot) {
    g_entry_addresses[1 + slot] = reinterpret_cast<std::uintptr_t>(kernel->absorb[slot]);
    REQUIRE(g_entry_addresses[1 + slot] > g_entry_addresses[slot]);
  }
  g_code_begin = g_entry_addresses.front();
  g_code_end = g_entry_addresses.back();
  g_marker = reinterpret_cast<std::uintptr_t>(&call_kernel_in_a_loop);

  // One walk outside the handler first, so the unwinder's lazy set-up never runs in it.
  {
    Walk warm_up;
    _Unwind_Backtrace(record_frame, &warm_up);
    CHECK(warm_up.frames > 0);
  }

  std::array<std::uint64_t, 25> state{}, expected{};
  sponge_test::Rng rng(0x0e1d'0000'0000'0003ull);
  for (auto& lane : state)
    lane = rng.next();
  expected = state;
  alignas(8) std::array<std::uint8_t, 168 + 8> block_buffer{};
  for (auto& byte : block_buffer)
    byte = static_cast<std::uint8_t>(rng.next());
  const std::uint8_t* block = block_buffer.data() + 3;

  constexpr std::uint64_t kIterationsPerCall = 600;
  constexpr std::uint64_t kReplayedCalls = 20;
  std::uint64_t calls = 0;
  std::array<std::uint64_t, 25> after_replayed_calls{};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = std::chrono::steady_clock::duration{};
  {
    AlarmTimer timer(sample, 50);
    while (elapsed < std::chrono::seconds(1) ||
           (g_in_kernel.load() < 100 && elapsed < std::chrono::seconds(10))) {
      call_kernel_in_a_loop(*kernel, state.data(), block, kIterationsPerCall);
      if (++calls == kReplayedCalls) after_replayed_calls = state;
      elapsed = std::chrono::steady_clock::now() - start;
    }
  }

  // The sampled computation was right too: replay its first calls on the portable
  // reference (all of them would take long in the sanitizer build).
  REQUIRE(calls >= kReplayedCalls);
  for (std::uint64_t i = 0; i < kReplayedCalls * kIterationsPerCall; ++i) {
    const std::size_t slot = (i % kIterationsPerCall) % (1 + sponge::detail::kRateCount);
    reference_call(expected.data(), block, slot == 0 ? 0 : sponge::detail::kRates[slot - 1]);
  }
  CHECK(after_replayed_calls == expected);

  MESSAGE(g_samples.load() << " samples, " << g_in_kernel.load()
                           << " inside the kernel; the walk reached the test's loop in "
                           << g_reached_marker.load() << " and found the kernel's FDE in "
                           << g_kernel_frame_ok.load());
  if (g_have_failure.load()) {
    std::string frames;
    char line[80];
    for (std::size_t i = 0; i < g_failure_frames; ++i) {
      std::snprintf(line, sizeof line, "\n  #%zu ip %#zx (function at %#zx)", i,
                    static_cast<std::size_t>(g_failure_ips[i]),
                    static_cast<std::size_t>(g_failure_regions[i]));
      frames += line;
    }
    MESSAGE("first failing walk, interrupted at offset " << (g_failure_pc - g_code_begin)
                                                         << " of the kernel:" << frames);
  }
  CHECK(g_in_kernel.load() >= 1);
  CHECK(g_reached_marker.load() == g_in_kernel.load());
  CHECK(g_kernel_frame_ok.load() == g_in_kernel.load());
}
