// The CFI of the generated assembly kernel (amd64-bmi2 on x86-64, arm64-sha3 on aarch64),
// proved by unwinding out of it: a 20 kHz SIGALRM samples a loop of kernel calls; whenever
// the interrupted PC lies inside the kernel's code, the handler walks the stack with
// _Unwind_Backtrace (the DWARF unwinder that C++ exceptions, debuggers and profilers rely
// on). Every such walk must pass through the kernel's own frame (whose FDE starts at a
// kernel entry), compute that frame's CFA as the caller's stack pointer at the call, and
// reach the test's looping function, which it can only do if the kernel's CFA and
// return-address rules are right at that instruction. (The rules for the saved d8-d15 or
// rbx/rbp/r12-r15 are not read by a backtrace and not checked here.)
//
// Everything but the small per-architecture part below (which kernel, the interrupted PC in
// the ucontext, an independent CPU check) is shared. Under qemu-user (the aarch64 cross
// build) signals arrive at translation-block boundaries only, so the samples cover fewer
// distinct instructions than on hardware.
#include <doctest/doctest.h>
#include <signal.h>
#include <ucontext.h>
#include <unwind.h>

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_test_support.hpp"
#include "signal_timer.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

// ---- The per-architecture part ----
#if defined(__x86_64__) && defined(__linux__)
constexpr std::string_view kKernelName = "amd64-bmi2";
constexpr const char* kCpuLacksKernel = "this CPU has no BMI1/BMI2";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RIP]);
}
bool cpu_runs_kernel_independently() {
  return cpu_has_bmi1_bmi2_independently();
}
#elif defined(__aarch64__) && defined(__linux__)
constexpr std::string_view kKernelName = "arm64-sha3";
constexpr const char* kCpuLacksKernel = "this CPU has no SHA3 extension (HWCAP_SHA3)";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.pc);
}
// The kernel's cpu_supports() asks the same bit; this checks the test's own registration
// (label kernel-arm64-sha3: scripts/test runs it only under QEMU_CPU=max).
bool cpu_runs_kernel_independently() {
  return (getauxval(AT_HWCAP) & HWCAP_SHA3) != 0;
}
#else
#error "test_unwind.cpp: tests/kernels/CMakeLists.txt registers it on x86-64 and aarch64 Linux"
#endif
// ---- end of the per-architecture part ----

constexpr std::size_t kMaxFrames = 64;

// Filled before the timer starts, read by the handler.
std::uintptr_t g_code_begin = 0, g_code_end = 0;  // [permute entry, last absorb entry)
std::array<std::uintptr_t, 1 + sponge::detail::kRateCount> g_entry_addresses{};
std::uintptr_t g_marker = 0;  // the looping function below
// The CFA the kernel's frame must have: the stack pointer at the looping function's call
// sites, measured through those same call sites with compiler-built stand-ins (see
// cfa_of_the_marker_callee). Needed because a wrong CFA alone does not stop the walk on
// aarch64: the kernel is a leaf, its return address stays in x30 and the caller finds its
// own CFA from x29, so only the CFA value itself shows the error.
std::uintptr_t g_expected_cfa = 0;

std::atomic<std::uint64_t> g_samples{0};
std::atomic<std::uint64_t> g_in_kernel{0};
std::atomic<std::uint64_t> g_reached_marker{0};
std::atomic<std::uint64_t> g_kernel_frame_ok{0};
std::atomic<std::uint64_t> g_kernel_cfa_ok{0};
// The first failing walk, for the report (written by the handler once, read afterwards).
std::atomic<bool> g_have_failure{false};
std::array<std::uintptr_t, kMaxFrames> g_failure_ips{};
std::array<std::uintptr_t, kMaxFrames> g_failure_regions{};
std::size_t g_failure_frames = 0;
std::uintptr_t g_failure_pc = 0;
std::uintptr_t g_failure_cfa = 0;

struct Walk {
  std::uintptr_t interrupted_pc = 0;
  std::size_t frames = 0;
  std::array<std::uintptr_t, kMaxFrames> ips{};
  std::array<std::uintptr_t, kMaxFrames> regions{};
  bool kernel_frame_ok = false;
  bool reached_marker = false;
  // libgcc's _Unwind_GetCFA in a frame's context is the CFA of the frame it called (the
  // caller's stack pointer at the call), so at the marker: the CFA of the kernel's frame.
  std::uintptr_t marker_callee_cfa = 0;
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
    walk.marker_callee_cfa = static_cast<std::uintptr_t>(_Unwind_GetCFA(context));
    return _URC_END_OF_STACK;  // far enough
  }
  return walk.frames == kMaxFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

