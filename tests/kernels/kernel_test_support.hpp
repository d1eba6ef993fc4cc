// Helpers shared by the kernel tests under tests/kernels: which kernels this CPU can run,
// every entry of a kernel, and the portable reference of one entry call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernel.hpp"

namespace sponge_kernel_test {

using sponge::detail::KeccakKernel;

// One entry of a kernel: the permute entry (slot -1, rate 0) or absorb[slot].
struct Entry {
  const KeccakKernel* kernel = nullptr;
  int slot = -1;
  std::size_t rate = 0;

  std::string name() const {
    return std::string(kernel->name) +
           (slot < 0 ? std::string(".permute") : ".absorb" + std::to_string(rate));
  }
  // The entry's code address, for the ABI shim and the PC range checks.
  void* address() const {
    return slot < 0 ? reinterpret_cast<void*>(kernel->permute)
                    : reinterpret_cast<void*>(kernel->absorb[slot]);
  }
  void call(std::uint64_t* state, const std::uint8_t* block) const {
    if (slot < 0) {
      kernel->permute(state);
    } else {
      kernel->absorb[slot](state, block);
    }
  }
};

inline std::vector<Entry> entries_of(const KeccakKernel& kernel) {
  std::vector<Entry> entries{{&kernel, -1, 0}};
  for (std::size_t slot = 0; slot < sponge::detail::kRateCount; ++slot) {
    entries.push_back({&kernel, static_cast<int>(slot), sponge::detail::kRates[slot]});
  }
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
// little-endian, assembled byte by byte in C++ (no alignment assumed), then permute with
// the portable Keccak-f[1600].
inline void reference_call(std::uint64_t* state, const std::uint8_t* block, std::size_t rate) {
  for (std::size_t lane = 0; lane < rate / 8; ++lane) {
    std::uint64_t value = 0;
    for (std::size_t byte = 0; byte < 8; ++byte) {
      value |= std::uint64_t{block[8 * lane + byte]} << (8 * byte);
    }
    state[lane] ^= value;
  }
  sponge::detail::keccak_f1600_portable(state);
}

// The kernels the build decided, at configure time, that this CPU can run
// (SPONGE_RUNNABLE_KERNELS, a comma-separated compile definition set by
// tests/kernels/CMakeLists.txt from cmake/SpongeRunnableKernels.cmake).
inline std::vector<std::string> configured_runnable_kernels() {
#ifndef SPONGE_RUNNABLE_KERNELS
#error "SPONGE_RUNNABLE_KERNELS must be defined by tests/kernels/CMakeLists.txt"
#endif
  std::vector<std::string> names;
  std::string_view list = SPONGE_RUNNABLE_KERNELS;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    names.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return names;
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

}  // namespace sponge_kernel_test
