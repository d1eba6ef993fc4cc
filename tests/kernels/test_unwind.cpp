// The CFI of the generated assembly kernel (amd64-bmi2 on x86-64, arm64-sha3 on aarch64,
// riscv64-zbb on riscv64; arm64-scalar and riscv64 when built with SPONGE_UNWIND_ARM64_SCALAR
// or SPONGE_UNWIND_RISCV64, and the multi-state amd64-avx2-x4, amd64-avx512-x8,
// amd64-avx512-x4, arm64-sha3-x2 and riscv64-v-x2, -x4 and -x8 when built with
// SPONGE_UNWIND_<KERNEL> for each),
// proved by unwinding out of it: a 20 kHz SIGALRM samples a loop of kernel calls; whenever
// the interrupted PC lies inside the kernel's code, the handler walks the stack with
// _Unwind_Backtrace (the DWARF unwinder that C++ exceptions, debuggers and profilers rely
// on). Every such walk must pass through the kernel's own frame (whose FDE starts at a
// kernel entry), compute that frame's CFA as the caller's stack pointer at the call, and
// reach the test's looping function, which it can only do if the kernel's CFA and
// return-address rules are right at that instruction.
//
// A backtrace never reads the rules for the registers the kernel saves (rbx, rbp, r12-r15
// on amd64; d8-d15 on arm64), so the second test case reads them: the kernel runs under the
// ABI shim (abi_shim_*.S), which loads canaries into every callee-saved register before the
// call; whenever the signal lands inside the kernel, the walk reads those registers with
// _Unwind_GetGR at the shim's frame (the kernel's caller) and must find the canaries there,
// recovered through the kernel's .cfi_offset rules wherever the kernel has clobbered the
// registers themselves. libgcc's aarch64 unwinder reads d8-d15 as DWARF registers 72-79:
// its register size table gives them 8 bytes (the callee-saved low halves), and the
// signal frame's rules (the fpsimd record of the ucontext) cover v0-v31. On riscv64 the
// shim's fs0-fs11 are DWARF registers 40-41 and 50-59, which the signal frame's rules leave
// alone (they cover x0-x31), so the walk reads them as the kernel left them.
//
// Everything but the small per-architecture part below (which kernel, the interrupted PC in
// the ucontext, an independent CPU check) is shared. Under qemu-user (the aarch64 and
// riscv64 cross builds) signals arrive at translation-block boundaries only, so the samples
// cover fewer distinct instructions than on hardware. The sampling loops run on until enough
// samples landed inside the kernel (100 for the walk, 200 per saved register seen clobbered,
// within kSamplingLimit), and the test cases require at least one walk and 50 samples per
// saved register clobbered: a run whose samples miss the kernel fails, never passes on none.
#include <doctest/doctest.h>
#include <signal.h>
#include <ucontext.h>
#include <unwind.h>

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "abi_shim.hpp"
#include "kernel_test_support.hpp"
#include "signal_timer.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sponge_kernel_test;

// ---- The per-architecture part ----
#if defined(__x86_64__) && defined(__linux__) && \
    (defined(SPONGE_UNWIND_AMD64_AVX512_X8) || defined(SPONGE_UNWIND_AMD64_AVX512_X4))
// The AVX-512 kernels (eight states in zmm registers, or four in ymm with VL): no frame in
// their permute and one-block entries. The x8 block entries push r12, r13 and r14 to hold
// block pointers, so their .cfi_offset rules must recover those canaries; the x4 ones keep
// their pointers in r8-r11 and save nothing.
#if defined(SPONGE_UNWIND_AMD64_AVX512_X8)
constexpr std::string_view kKernelName = "amd64-avx512-x8";
constexpr int kStates = 8;
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {false, false, true,
                                                              true,  true,  false};
#else
constexpr std::string_view kKernelName = "amd64-avx512-x4";
constexpr int kStates = 4;
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {false, false, false,
                                                              false, false, false};