void sample(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  g_samples.fetch_add(1, std::memory_order_relaxed);
  const std::uintptr_t pc = interrupted_pc(*static_cast<const ucontext_t*>(context));
  // Only walk when the kernel was interrupted: it holds no lock the unwinder could need.
  if (pc >= g_code_begin && pc < g_code_end) {
    g_in_kernel.fetch_add(1, std::memory_order_relaxed);
    Walk walk;
    walk.interrupted_pc = pc;
    _Unwind_Backtrace(record_frame, &walk);
    if (walk.reached_marker) g_reached_marker.fetch_add(1, std::memory_order_relaxed);
    if (walk.kernel_frame_ok) g_kernel_frame_ok.fetch_add(1, std::memory_order_relaxed);
    const bool cfa_ok = walk.reached_marker && walk.marker_callee_cfa == g_expected_cfa;
    if (cfa_ok) g_kernel_cfa_ok.fetch_add(1, std::memory_order_relaxed);
    if ((!walk.reached_marker || !walk.kernel_frame_ok || !cfa_ok) &&
        !g_have_failure.exchange(true)) {
      g_failure_pc = pc;
      g_failure_cfa = walk.marker_callee_cfa;
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

// The stand-ins for the kernel's entries: the same walk from compiler-built code, whose CFI
// the compiler wrote, called through the looping function's call sites.
std::array<std::uintptr_t, 1 + sponge::detail::kRateCount> g_stand_in_cfas{};
std::size_t g_stand_in_calls = 0;

__attribute__((noinline)) std::uintptr_t cfa_of_the_marker_callee() {
  Walk walk;
  _Unwind_Backtrace(record_frame, &walk);
  return walk.reached_marker ? walk.marker_callee_cfa : 0;
}
__attribute__((noinline)) void permute_stand_in(std::uint64_t*) noexcept {
  g_stand_in_cfas.at(g_stand_in_calls++) = cfa_of_the_marker_callee();
}
__attribute__((noinline)) void absorb_stand_in(std::uint64_t*, const std::uint8_t*) noexcept {
  g_stand_in_cfas.at(g_stand_in_calls++) = cfa_of_the_marker_callee();
}

const KeccakKernel* find_kernel(std::string_view name) {
  for (const KeccakKernel* kernel : runnable_kernels()) {
    if (kernel->name == name) return kernel;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the unwinder walks out of the assembly kernel from any sampled instruction") {
  INFO("kernel " << kKernelName);
  const KeccakKernel* kernel = find_kernel(kKernelName);
  if (!cpu_runs_kernel_independently()) {
    // The CTest registration exists only where the kernel is expected to run (CMake found
    // the CPU feature, or the run includes label kernel-<name>); a mismatch is a bug.
    const std::string why = std::string(kCpuLacksKernel) + ", but the test was registered for it";
    FAIL(why);
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

  // The kernel frame's CFA as the compiler's own CFI gives it for every call site.
  {
    KeccakKernel stand_in = *kernel;
    stand_in.permute = permute_stand_in;
    for (auto& entry : stand_in.absorb)
      entry = absorb_stand_in;
    call_kernel_in_a_loop(stand_in, state.data(), block, 1 + sponge::detail::kRateCount);
    REQUIRE(g_stand_in_calls == g_stand_in_cfas.size());
    for (const std::uintptr_t cfa : g_stand_in_cfas)
      REQUIRE(cfa == g_stand_in_cfas.front());
    REQUIRE(g_stand_in_cfas.front() != 0);
    g_expected_cfa = g_stand_in_cfas.front();
  }

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

  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  MESSAGE(kKernelName << ": " << g_samples.load() << " samples in " << ms << " ms, "
                      << g_in_kernel.load()
                      << " inside the kernel; the walk reached the test's loop in "
                      << g_reached_marker.load() << ", found the kernel's FDE in "
                      << g_kernel_frame_ok.load() << " and the kernel frame's CFA right in "
                      << g_kernel_cfa_ok.load());
  if (g_have_failure.load()) {
    std::string frames;
    char line[80];
    for (std::size_t i = 0; i < g_failure_frames; ++i) {
      std::snprintf(line, sizeof line, "\n  #%zu ip %#zx (function at %#zx)", i,
                    static_cast<std::size_t>(g_failure_ips[i]),
                    static_cast<std::size_t>(g_failure_regions[i]));
      frames += line;
    }
    char cfas[96];
    std::snprintf(cfas, sizeof cfas, "kernel frame's CFA %#zx, expected %#zx",
                  static_cast<std::size_t>(g_failure_cfa),
                  static_cast<std::size_t>(g_expected_cfa));
    MESSAGE("first failing walk (" << cfas << "), interrupted at offset "
                                   << (g_failure_pc - g_code_begin) << " of the kernel:" << frames);
  }
  CHECK(g_in_kernel.load() >= 1);
  CHECK(g_reached_marker.load() == g_in_kernel.load());
  CHECK(g_kernel_frame_ok.load() == g_in_kernel.load());
  CHECK(g_kernel_cfa_ok.load() == g_in_kernel.load());
}
