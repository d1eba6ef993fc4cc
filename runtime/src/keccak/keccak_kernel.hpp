// The dispatcher's view of a Keccak-p[1600] kernel: for Keccak-f[1600] (24 rounds) a
// permute-only entry and one fused "XOR one full rate block into the state, then permute"
// entry per rate; the same for Keccak-p[1600, 12] (TurboSHAKE, KangarooTwelve) at its two
// rates. The sponge modes only ever call through this table, so a new kernel plugs in
// without touching them. A generated kernel's table is built at compile time from the
// entry list the generator writes (generated/sponge_kernels.h), see make_keccak_kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string_view>

#include "keccak/keccak_constants.hpp"
#include "keccak/keccak_portable.hpp"
#include "sponge_kernels.h"  // generated: prototypes, entry lists, CPU features

namespace sponge::detail {

using PermuteFn = void (*)(std::uint64_t* state) noexcept;
// `block` holds exactly one rate block and may have any alignment.
using AbsorbFn = void (*)(std::uint64_t* state, const std::uint8_t* block) noexcept;
// A multi-state ("batch") kernel's fused entry (batch_kernel.hpp): `states` holds N
// lane-interleaved states; the rate block at blocks[s] is XORed into state s, then all N
// are permuted. One block per call, like AbsorbFn: the loop over blocks is the caller's.
using BatchAbsorbFn = void (*)(std::uint64_t* states, const std::uint8_t* const* blocks) noexcept;
// A multi-state entry that absorbs block_count consecutive blocks from each blocks[s].
using BatchAbsorbBlocksFn = void (*)(std::uint64_t* states, const std::uint8_t* const* blocks,
                                     std::size_t block_count) noexcept;

// The rates every kernel serves at 24 rounds, in bytes: SHA3-512, SHA3-384,
// SHA3-256/SHAKE256/Keccak-256, SHA3-224, SHAKE128.
inline constexpr std::size_t kRates[] = {72, 104, 136, 144, 168};
inline constexpr std::size_t kRateCount = std::size(kRates);
// The rates every kernel serves at 12 rounds: TurboSHAKE256/KT256, TurboSHAKE128/KT128.
inline constexpr std::size_t kRates12[] = {136, 168};
inline constexpr std::size_t kRate12Count = std::size(kRates12);

// The round counts a kernel serves: Keccak-f[1600], and Keccak-p[1600,12] (RFC 9861).
inline constexpr int kFullRounds = kKeccakRounds;
inline constexpr int kReducedRounds = 12;

// The fused entry for `rate_bytes` at `rounds` from a table's two absorb arrays (indexed like
// kRates and kRates12): the one lookup of the one-state and the batch tables.
template <class AbsorbEntry>
AbsorbEntry absorb_entry_for(const AbsorbEntry (&absorb)[kRateCount],
                             const AbsorbEntry (&absorb12)[kRate12Count], std::size_t rate_bytes,
                             int rounds) noexcept {
  const std::span<const std::size_t> rates = rounds == kFullRounds
                                                 ? std::span<const std::size_t>(kRates)
                                                 : std::span<const std::size_t>(kRates12);
  const AbsorbEntry* entries = rounds == kFullRounds ? absorb : absorb12;
  if (rounds == kFullRounds || rounds == kReducedRounds) {
    for (std::size_t slot = 0; slot < rates.size(); ++slot) {
      if (rates[slot] == rate_bytes) return entries[slot];
    }
  }
  std::abort();  // unreachable: the modes only use the rates of kRates and kRates12
}

struct KeccakKernel {
  std::string_view name;
  bool (*cpu_supports)() noexcept;
  PermuteFn permute;                // Keccak-f[1600]
  AbsorbFn absorb[kRateCount];      // 24 rounds, indexed like kRates
  PermuteFn permute12;              // Keccak-p[1600, 12]
  AbsorbFn absorb12[kRate12Count];  // 12 rounds, indexed like kRates12