#endif
constexpr const char* kCpuLacksKernel = "this CPU (or its OS) lacks the kernel's AVX-512";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RIP]);
}
bool cpu_runs_kernel_independently() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && (kStates == 8 || __builtin_cpu_supports("avx512vl"));
}
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {3, 6, 12, 13, 14, 15};
#elif defined(__x86_64__) && defined(__linux__) && defined(SPONGE_UNWIND_AMD64_AVX2_X4)
// A multi-state kernel: its entries take four interleaved states and an array of four block
// pointers (kStates below); it saves no register, so the second test case checks only that
// the walk reaches the shim with every canary intact.
constexpr std::string_view kKernelName = "amd64-avx2-x4";
constexpr int kStates = 4;
constexpr const char* kCpuLacksKernel = "this CPU (or its OS) has no AVX2";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RIP]);
}
bool cpu_runs_kernel_independently() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {3, 6, 12, 13, 14, 15};
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {false, false, false,
                                                              false, false, false};
#elif defined(__x86_64__) && defined(__linux__)
constexpr std::string_view kKernelName = "amd64-bmi2";
constexpr int kStates = 1;
constexpr const char* kCpuLacksKernel = "this CPU has no BMI1/BMI2";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RIP]);
}
bool cpu_runs_kernel_independently() {
  return cpu_has_bmi1_bmi2_independently();
}
// The DWARF numbers of the shim's registers (abi_shim.hpp order: rbx rbp r12 r13 r14 r15),
// and which of them the kernel saves and uses (all six).
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {3, 6, 12, 13, 14, 15};
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {true, true, true, true, true, true};
#elif defined(__aarch64__) && defined(__linux__) && defined(SPONGE_UNWIND_ARM64_SCALAR)
constexpr std::string_view kKernelName = "arm64-scalar";
constexpr int kStates = 1;
constexpr const char* kCpuLacksKernel = "this CPU is not arm64";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.pc);
}
bool cpu_runs_kernel_independently() {
  return true;  // base ARMv8-A
}
// x19-x28 hold lanes and temporaries, so the kernel saves and uses all of them; it never
// touches d8-d15. It also saves x30, signed with paciasp, which the walk must get through
// (.cfi_negate_ra_state) to reach the marker on a CPU with pointer authentication.
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {19, 20, 21, 22, 23, 24, 25, 26, 27,
                                                               28, 72, 73, 74, 75, 76, 77, 78, 79};
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {
    true, true,  true,  true,  true,  true,  true,  true,  true,
    true, false, false, false, false, false, false, false, false};
#elif defined(__aarch64__) && defined(__linux__)
#if defined(SPONGE_UNWIND_ARM64_SHA3_X2)
// The two-state kernel: arm64-sha3's code and frame on two interleaved states.
constexpr std::string_view kKernelName = "arm64-sha3-x2";
constexpr int kStates = 2;
#else
constexpr std::string_view kKernelName = "arm64-sha3";
constexpr int kStates = 1;
#endif
constexpr const char* kCpuLacksKernel = "this CPU has no SHA3 extension (HWCAP_SHA3)";
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.pc);
}
// The kernel's cpu_supports() asks the same bit; this checks the test's own registration
// (label kernel-arm64-sha3: scripts/test runs it only under QEMU_CPU=max).
bool cpu_runs_kernel_independently() {
  return (getauxval(AT_HWCAP) & HWCAP_SHA3) != 0;
}
// The DWARF numbers of the shim's registers (abi_shim.hpp order: x19-x28, d8-d15; v<n> is
// 64 + n), and which of them the kernel saves and uses (d8-d15; it never touches x19-x28).
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {19, 20, 21, 22, 23, 24, 25, 26, 27,
                                                               28, 72, 73, 74, 75, 76, 77, 78, 79};
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {
    false, false, false, false, false, false, false, false, false,
    false, true,  true,  true,  true,  true,  true,  true,  true};
#elif defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
// The one-state kernels hold lanes in ra and s0-s11 and save all thirteen: the walk reaches
// the test's loop only through ra's .cfi_offset rule. The vector kernels keep shift amounts
// in s0-s5 and save those six. None touches fs0-fs11; libgcc's riscv64 signal frame has
// rules for x0-x31 only, so the walk reads fs0-fs11 as the handler found them, the
// interrupted values, which must still be the shim's canaries.
#if defined(SPONGE_UNWIND_RISCV64_V_X8) || defined(SPONGE_UNWIND_RISCV64_V_X4) || \
    defined(SPONGE_UNWIND_RISCV64_V_X2)
