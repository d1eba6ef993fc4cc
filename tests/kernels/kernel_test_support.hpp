// Helpers shared by the kernel tests under tests/kernels: which kernels this CPU can run,
// every entry of a kernel, and the portable reference of one entry call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#endif

#include "batch/batch_kernel.hpp"
#include "keccak/keccak_kernel.hpp"

namespace sponge_kernel_test {

using sponge::detail::KeccakKernel;

// "amd64-bmi2.r12.absorb168": a kernel's name, ".r12" for its 12-round entries, and the entry.
inline std::string entry_name(std::string_view kernel, int rounds, std::size_t rate) {
  return std::string(kernel) + (rounds == sponge::detail::kFullRounds ? "" : ".r12") +
         (rate == 0 ? std::string(".permute") : ".absorb" + std::to_string(rate));
}

// One entry of a kernel: a permute entry (rate 0) or a fused absorb entry, at 24 rounds
// (Keccak-f[1600]) or 12 (Keccak-p[1600, 12]).
struct Entry {
  const KeccakKernel* kernel = nullptr;
  int rounds = sponge::detail::kFullRounds;
  std::size_t rate = 0;

  std::string name() const { return entry_name(kernel->name, rounds, rate); }
  // The entry's code address, for the ABI shim and the PC range checks.
  void* address() const {
    return rate == 0 ? reinterpret_cast<void*>(kernel->permute_for(rounds))
                     : reinterpret_cast<void*>(kernel->absorb_for(rate, rounds));
  }
  void call(std::uint64_t* state, const std::uint8_t* block) const {
    if (rate == 0) {
      kernel->permute_for(rounds)(state);
    } else {
      kernel->absorb_for(rate, rounds)(state, block);
    }
  }
};

// Every entry of a kernel, in the order the generator places them in a file: the 24-round
// permute entry, its absorb entries by kRates, then the same for 12 rounds by kRates12.
inline constexpr std::size_t kEntryCount =
    1 + sponge::detail::kRateCount + 1 + sponge::detail::kRate12Count;

inline std::vector<Entry> entries_of(const KeccakKernel& kernel) {
  constexpr int kFull = sponge::detail::kFullRounds;
  constexpr int kReduced = sponge::detail::kReducedRounds;
  std::vector<Entry> entries{{&kernel, kFull, 0}};
  for (std::size_t rate : sponge::detail::kRates)
    entries.push_back({&kernel, kFull, rate});
  entries.push_back({&kernel, kReduced, 0});
  for (std::size_t rate : sponge::detail::kRates12)
    entries.push_back({&kernel, kReduced, rate});
  return entries;
}

// The compiled kernels whose cpu_supports() is true, best first.
inline std::vector<const KeccakKernel*> runnable_kernels() {
  std::vector<const KeccakKernel*> kernels;
  for (const KeccakKernel* kernel : sponge::detail::compiled_kernels()) {
    if (kernel->cpu_supports()) kernels.push_back(kernel);
  }
  return kernels;
}

// The reference for one entry call: XOR the block's rate / 8 lanes into the state, bytes
// little-endian, assembled byte by byte in C++ (no alignment assumed), then run the
// entry's last `rounds` rounds of the portable Keccak-f[1600].
inline void reference_call(std::uint64_t* state, const std::uint8_t* block, const Entry& entry) {
  for (std::size_t lane = 0; lane < entry.rate / 8; ++lane) {
    std::uint64_t value = 0;
    for (std::size_t byte = 0; byte < 8; ++byte) {
      value |= std::uint64_t{block[8 * lane + byte]} << (8 * byte);
    }
    state[lane] ^= value;
  }
  sponge::detail::keccak_p1600_rounds_portable(state, sponge::detail::kFullRounds - entry.rounds,
                                               sponge::detail::kFullRounds);
}

// One entry of a multi-state (batch) kernel: permute (rate 0), the one-block absorb entry, or
// the block entry (block_loop: any number of blocks a state per call), at 24 or 12 rounds.
struct BatchEntry {
  const sponge::detail::KeccakBatchKernel* kernel = nullptr;
  int rounds = sponge::detail::kFullRounds;
  std::size_t rate = 0;
  bool block_loop = false;

