// The dispatcher's view of a multi-state ("batch") Keccak-p[1600] kernel: one call permutes
// N independent states (N = 4 for AVX2, 8 for AVX-512, 2 for arm64). The states are
// lane-interleaved: lane i of state s is at states[N * i + s] (25 * N words), so a vector
// register holds lane i of all N states. The table mirrors KeccakKernel: a permute entry and
// one fused absorb entry per rate, at 24 and at 12 rounds, all built at compile time from the
// generator's entry list (X(kind, permutation, rounds, rate_bytes, lanes = N, symbol)).
//
// The fused entry (BatchAbsorbFn, kernel.hpp) absorbs one block per state per call, as the
// single-state entries do: the generated kernels keep the states in memory between rounds
// anyway, so a call costs only its prologue and the scratch wipe (amd64-avx2-x4: about 30
// instructions against 5,200 for the permutation), and the scheduler (batch_hash.hpp) loops
// over the blocks. Block pointers may be unaligned and may alias each other (an idle slot
// reads an active slot's block).
//
// The batch hash functions use the kernel of family KernelFamily::keccak_p1600_batch, forced
// with SPONGE_BATCH_KERNEL (the same rules as SPONGE_KERNEL). Besides the generated kernels
// the family has two C++ members:
//   portable-x4  four states on the portable permutation: the reference a generated kernel is
//                tested against, and the scheduler's test bed on every platform. Only ever
//                chosen by name: on its own it is slower than `single`.
//   single       a pseudo-kernel of one state (N = 1) on the active single-state kernel; the
//                scheduler hashes message by message with it. The default where this CPU
//                runs no multi-state kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

#include "keccak/keccak_kernel.hpp"

namespace sponge::detail {

using BatchPermuteFn = void (*)(std::uint64_t* states) noexcept;

// The most states a batch kernel permutes per call (AVX-512): the scheduler's stack buffers
// are sized for it.
inline constexpr int kMaxBatchStates = 8;

struct KeccakBatchKernel {
  std::string_view name;
  bool (*cpu_supports)() noexcept;
  int states;                            // N
  bool chosen_by_default;                // false: only SPONGE_BATCH_KERNEL=<name> picks it
  BatchPermuteFn permute;                // Keccak-f[1600] on the N states
  BatchAbsorbFn absorb[kRateCount];      // 24 rounds, indexed like kRates
  BatchPermuteFn permute12;              // Keccak-p[1600, 12]
  BatchAbsorbFn absorb12[kRate12Count];  // 12 rounds, indexed like kRates12
  // The block entries, where the kernel has them (the tree modes' leaf rates): indexed like
  // kRates and kRates12, null where absent.
  BatchAbsorbBlocksFn absorb_blocks[kRateCount];
  BatchAbsorbBlocksFn absorb_blocks12[kRate12Count];

  BatchPermuteFn permute_for(int rounds) const noexcept {
    return rounds == kReducedRounds ? permute12 : permute;
  }
  // The fused entry for `rate_bytes` at `rounds`, as KeccakKernel::absorb_for.
  BatchAbsorbFn absorb_for(std::size_t rate_bytes, int rounds) const noexcept;
  // The block entry for `rate_bytes` at `rounds`, or null.
  BatchAbsorbBlocksFn absorb_blocks_for(std::size_t rate_bytes, int rounds) const noexcept;
};

namespace keccak_table {

template <std::size_t N>
constexpr const KeccakEntry& find_batch(const KeccakEntry (&entries)[N], int states, bool absorb,
                                        int rounds, std::size_t rate_bytes) {
  for (const KeccakEntry& entry : entries) {
    if ((entry.batch_absorb != nullptr) == absorb && entry.rounds == rounds &&
        entry.rate_bytes == rate_bytes && entry.lanes == states &&
        (absorb || entry.permute != nullptr)) {
      return entry;
    }
  }
  // Reached only in constant evaluation (make_keccak_batch_kernel), where it stops the build.
  throw std::logic_error("a Keccak batch kernel lacks an entry the table needs");
}

template <std::size_t N>
constexpr BatchAbsorbBlocksFn find_batch_blocks(const KeccakEntry (&entries)[N], int states,
                                                int rounds, std::size_t rate_bytes) {
  for (const KeccakEntry& entry : entries) {
    if (entry.batch_absorb_blocks != nullptr && entry.rounds == rounds &&
        entry.rate_bytes == rate_bytes && entry.lanes == states) {
      return entry.batch_absorb_blocks;
    }
  }
  return nullptr;
}

}  // namespace keccak_table

// A batch kernel's table from its entry list, at compile time, reading the entries of
// `states` lanes: an entry the table needs and the list lacks fails the build, as does a
// multi-state entry with the single-state absorb signature.
template <std::size_t N>
constexpr KeccakBatchKernel make_keccak_batch_kernel(std::string_view name,
                                                     bool (*cpu_supports)() noexcept, int states,
                                                     bool chosen_by_default,
                                                     const KeccakEntry (&entries)[N]) {
  using keccak_table::find_batch;
  keccak_table::check_signatures(entries);
  if (states < 1 || states > kMaxBatchStates) {
    throw std::logic_error("a Keccak batch kernel has an unsupported number of states");
  }
  KeccakBatchKernel kernel{name, cpu_supports, states, chosen_by_default, nullptr, {}, nullptr,
                           {},   {},           {}};
  kernel.permute = find_batch(entries, states, false, kFullRounds, 0).permute;
  for (std::size_t slot = 0; slot < kRateCount; ++slot) {
    kernel.absorb[slot] = find_batch(entries, states, true, kFullRounds, kRates[slot]).batch_absorb;
  }
  kernel.permute12 = find_batch(entries, states, false, kReducedRounds, 0).permute;
  for (std::size_t slot = 0; slot < kRate12Count; ++slot) {
    kernel.absorb12[slot] =
        find_batch(entries, states, true, kReducedRounds, kRates12[slot]).batch_absorb;
    kernel.absorb_blocks12[slot] =
        keccak_table::find_batch_blocks(entries, states, kReducedRounds, kRates12[slot]);
  }
  for (std::size_t slot = 0; slot < kRateCount; ++slot) {
    kernel.absorb_blocks[slot] =
        keccak_table::find_batch_blocks(entries, states, kFullRounds, kRates[slot]);
  }
  return kernel;
}

// One state's 25 lanes copied between a column of N interleaved states (lane i at
// column[stride * i]) and a plain 25-lane state, for the steps that run one state on the
// single-state kernel. Not inlined, on purpose: inlined into a caller that then calls a
// kernel, the copy loop may leave its last lane in a callee-saved register, which the next
// kernel that saves that register pushes into its frame (the residue test found lane 24
// there); a leaf function keeps the lanes in call-clobbered registers.
[[gnu::noinline]] void copy_column_to_lanes(const std::uint64_t* column, std::size_t stride,
                                            std::uint64_t* lanes) noexcept;
[[gnu::noinline]] void copy_lanes_to_column(const std::uint64_t* lanes, std::uint64_t* column,
                                            std::size_t stride) noexcept;

// Every batch kernel compiled into this library, best first; "single" is last.
std::span<const KeccakBatchKernel* const> compiled_batch_kernels() noexcept;

// The batch kernel chosen for this process: SPONGE_BATCH_KERNEL=<name> forces one (unknown,
// or not runnable here: the process ends with a message); unset, the first kernel this CPU
// runs that is chosen by default.
const KeccakBatchKernel& active_batch_kernel() noexcept;

}  // namespace sponge::detail
