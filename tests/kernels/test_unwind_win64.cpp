// The Windows unwind data of the generated amd64 kernels (their Windows entries and the System
// V code those call), proved by unwinding out of them the way Windows does: a sampler thread
// suspends a worker that calls every entry of amd64-bmi2, amd64-avx2-x4, amd64-avx512-x8,
// amd64-avx512-x4 (where the CPU runs them) and ascon-amd64-bmi2 in a loop through the Win64 ABI
// shim (abi_shim_win64.S), reads its context, and whenever the interrupted instruction lies in a
// kernel's code, walks it with RtlLookupFunctionEntry and RtlVirtualUnwind (what exception
// dispatch, debuggers and profilers use on Windows). Every
// walk must reach the shim's call site within two frames (the System V function, then its
// Windows entry) with the shim's stack pointer, and with the canaries the shim loaded in every
// register Windows makes callee-saved: rbx rbp rdi rsi r12-r15 from the push codes, xmm6-xmm15
// from the Windows entries' save codes (the vector kernels write them all).
//
// Ground truth for "in a kernel" does not come from the unwind data under test: a kernel's code
// runs from its file's first System V function (declared below) to the end of its last Windows
// entry (the files put the System V code first, then the constants, then the Windows entries).
#include <doctest/doctest.h>
#include <windows.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "abi_shim.hpp"
#include "ascon/ascon_kernel.hpp"
#include "batch/batch_kernel.hpp"
#include "kernel_test_support.hpp"
#include "support/test_support.hpp"

// The first function of each generated amd64 file, under its Windows name (generated/*.S).
extern "C" void sponge_keccakf1600_amd64_bmi2_sysv();
extern "C" void sponge_keccakf1600_amd64_avx2_x4_sysv();
extern "C" void sponge_keccakf1600_amd64_avx512_x8_sysv();
extern "C" void sponge_keccakf1600_amd64_avx512_x4_sysv();
extern "C" void sponge_ascon_p320_amd64_bmi2_p12_sysv();
// The shim's code ends where the bad callee starts (abi_shim_win64.S).
extern "C" void sponge_test_bad_callee(std::uint64_t* state, const std::uint8_t* block);

namespace {

using namespace sponge_kernel_test;

// One call the worker makes through the shim.
struct KernelCall {
  std::string name;
  void* entry;
  std::uint64_t* state;
  const std::uint8_t* block;
  std::uint64_t third, fourth;
};

// A kernel's code: [first System V function, end of its last Windows entry).
struct CodeRange {
  std::string kernel;
  std::uintptr_t begin = 0, end = 0;
  bool contains(std::uintptr_t pc) const { return pc >= begin && pc < end; }
};

std::uintptr_t function_end(void* address) {
  DWORD64 image_base = 0;
  const RUNTIME_FUNCTION* function =
      RtlLookupFunctionEntry(reinterpret_cast<DWORD64>(address), &image_base, nullptr);
  REQUIRE_MESSAGE(function != nullptr, "no unwind data at a kernel entry");
  REQUIRE(image_base + function->BeginAddress == reinterpret_cast<DWORD64>(address));
  return static_cast<std::uintptr_t>(image_base + function->EndAddress);
}

struct WalkResult {
  bool reached_shim = false;
  int frames = 0;
  std::string problem;
};

// Unwinds `context` (stopped in a kernel) until its pc is in the shim; then checks the
// callee-saved registers and the stack pointer against what the shim holds.
WalkResult walk_to_shim(CONTEXT context, std::uintptr_t shim_begin, std::uintptr_t shim_end,
                        const AbiObservation& canaries, std::uint64_t shim_sp) {
  WalkResult result;
  for (; result.frames < 4; ++result.frames) {
    if (context.Rip >= shim_begin && context.Rip < shim_end) break;
    DWORD64 image_base = 0;
    const RUNTIME_FUNCTION* function = RtlLookupFunctionEntry(context.Rip, &image_base, nullptr);
    if (function == nullptr) {
      result.problem = "no unwind data for a kernel pc";
      return result;
    }
    void* handler_data = nullptr;
    DWORD64 establisher = 0;
    RtlVirtualUnwind(UNW_FLAG_NHANDLER, image_base, context.Rip,
                     const_cast<RUNTIME_FUNCTION*>(function), &context, &handler_data, &establisher,
                     nullptr);
  }
  if (!(context.Rip >= shim_begin && context.Rip < shim_end)) {
    result.problem = "the walk did not reach the shim";
    return result;
  }
  result.reached_shim = true;
  const std::uint64_t gp[] = {context.Rbx, context.Rbp, context.R12, context.R13,
                              context.R14, context.R15, context.Rdi, context.Rsi};
  const M128A* xmm = &context.Xmm6;
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    const std::uint64_t value =
        reg < 8 ? gp[reg]
                : ((reg - 8) % 2 == 0 ? xmm[(reg - 8) / 2].Low
                                      : static_cast<std::uint64_t>(xmm[(reg - 8) / 2].High));
    if (value != canaries.canary[reg]) {
      result.problem += std::string(result.problem.empty() ? "" : ", ") + kCalleeSavedNames[reg] +
                        " not recovered";
    }
  }
  if (context.Rsp != shim_sp) result.problem += " rsp not the shim's at the call";
  return result;
}

}  // namespace