#if defined(SPONGE_UNWIND_RISCV64_V_X8)
constexpr std::string_view kKernelName = "riscv64-v-x8";
constexpr int kStates = 8;
#elif defined(SPONGE_UNWIND_RISCV64_V_X4)
constexpr std::string_view kKernelName = "riscv64-v-x4";
constexpr int kStates = 4;
#else
constexpr std::string_view kKernelName = "riscv64-v-x2";
constexpr int kStates = 2;
#endif
constexpr const char* kCpuLacksKernel =
    "this CPU has no V, or its VLEN holds fewer 64-bit lanes than the kernel's states";
// V executed, and the vlenb CSR read, by the test itself (kernel_test_support.hpp).
bool cpu_runs_kernel_independently() {
  return cpu_vlen_bits_independently() >= 64u * kStates;
}
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {
    true,  true,  true,  true,  true,  true,  false, false, false, false, false, false,
    false, false, false, false, false, false, false, false, false, false, false, false};
#elif defined(SPONGE_UNWIND_RISCV64)
constexpr std::string_view kKernelName = "riscv64";
constexpr int kStates = 1;
constexpr const char* kCpuLacksKernel = "this CPU is not riscv64";
bool cpu_runs_kernel_independently() {
  return true;  // RV64GC
}
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {
    true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  true,
    false, false, false, false, false, false, false, false, false, false, false, false};
#else
constexpr std::string_view kKernelName = "riscv64-zbb";
constexpr int kStates = 1;
constexpr const char* kCpuLacksKernel = "this CPU has no Zbb (rori raised SIGILL)";
// A Zbb instruction executed by the test itself (kernel_test_support.hpp).
bool cpu_runs_kernel_independently() {
  return cpu_has_zbb_independently();
}
constexpr std::array<bool, kCalleeSavedCount> kKernelSaves = {
    true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  true,  true,
    false, false, false, false, false, false, false, false, false, false, false, false};
#endif
std::uintptr_t interrupted_pc(const ucontext_t& context) {
  return static_cast<std::uintptr_t>(context.uc_mcontext.__gregs[REG_PC]);
}
// The DWARF numbers of the shim's registers (abi_shim.hpp order: s0-s11, fs0-fs11): s0-s1
// are x8-x9, s2-s11 x18-x27, and f<n> is 32 + n (fs0-fs1 f8-f9, fs2-fs11 f18-f27).
constexpr std::array<int, kCalleeSavedCount> kDwarfRegister = {
    8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 40, 41, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59};
#else
#error "test_unwind.cpp: registered on x86-64, aarch64 and riscv64 Linux only"
#endif
// ---- end of the per-architecture part ----

// The kernel's state argument: kStates lane-interleaved states.
using State = std::array<std::uint64_t, 25 * kStates>;

// The kernel under test's table and entries: a one-state kernel's, or a multi-state kernel's,
// whose block entries (where it has them) are the only multi-state entries that save
// registers. The helpers that differ between the two are templates on the table, so a build
// compiles only its own kind.
using Kernel = std::conditional_t<kStates == 1, KeccakKernel, sponge::detail::KeccakBatchKernel>;
using KernelEntry = std::conditional_t<kStates == 1, Entry, BatchEntry>;

// A one-state kernel's entries, plus at most a block entry per rate.
constexpr std::size_t kMaxEntries =
    kEntryCount + sponge::detail::kRateCount + sponge::detail::kRate12Count;

// The blocks a block entry absorbs per call: more than one, so its loop's back edge runs.
constexpr std::size_t kBlocksPerCall = 2;

template <class Table>
const Table* find_runnable(std::string_view name) {
  std::span<const Table* const> tables;
  if constexpr (std::is_same_v<Table, KeccakKernel>) {
    tables = sponge::detail::compiled_kernels();
  } else {
    tables = sponge::detail::compiled_batch_kernels();
  }
  for (const Table* kernel : tables) {
    if (kernel->name == name && kernel->cpu_supports()) return kernel;
  }
  return nullptr;
}