  std::string name() const {
    return entry_name(kernel->name, rounds, rate) + (block_loop ? "_blocks" : "");
  }
  void* address() const {
    if (rate == 0) return reinterpret_cast<void*>(kernel->permute_for(rounds));
    return block_loop ? reinterpret_cast<void*>(kernel->absorb_blocks_for(rate, rounds))
                      : reinterpret_cast<void*>(kernel->absorb_for(rate, rounds));
  }
  // The one-block entries ignore block_count: they absorb exactly one block a state.
  void call(std::uint64_t* states, const std::uint8_t* const* blocks,
            std::size_t block_count) const {
    if (rate == 0) {
      kernel->permute_for(rounds)(states);
    } else if (block_loop) {
      kernel->absorb_blocks_for(rate, rounds)(states, blocks, block_count);
    } else {
      kernel->absorb_for(rate, rounds)(states, blocks);
    }
  }
};

// Every entry of a batch kernel in the generator's file order, so the first and the last
// bound its code: per round count the permute entry, the one-block absorb entries, then the
// block entries the kernel has.
inline std::vector<BatchEntry> batch_entries_of(const sponge::detail::KeccakBatchKernel& kernel) {
  std::vector<BatchEntry> entries;
  const auto add_round_variant = [&](int rounds, std::span<const std::size_t> rates) {
    entries.push_back({&kernel, rounds, 0, false});
    for (const std::size_t rate : rates)
      entries.push_back({&kernel, rounds, rate, false});
    for (const std::size_t rate : rates) {
      if (kernel.absorb_blocks_for(rate, rounds) != nullptr)
        entries.push_back({&kernel, rounds, rate, true});
    }
  };
  add_round_variant(sponge::detail::kFullRounds, sponge::detail::kRates);
  add_round_variant(sponge::detail::kReducedRounds, sponge::detail::kRates12);
  return entries;
}

// The reference of one batch entry call, BatchEntry::call's arguments: each state of the
// lane-interleaved `states` taken out, then per block (block_count for a block entry, one
// otherwise) the next block from blocks[s] XORed in (absorb entries) and the portable
// rounds, put back.
inline void batch_reference_call(std::uint64_t* states, const std::uint8_t* const* blocks,
                                 const BatchEntry& entry, std::size_t block_count = 1) {
  const int n = entry.kernel->states;
  const std::size_t permutations = entry.block_loop ? block_count : 1;
  for (int s = 0; s < n; ++s) {
    std::uint64_t lanes[25];
    for (int i = 0; i < 25; ++i)
      lanes[i] = states[n * i + s];
    for (std::size_t block = 0; block < permutations; ++block) {
      const std::uint8_t* const bytes = entry.rate == 0 ? nullptr : blocks[s] + block * entry.rate;
      for (std::size_t lane = 0; lane < entry.rate / 8; ++lane) {
        std::uint64_t value = 0;
        for (std::size_t byte = 0; byte < 8; ++byte)
          value |= std::uint64_t{bytes[8 * lane + byte]} << (8 * byte);
        lanes[lane] ^= value;
      }
      sponge::detail::keccak_p1600_rounds_portable(
          lanes, sponge::detail::kFullRounds - entry.rounds, sponge::detail::kFullRounds);
    }
    for (int i = 0; i < 25; ++i)
      states[n * i + s] = lanes[i];
  }
}

// A comma-separated list of kernel names.
inline std::vector<std::string> split_kernel_list(std::string_view list) {
  std::vector<std::string> names;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    names.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
}

// The kernels this CPU is expected to run, from outside the process under test:
//   - the environment variable SPONGE_EXPECTED_RUNNABLE_KERNELS (comma-separated), which
//     the caller sets per emulated CPU (scripts/test: "arm64-sha3,portable" under
//     QEMU_CPU=max, "portable" under QEMU_CPU=cortex-a72), when set;
//   - else the configure-time decision of a native build (SPONGE_RUNNABLE_KERNELS, a
//     compile definition set by tests/kernels/CMakeLists.txt from
//     cmake/SpongeRunnableKernels.cmake, which reads /proc/cpuinfo);
//   - else (a cross build, SPONGE_RUNNABLE_KERNELS_FROM_ENVIRONMENT) nothing: `source`
//     says so and the callers fail, since the emulated CPU is unknown until run time.
struct ExpectedKernels {
  std::vector<std::string> names;
  std::string source;  // where `names` came from; empty when there was no expectation
};

inline ExpectedKernels expected_runnable_kernels() {
  const char* from_environment = std::getenv("SPONGE_EXPECTED_RUNNABLE_KERNELS");
  if (from_environment != nullptr && *from_environment != '\0') {
    return {split_kernel_list(from_environment),
            "SPONGE_EXPECTED_RUNNABLE_KERNELS=" + std::string(from_environment)};
  }
#if defined(SPONGE_RUNNABLE_KERNELS)
  return {split_kernel_list(SPONGE_RUNNABLE_KERNELS),
          "configure time: " + std::string(SPONGE_RUNNABLE_KERNELS)};
#elif defined(SPONGE_RUNNABLE_KERNELS_FROM_ENVIRONMENT)
  return {};
#else
#error "tests/kernels/CMakeLists.txt defines SPONGE_RUNNABLE_KERNELS or ..._FROM_ENVIRONMENT"
#endif
}

// The names of `expected` that are not in `tested`.
inline std::vector<std::string> missing_kernels(const ExpectedKernels& expected,
                                                const std::vector<std::string>& tested) {
  std::vector<std::string> missing;
  for (const std::string& name : expected.names) {
    bool found = false;
    for (const std::string& done : tested)
      found = found || done == name;
    if (!found) missing.push_back(name);
  }
  return missing;
}

inline std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names)
    out += (out.empty() ? "" : ",") + name;
  return out;
}