  // The permutation of `rounds` (24 or 12) rounds.
  PermuteFn permute_for(int rounds) const noexcept;
  // The fused entry for `rate_bytes` at `rounds`: 24 rounds serve kRates, 12 rounds kRates12.
  AbsorbFn absorb_for(std::size_t rate_bytes, int rounds) const noexcept;
  // The 24-round fused entry for `rate_bytes`, which must be one of kRates.
  AbsorbFn absorb_for(std::size_t rate_bytes) const noexcept {
    return absorb_for(rate_bytes, kFullRounds);
  }
};

// One entry of a kernel as its entry list declares it (see make_keccak_kernel). `lanes` is
// the number of states one call permutes: a single-state entry (lanes 1) absorbs with
// AbsorbFn, a multi-state entry (lanes > 1) with BatchAbsorbFn; the overload of
// keccak_entry_absorb the symbol's signature picks records which it is, and a table builder
// refuses an entry whose signature does not match its lanes.
struct KeccakEntry {
  int rounds;
  std::size_t rate_bytes;  // 0 for a permute entry
  int lanes;
  PermuteFn permute;
  AbsorbFn absorb;
  BatchAbsorbFn batch_absorb;
  BatchAbsorbBlocksFn batch_absorb_blocks = nullptr;
};

constexpr KeccakEntry keccak_entry_permute(int rounds, std::size_t rate_bytes, int lanes,
                                           PermuteFn function) {
  return {rounds, rate_bytes, lanes, function, nullptr, nullptr};
}
constexpr KeccakEntry keccak_entry_absorb(int rounds, std::size_t rate_bytes, int lanes,
                                          AbsorbFn function) {
  return {rounds, rate_bytes, lanes, nullptr, function, nullptr};
}
constexpr KeccakEntry keccak_entry_absorb(int rounds, std::size_t rate_bytes, int lanes,
                                          BatchAbsorbFn function) {
  return {rounds, rate_bytes, lanes, nullptr, nullptr, function};
}
constexpr KeccakEntry keccak_entry_absorb(int rounds, std::size_t rate_bytes, int lanes,
                                          BatchAbsorbBlocksFn function) {
  return {rounds, rate_bytes, lanes, nullptr, nullptr, nullptr, function};
}

// Turns an entry list of generated/sponge_kernels.h, X(kind, permutation, rounds, rate,
// lanes, symbol), into KeccakEntry initializers.
#define SPONGE_KECCAK_ENTRY(kind, permutation, rounds, rate_bytes, lanes, symbol) \
  ::sponge::detail::keccak_entry_##kind(rounds, rate_bytes, lanes, symbol),

namespace keccak_table {

// Stops the build (in constant evaluation) when a multi-state entry has the single-state
// absorb signature: its kernel would read one block where N are meant.
template <std::size_t N>
constexpr void check_signatures(const KeccakEntry (&entries)[N]) {
  for (const KeccakEntry& entry : entries) {
    if (entry.lanes > 1 && entry.absorb != nullptr) {
      throw std::logic_error("a multi-state Keccak entry has the single-state absorb signature");
    }
  }
}

template <std::size_t N>
constexpr const KeccakEntry& find(const KeccakEntry (&entries)[N], bool absorb, int rounds,
                                  std::size_t rate_bytes) {
  for (const KeccakEntry& entry : entries) {
    if ((entry.absorb != nullptr) == absorb && entry.rounds == rounds &&
        entry.rate_bytes == rate_bytes && entry.lanes == 1) {
      return entry;
    }
  }
  // Reached only in constant evaluation (make_keccak_kernel), where it stops the build.
  throw std::logic_error("a Keccak kernel lacks an entry the table needs");
}

}  // namespace keccak_table

// A kernel's table from its entry list, at compile time: an entry the table needs and the
// list lacks fails the build, so a kernel can never ship with a hole.
template <std::size_t N>
constexpr KeccakKernel make_keccak_kernel(std::string_view name, bool (*cpu_supports)() noexcept,
                                          const KeccakEntry (&entries)[N]) {
  keccak_table::check_signatures(entries);
  KeccakKernel kernel{name, cpu_supports, nullptr, {}, nullptr, {}};
  kernel.permute = keccak_table::find(entries, false, kFullRounds, 0).permute;
  for (std::size_t slot = 0; slot < kRateCount; ++slot) {
    kernel.absorb[slot] = keccak_table::find(entries, true, kFullRounds, kRates[slot]).absorb;
  }
  kernel.permute12 = keccak_table::find(entries, false, kReducedRounds, 0).permute;
  for (std::size_t slot = 0; slot < kRate12Count; ++slot) {
    kernel.absorb12[slot] =
        keccak_table::find(entries, true, kReducedRounds, kRates12[slot]).absorb;
  }
  return kernel;
}

// Whether this CPU has every feature of a generated kernel's declaration.
bool cpu_has_features(std::span<const sponge_cpu_feature> features) noexcept;

// Every Keccak-p[1600] kernel compiled into this library, best first; "portable" is last.
std::span<const KeccakKernel* const> compiled_kernels() noexcept;

// The kernel the dispatcher prefers where CPU features alone do not decide (arm64: by core,
// arm64_core_choice.hpp), or empty.
std::string_view preferred_keccak_kernel() noexcept;

// The kernel chosen for this process (see sponge::active_kernel for the rules).
const KeccakKernel& active_keccak_kernel() noexcept;

}  // namespace sponge::detail