// Every entry of the kernel, in the generator's file order.
template <class Table>
std::vector<KernelEntry> entries_of_kernel(const Table& kernel) {
  if constexpr (std::is_same_v<Table, KeccakKernel>) {
    return entries_of(kernel);
  } else {
    return batch_entries_of(kernel);
  }
}

// What a call through the ABI shim passes as the third argument: a block entry's count.
template <class EntryType>
std::uint64_t third_argument([[maybe_unused]] const EntryType& entry) {
  if constexpr (std::is_same_v<EntryType, BatchEntry>) {
    if (entry.block_loop) return kBlocksPerCall;
  }
  return kJunkThird;
}

// The block argument of the absorb entries: the block itself, or (a multi-state kernel) an
// array of kStates pointers to it, through the same `const uint8_t*` parameter.
std::array<const std::uint8_t*, kStates> g_block_pointers{};
const std::uint8_t* block_argument(const std::uint8_t* block) {
  if constexpr (kStates == 1) {
    return block;
  } else {
    g_block_pointers.fill(block);
    return reinterpret_cast<const std::uint8_t*>(g_block_pointers.data());
  }
}

constexpr std::size_t kMaxFrames = 64;

// Filled before the timer starts, read by the handler.
std::uintptr_t g_code_begin = 0, g_code_end = 0;  // [permute entry, last entry)
std::array<std::uintptr_t, kMaxEntries> g_entry_addresses{};
std::size_t g_entry_count = 0;

// Records the entries' addresses and the kernel's code range. The generator places the
// 24-round permute entry (with the rounds) first and the other entries after it, in the
// order of entries_of and batch_entries_of; the PC range relies on that, so check it.
void record_kernel_layout(const Kernel& kernel) {
  const std::vector<KernelEntry> entries = entries_of_kernel(kernel);
  REQUIRE(entries.size() >= kEntryCount);
  REQUIRE(entries.size() <= g_entry_addresses.size());
  g_entry_count = entries.size();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    g_entry_addresses[i] = reinterpret_cast<std::uintptr_t>(entries[i].address());
    if (i > 0) REQUIRE(g_entry_addresses[i] > g_entry_addresses[i - 1]);
  }
  g_code_begin = g_entry_addresses.front();
  g_code_end = g_entry_addresses[g_entry_count - 1];
}
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
// The first failing walk, for the report (written by the handler once, read afterwards). The
// flags are words, not bools: GCC 12 has no inline byte-wide exchange on riscv64 (it calls
// libatomic), and a word's is one amoswap.w, safe in a signal handler.
std::atomic<int> g_have_failure{0};
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
  for (std::size_t i = 0; i < g_entry_count; ++i) {
    if (g_entry_addresses[i] == address) return true;
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
        g_have_failure.exchange(1) == 0) {
      g_failure_pc = pc;
      g_failure_cfa = walk.marker_callee_cfa;
      g_failure_frames = walk.frames;
      g_failure_ips = walk.ips;
      g_failure_regions = walk.regions;
    }
  }
  errno = saved_errno;
}

// One call of `entry` with the block argument above (for a multi-state kernel, `block` is
// g_block_pointers). Always inlined, so the looping function below stays the kernel's caller.
template <class EntryType>
[[gnu::always_inline]] inline void call_entry(const EntryType& entry, std::uint64_t* state,
                                              const std::uint8_t* block) {
  if constexpr (std::is_same_v<EntryType, BatchEntry>) {
    entry.call(state, g_block_pointers.data(), kBlocksPerCall);
  } else {
    entry.call(state, block);
  }
}

// The marker: the only caller of the kernel while the timer runs. noipa so it has its own
// frame and FDE and is never cloned (GCC at -O3 would call a constant-propagated copy whose
// address is not the marker's); the loop keeps the kernel call from becoming a tail call.
__attribute__((noipa)) std::uint64_t call_kernel_in_a_loop(const std::vector<KernelEntry>& entries,
                                                           std::uint64_t* state,
                                                           const std::uint8_t* block,
                                                           std::uint64_t iterations) {
  for (std::uint64_t i = 0; i < iterations; ++i)
    call_entry(entries[i % entries.size()], state, block);
  return state[0];
}