// An x86-64 CPU with BMI1 and BMI2, asked through the compiler's own CPU model rather than
// the runtime's cpuid code, so the two can check each other.
inline bool cpu_has_bmi1_bmi2_independently() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#else
  return false;
#endif
}

#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)
// Whether this CPU executes the instruction `try_instruction` runs, tried in a child process
// that a CPU without the instruction's extension kills with SIGILL. The runtime never tries an
// instruction (it believes riscv_hwprobe, SPONGE_RISCV_EXTENSIONS, AT_HWCAP and the ISA
// string), so this checks what it was told against the CPU itself.
inline bool riscv_cpu_executes(void (*try_instruction)()) {
  const pid_t child = fork();
  if (child < 0) return false;
  if (child == 0) {
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    std::signal(SIGILL, SIG_DFL);  // not doctest's handler: the parent reads the signal
    try_instruction();
    _exit(0);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

inline void try_zbb_instruction() {
  asm volatile(".option push\n.option arch, +zbb\nrori t0, t0, 1\n.option pop" ::: "t0");
}

inline void try_v_instruction() {
  asm volatile(".option push\n.option arch, +v\nvsetivli t0, 1, e64, m1, ta, ma\n.option pop" ::
                   : "t0");
}

inline bool cpu_has_zbb_independently() {
  return riscv_cpu_executes(try_zbb_instruction);
}

// VLEN in bits from the vlenb CSR, or 0 where the CPU has no V (reading it would trap).
inline unsigned cpu_vlen_bits_independently() {
  if (!riscv_cpu_executes(try_v_instruction)) return 0;
  unsigned long vlenb = 0;
  asm volatile(".option push\n.option arch, +v\ncsrr %0, vlenb\n.option pop" : "=r"(vlenb));
  return static_cast<unsigned>(vlenb * 8);
}
#endif

}  // namespace sponge_kernel_test