TEST_CASE("RtlVirtualUnwind walks out of every Windows entry and its System V code") {
  // The kernels this CPU runs, and the calls of each entry.
  std::vector<KernelCall> calls;
  std::vector<CodeRange> ranges;
  // Room for the widest batch kernel: eight interleaved states, eight blocks.
  alignas(64) static std::uint64_t state[200];
  alignas(64) static std::uint8_t blocks[8][200];
  static const std::uint8_t* const block_pointers[8] = {blocks[0], blocks[1], blocks[2], blocks[3],
                                                        blocks[4], blocks[5], blocks[6], blocks[7]};
  static std::uint8_t out[64];
  std::vector<void*> last_entries;
  for (const KeccakKernel* kernel : runnable_kernels()) {
    if (kernel->name != "amd64-bmi2") continue;
    ranges.push_back(
        {"amd64-bmi2", reinterpret_cast<std::uintptr_t>(&sponge_keccakf1600_amd64_bmi2_sysv)});
    for (const Entry& entry : entries_of(*kernel)) {
      calls.push_back({entry.name(), entry.address(), state, blocks[0], kJunkThird, kJunkFourth});
    }
    last_entries.push_back(calls.back().entry);
  }
  const std::pair<std::string_view, void (*)()> batch_kernels[] = {
      {"amd64-avx2-x4", &sponge_keccakf1600_amd64_avx2_x4_sysv},
      {"amd64-avx512-x8", &sponge_keccakf1600_amd64_avx512_x8_sysv},
      {"amd64-avx512-x4", &sponge_keccakf1600_amd64_avx512_x4_sysv}};
  for (const auto* kernel : sponge::detail::compiled_batch_kernels()) {
    const auto generated =
        std::find_if(std::begin(batch_kernels), std::end(batch_kernels),
                     [&](const auto& named) { return named.first == kernel->name; });
    if (generated == std::end(batch_kernels) || !kernel->cpu_supports()) continue;
    ranges.push_back(
        {std::string(generated->first), reinterpret_cast<std::uintptr_t>(generated->second)});
    for (const BatchEntry& entry : batch_entries_of(*kernel)) {
      // A block entry absorbs one block a state: one fits in each of `blocks`.
      calls.push_back({entry.name(), entry.address(), state,
                       reinterpret_cast<const std::uint8_t*>(block_pointers),
                       entry.block_loop ? 1 : kJunkThird, kJunkFourth});
    }
    last_entries.push_back(calls.back().entry);
  }
  for (const auto* kernel : sponge::detail::ascon_compiled_kernels()) {
    if (kernel->name != "ascon-amd64-bmi2" || !kernel->cpu_supports()) continue;
    ranges.push_back({"ascon-amd64-bmi2",
                      reinterpret_cast<std::uintptr_t>(&sponge_ascon_p320_amd64_bmi2_p12_sysv)});
    const auto out_pointer = reinterpret_cast<std::uintptr_t>(out);
    calls.push_back({"ascon p12", reinterpret_cast<void*>(kernel->permute12), state, nullptr,
                     kJunkThird, kJunkFourth});
    calls.push_back({"ascon p8", reinterpret_cast<void*>(kernel->permute8), state, nullptr,
                     kJunkThird, kJunkFourth});
    calls.push_back({"ascon p6", reinterpret_cast<void*>(kernel->permute6), state, nullptr,
                     kJunkThird, kJunkFourth});
    calls.push_back({"ascon absorb_hash", reinterpret_cast<void*>(kernel->absorb_hash), state,
                     blocks[0], 3, kJunkFourth});
    calls.push_back({"ascon absorb_ad", reinterpret_cast<void*>(kernel->absorb_ad), state,
                     blocks[0], 3, kJunkFourth});
    calls.push_back({"ascon encrypt", reinterpret_cast<void*>(kernel->encrypt), state, blocks[0],
                     out_pointer, 3});
    calls.push_back({"ascon decrypt", reinterpret_cast<void*>(kernel->decrypt), state, blocks[0],
                     out_pointer, 3});
    // The decrypt entry is the file's last Windows entry (generated/manifest.json order).
    last_entries.push_back(calls.back().entry);
  }
  REQUIRE_MESSAGE(!ranges.empty(), "no generated amd64 kernel runs on this CPU");
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    ranges[k].end = function_end(last_entries[k]);
    REQUIRE(ranges[k].begin < ranges[k].end);
  }
  // Each kernel's calls, by the code range that holds the entry.
  std::vector<std::vector<const KernelCall*>> calls_of(ranges.size());
  for (const KernelCall& call : calls) {
    INFO(call.name);
    bool inside = false;
    for (std::size_t k = 0; k < ranges.size() && !inside; ++k) {
      inside = ranges[k].contains(reinterpret_cast<std::uintptr_t>(call.entry));
      if (inside) calls_of[k].push_back(&call);
    }
    REQUIRE(inside);
  }

  AbiObservation canaries{};
  sponge_test::Rng rng(0x5e4'0bad);
  for (int reg = 0; reg < kCalleeSavedCount; ++reg) {
    canaries.canary[reg] =
        (rng.next() & 0x00ff'ffff'ffff'ffffull) | (static_cast<std::uint64_t>(0xc0 + reg) << 56);
  }
  const auto shim_begin = reinterpret_cast<std::uintptr_t>(&sponge_test_call_with_canaries);
  const auto shim_end = reinterpret_cast<std::uintptr_t>(&sponge_test_bad_callee);
  REQUIRE(shim_begin < shim_end);

  // The worker: the calls of one kernel (the phase) in turn, through the shim, until told to
  // stop. The shim's rsp at the call is the same for every call of this loop; the first call
  // records it.
  std::atomic<bool> stop{false};
  std::atomic<std::size_t> phase{0};
  std::atomic<std::uint64_t> shim_sp{0};
  std::atomic<long> worker_calls{0};
  auto work = [&] {
    AbiObservation observed = canaries;
    while (!stop.load(std::memory_order_relaxed)) {
      const auto& kernel_calls = calls_of[phase.load(std::memory_order_relaxed)];
      for (const KernelCall* call : kernel_calls) {
        observed = canaries;
        sponge_test_call_with_canaries(call->entry, call->state, call->block, &observed,
                                       call->third, call->fourth);
        shim_sp.store(observed.sp_before, std::memory_order_relaxed);
      }
      worker_calls.fetch_add(static_cast<long>(kernel_calls.size()), std::memory_order_relaxed);
    }
  };
  // A Windows thread, so SuspendThread and GetThreadContext take its handle directly.
  HANDLE worker = CreateThread(
      nullptr, 0,
      [](void* argument) -> DWORD {
        (*static_cast<decltype(work)*>(argument))();
        return 0;
      },
      &work, 0, nullptr);
  REQUIRE(worker != nullptr);
  while (shim_sp.load() == 0)
    Sleep(0);

  std::vector<int> samples_in(ranges.size(), 0), walked(ranges.size(), 0);
  std::vector<std::string> failures;
  int samples = 0;
  // One phase per kernel: the worker calls only that kernel's entries while the sampler
  // samples, until 200 samples have landed in its code or 1.5 s have passed. (With every
  // kernel in one loop a CI run under load sampled one kernel not once in 9,522 samples: the
  // sampler's period and the worker's loop can fall into step.)
  constexpr int kSamplesPerKernel = 200;
  for (std::size_t sampled = 0; sampled < ranges.size(); ++sampled) {
    phase.store(sampled);
    const auto deadline = GetTickCount64() + 1500;
    while (GetTickCount64() < deadline && samples_in[sampled] < kSamplesPerKernel) {
      if (SuspendThread(worker) == static_cast<DWORD>(-1)) break;
      CONTEXT context{};
      context.ContextFlags = CONTEXT_FULL | CONTEXT_FLOATING_POINT;
      const bool have_context = GetThreadContext(worker, &context) != 0;
      ++samples;
      if (have_context) {
        for (std::size_t k = 0; k < ranges.size(); ++k) {
          if (!ranges[k].contains(context.Rip)) continue;
          ++samples_in[k];
          const WalkResult result =
              walk_to_shim(context, shim_begin, shim_end, canaries, shim_sp.load());
          if (result.reached_shim && result.problem.empty()) {
            ++walked[k];
          } else if (failures.size() < 20) {
            char offset[32];
            std::snprintf(offset, sizeof offset, "+0x%llx",
                          static_cast<unsigned long long>(context.Rip - ranges[k].begin));
            failures.push_back(ranges[k].kernel + " at " + offset + ": " + result.problem);
          }
        }
      }
      ResumeThread(worker);
      Sleep(0);
    }
  }
  stop = true;
  WaitForSingleObject(worker, INFINITE);
  CloseHandle(worker);

  MESSAGE(samples << " samples of a worker that made " << worker_calls.load() << " calls");
  for (const std::string& failure : failures)
    FAIL_CHECK(failure);
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    MESSAGE(ranges[k].kernel << ": " << samples_in[k] << " samples in its code, " << walked[k]
                             << " walked to the shim with every callee-saved register recovered");
    CHECK(samples_in[k] >= 20);
    CHECK(walked[k] == samples_in[k]);
  }
}