// The stand-ins for the kernel's entries: the same walk from compiler-built code, whose CFI
// the compiler wrote, called through the looping function's call sites.
std::array<std::uintptr_t, kMaxEntries> g_stand_in_cfas{};
std::size_t g_stand_in_calls = 0;

__attribute__((noipa)) std::uintptr_t cfa_of_the_marker_callee() {
  Walk walk;
  _Unwind_Backtrace(record_frame, &walk);
  return walk.reached_marker ? walk.marker_callee_cfa : 0;
}
// One stand-in per entry signature, its arguments deduced from the table's pointer type.
template <class... Arguments>
__attribute__((noipa)) void stand_in_entry(std::uint64_t*, Arguments...) noexcept {
  g_stand_in_cfas.at(g_stand_in_calls++) = cfa_of_the_marker_callee();
}

// The kernel's table with a stand-in for each entry it has, so that entries_of_kernel lists
// the same entries.
template <class Table>
Table stand_in_kernel(const Table& kernel) {
  Table stand_in = kernel;
  stand_in.permute = stand_in_entry;
  stand_in.permute12 = stand_in_entry;
  for (auto& entry : stand_in.absorb)
    entry = stand_in_entry;
  for (auto& entry : stand_in.absorb12)
    entry = stand_in_entry;
  if constexpr (!std::is_same_v<Table, KeccakKernel>) {
    for (auto& entry : stand_in.absorb_blocks) {
      if (entry != nullptr) entry = stand_in_entry;
    }
    for (auto& entry : stand_in.absorb_blocks12) {
      if (entry != nullptr) entry = stand_in_entry;
    }
  }
  return stand_in;
}

// ---- The second test case: the saved callee-saved registers ----

std::uintptr_t g_shim = 0;    // sponge_test_call_with_canaries
AbiObservation g_canaries{};  // the shim's canaries of the current call
std::atomic<std::uint64_t> g_registers_in_kernel{0};
std::atomic<std::uint64_t> g_registers_reached_shim{0};
std::atomic<std::uint64_t> g_registers_recovered{0};  // every canary found at the shim
// Samples where the kernel frame itself held something else than the canary, per register:
// the kernel had saved and clobbered it, so only its .cfi_offset rule can recover it.
std::array<std::atomic<std::uint64_t>, kCalleeSavedCount> g_clobbered_samples{};
std::array<std::atomic<std::uint64_t>, kCalleeSavedCount> g_clobbered_recovered{};
std::atomic<int> g_have_register_failure{0};
std::uintptr_t g_register_failure_pc = 0;
bool g_register_failure_reached_shim = false;
std::array<std::uint64_t, kCalleeSavedCount> g_register_failure_canary{};
std::array<std::uint64_t, kCalleeSavedCount> g_register_failure_at_kernel{};
std::array<std::uint64_t, kCalleeSavedCount> g_register_failure_at_shim{};

struct RegisterWalk {
  std::uintptr_t interrupted_pc = 0;
  std::size_t frames = 0;
  bool kernel_frame_seen = false;
  bool reached_shim = false;
  std::array<std::uint64_t, kCalleeSavedCount> at_kernel{};  // the interrupted values
  std::array<std::uint64_t, kCalleeSavedCount> at_shim{};    // recovered for the caller
};

void read_registers(struct _Unwind_Context* context,
                    std::array<std::uint64_t, kCalleeSavedCount>& values) {
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    values[static_cast<std::size_t>(reg)] = static_cast<std::uint64_t>(
        _Unwind_GetGR(context, kDwarfRegister[static_cast<std::size_t>(reg)]));
  }
}

_Unwind_Reason_Code record_registers(struct _Unwind_Context* context, void* argument) {
  auto& walk = *static_cast<RegisterWalk*>(argument);
  int before_instruction = 0;
  const auto ip = static_cast<std::uintptr_t>(_Unwind_GetIPInfo(context, &before_instruction));
  const auto region = static_cast<std::uintptr_t>(_Unwind_GetRegionStart(context));
  ++walk.frames;
  if (!walk.kernel_frame_seen) {
    if (ip == walk.interrupted_pc && before_instruction != 0 && is_entry(region)) {
      walk.kernel_frame_seen = true;
      read_registers(context, walk.at_kernel);
    }
  } else {
    // The frame right above the kernel's must be the shim's.
    walk.reached_shim = region == g_shim;
    if (walk.reached_shim) read_registers(context, walk.at_shim);
    return _URC_END_OF_STACK;
  }
  return walk.frames == kMaxFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

// Every sample inside the kernel must find all canaries at the shim's frame: before the
// saves and after the restores the registers hold them themselves (no rule needed), in
// between the .cfi_offset rules must point at the saved copies. The samples where the kernel
// frame shows a register clobbered are the ones only a right .cfi_offset rule passes; they
// are counted per register, and the test case requires a minimum of them.
void sample_registers(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  const std::uintptr_t pc = interrupted_pc(*static_cast<const ucontext_t*>(context));
  if (pc >= g_code_begin && pc < g_code_end) {
    g_registers_in_kernel.fetch_add(1, std::memory_order_relaxed);
    RegisterWalk walk;
    walk.interrupted_pc = pc;
    _Unwind_Backtrace(record_registers, &walk);
    bool all_recovered = walk.reached_shim;
    for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
      const bool recovered = walk.reached_shim && walk.at_shim[reg] == g_canaries.canary[reg];
      all_recovered = all_recovered && recovered;
      if (walk.reached_shim && walk.at_kernel[reg] != g_canaries.canary[reg]) {
        g_clobbered_samples[reg].fetch_add(1, std::memory_order_relaxed);
        if (recovered) g_clobbered_recovered[reg].fetch_add(1, std::memory_order_relaxed);
      }
    }
    if (walk.reached_shim) g_registers_reached_shim.fetch_add(1, std::memory_order_relaxed);
    if (all_recovered) g_registers_recovered.fetch_add(1, std::memory_order_relaxed);
    if (!all_recovered && g_have_register_failure.exchange(1) == 0) {
      g_register_failure_pc = pc;
      g_register_failure_reached_shim = walk.reached_shim;
      for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg)
        g_register_failure_canary[reg] = g_canaries.canary[reg];
      g_register_failure_at_kernel = walk.at_kernel;
      g_register_failure_at_shim = walk.at_shim;
    }
  }
  errno = saved_errno;
}

// ---- end of the second test case's helpers ----

// The kernel under test, where this CPU runs it.
const Kernel* find_kernel(std::string_view name) {
  return find_runnable<Kernel>(name);
}

// The portable reference of one call of `entry` of the kernel under test, as
// call_kernel_in_a_loop makes it.
template <class EntryType>
void reference_of(std::uint64_t* state, const std::uint8_t* block, const EntryType& entry) {
  if constexpr (std::is_same_v<EntryType, BatchEntry>) {
    batch_reference_call(state, g_block_pointers.data(), entry, kBlocksPerCall);
  } else {
    reference_call(state, block, entry);
  }
}

}  // namespace

TEST_CASE("the unwinder walks out of the assembly kernel from any sampled instruction") {
  INFO("kernel " << kKernelName);
  const Kernel* kernel = find_kernel(kKernelName);
  if (!cpu_runs_kernel_independently()) {
    // The CTest registration exists only where the kernel is expected to run (CMake found
    // the CPU feature, or the run includes label kernel-<name>); a mismatch is a bug.
    const std::string why = std::string(kCpuLacksKernel) + ", but the test was registered for it";
    FAIL(why);
  }
  REQUIRE(kernel != nullptr);

  record_kernel_layout(*kernel);
  const std::vector<KernelEntry> entries = entries_of_kernel(*kernel);
  g_marker = reinterpret_cast<std::uintptr_t>(&call_kernel_in_a_loop);

  // One walk outside the handler first, so the unwinder's lazy set-up never runs in it.
  {
    Walk warm_up;
    _Unwind_Backtrace(record_frame, &warm_up);
    CHECK(warm_up.frames > 0);
  }

  State state{}, expected{};
  sponge_test::Rng rng(0x0e1d'0000'0000'0003ull);
  for (auto& lane : state)
    lane = rng.next();
  expected = state;
  alignas(8) std::array<std::uint8_t, kBlocksPerCall * 168 + 8> block_buffer{};
  for (auto& byte : block_buffer)
    byte = static_cast<std::uint8_t>(rng.next());
  const std::uint8_t* block = block_argument(block_buffer.data() + 3);

  // The kernel frame's CFA as the compiler's own CFI gives it for every call site.
  {
    const Kernel stand_in = stand_in_kernel(*kernel);
    call_kernel_in_a_loop(entries_of_kernel(stand_in), state.data(), block, entries.size());
    REQUIRE(g_stand_in_calls == entries.size());
    for (std::size_t i = 0; i < g_stand_in_calls; ++i)
      REQUIRE(g_stand_in_cfas[i] == g_stand_in_cfas.front());
    REQUIRE(g_stand_in_cfas.front() != 0);
    g_expected_cfa = g_stand_in_cfas.front();
  }

  constexpr std::uint64_t kIterationsPerCall = 600;
  constexpr std::uint64_t kReplayedCalls = 20;
  std::uint64_t calls = 0;
  State after_replayed_calls{};
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = std::chrono::steady_clock::duration{};
  {
    AlarmTimer timer(sample, 50);
    // At least kReplayedCalls calls whatever the machine's speed (a loaded machine under
    // qemu managed 6 in the first second), then sample for a second, longer if too few
    // samples landed in the kernel.
    while (calls < kReplayedCalls || elapsed < std::chrono::seconds(1) ||
           (g_in_kernel.load() < 100 && elapsed < kSamplingLimit)) {
      call_kernel_in_a_loop(entries, state.data(), block, kIterationsPerCall);
      if (++calls == kReplayedCalls) after_replayed_calls = state;
      elapsed = std::chrono::steady_clock::now() - start;
    }
  }

  // The sampled computation was right too: replay its first calls on the portable
  // reference (all of them would take long in the sanitizer build).
  REQUIRE(calls >= kReplayedCalls);
  for (std::uint64_t i = 0; i < kReplayedCalls * kIterationsPerCall; ++i) {
    reference_of(expected.data(), block, entries[(i % kIterationsPerCall) % entries.size()]);
  }
  CHECK(after_replayed_calls == expected);

  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  MESSAGE(kKernelName << ": " << g_samples.load() << " samples in " << ms << " ms, "
                      << g_in_kernel.load()
                      << " inside the kernel; the walk reached the test's loop in "
                      << g_reached_marker.load() << ", found the kernel's FDE in "
                      << g_kernel_frame_ok.load() << " and the kernel frame's CFA right in "
                      << g_kernel_cfa_ok.load());
  if (g_have_failure.load() != 0) {
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

TEST_CASE("the unwinder recovers the callee-saved registers the kernel saved (its .cfi_offset)") {
  INFO("kernel " << kKernelName);
  const Kernel* kernel = find_kernel(kKernelName);
  if (!cpu_runs_kernel_independently()) {
    const std::string why = std::string(kCpuLacksKernel) + ", but the test was registered for it";
    FAIL(why);
  }
  REQUIRE(kernel != nullptr);

  record_kernel_layout(*kernel);
  struct ShimCall {
    void* entry;
    std::uint64_t third;
  };
  std::vector<ShimCall> shim_calls;
  for (const KernelEntry& entry : entries_of_kernel(*kernel))
    shim_calls.push_back({entry.address(), third_argument(entry)});
  g_shim = reinterpret_cast<std::uintptr_t>(&sponge_test_call_with_canaries);

  {
    RegisterWalk warm_up;
    _Unwind_Backtrace(record_registers, &warm_up);
    CHECK(warm_up.frames > 0);
  }

  State state{};
  sponge_test::Rng rng(0x0e1d'0000'0000'0004ull);
  for (auto& lane : state)
    lane = rng.next();
  alignas(8) std::array<std::uint8_t, kBlocksPerCall * 168 + 8> block_buffer{};
  for (auto& byte : block_buffer)
    byte = static_cast<std::uint8_t>(rng.next());
  const std::uint8_t* block = block_argument(block_buffer.data() + 3);

  // Until each saved register was seen clobbered in the kernel frame this often (and for at
  // least a second), within 10 s.
  constexpr std::uint64_t kMinimumClobberedSamples = 50;
  const auto fewest_clobbered = [] {
    std::uint64_t fewest = ~std::uint64_t{0};
    for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
      if (kKernelSaves[reg]) fewest = std::min(fewest, g_clobbered_samples[reg].load());
    }
    return fewest;
  };
  std::uint64_t calls = 0, abi_violations = 0;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = std::chrono::steady_clock::duration{};
  {
    AlarmTimer timer(sample_registers, 50);
    while (elapsed < std::chrono::seconds(1) ||
           (fewest_clobbered() < 4 * kMinimumClobberedSamples && elapsed < kSamplingLimit)) {
      for (int i = 0; i < 600; ++i, ++calls) {
        // Fresh, distinct canaries per call (the register's index in the top byte).
        for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
          g_canaries.canary[reg] = (rng.next() & 0x00ff'ffff'ffff'ffffull) |
                                   (static_cast<std::uint64_t>(0xc0 + reg) << 56);
        }
        const ShimCall& call = shim_calls[calls % shim_calls.size()];
        const std::uint64_t sp_delta = sponge_test_call_with_canaries(
            call.entry, state.data(), block, &g_canaries, call.third, kJunkFourth);
        bool kept = sp_delta == 0;
        for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg)
          kept = kept && g_canaries.after[reg] == g_canaries.canary[reg];
        if (!kept) ++abi_violations;
      }
      elapsed = std::chrono::steady_clock::now() - start;
    }
  }

  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  std::string per_register;
  for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
    if (!kKernelSaves[reg]) continue;
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on " " + string.
    per_register.append(" ").append(kCalleeSavedNames[reg]).append(" ");
    per_register.append(std::to_string(g_clobbered_recovered[reg].load())).append("/");
    per_register.append(std::to_string(g_clobbered_samples[reg].load()));
  }
  MESSAGE(kKernelName << ": " << calls << " shim calls in " << ms << " ms, "
                      << g_registers_in_kernel.load()
                      << " samples inside the kernel; the walk reached the shim in "
                      << g_registers_reached_shim.load() << " and recovered all "
                      << kCalleeSavedCount << " canaries there in " << g_registers_recovered.load()
                      << "; recovered/clobbered in the kernel frame, per saved register:"
                      << per_register);
  if (g_have_register_failure.load() != 0) {
    std::string lines;
    char line[160];
    for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
      std::snprintf(
          line, sizeof line,
          "\n  %-3s canary %#018llx, in the kernel frame %#018llx, at the shim %#018llx%s",
          kCalleeSavedNames[reg], static_cast<unsigned long long>(g_register_failure_canary[reg]),
          static_cast<unsigned long long>(g_register_failure_at_kernel[reg]),
          static_cast<unsigned long long>(g_register_failure_at_shim[reg]),
          g_register_failure_at_shim[reg] == g_register_failure_canary[reg] ? "" : "  WRONG");
      lines += line;
    }
    const std::string reached = g_register_failure_reached_shim ? "the walk reached the shim"
                                                                : "the walk did NOT reach the shim";
    MESSAGE("first failing walk, interrupted at offset " << (g_register_failure_pc - g_code_begin)
                                                         << " of the kernel (" << reached
                                                         << "):" << lines);
  }
  CHECK(abi_violations == 0);
  CHECK(g_registers_reached_shim.load() == g_registers_in_kernel.load());
  CHECK(g_registers_recovered.load() == g_registers_in_kernel.load());
  for (std::size_t reg = 0; reg < kCalleeSavedCount; ++reg) {
    INFO("register " << std::string(kCalleeSavedNames[reg]));
    CHECK(g_clobbered_recovered[reg].load() == g_clobbered_samples[reg].load());
    if (kKernelSaves[reg]) CHECK(g_clobbered_samples[reg].load() >= kMinimumClobberedSamples);
  }
}
