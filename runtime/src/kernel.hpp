// The dispatcher's view of a Keccak kernel: for Keccak-f[1600] (24 rounds) and for
// Keccak-p[1600,12] (the last 12 rounds: TurboSHAKE, KangarooTwelve), a permute-only entry
// and fused "XOR one full rate block into the state, then permute" entries per rate. The
// sponge modes only ever call through permute_for and absorb_for, so a new kernel or a new
// round count plugs in without touching them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sponge::detail {

using PermuteFn = void (*)(std::uint64_t* state) noexcept;
// `block` holds exactly one rate block and may have any alignment.
using AbsorbFn = void (*)(std::uint64_t* state, const std::uint8_t* block) noexcept;

// The rates every kernel serves, in bytes: SHA3-512, SHA3-384, SHA3-256/SHAKE256/Keccak-256,
// SHA3-224, SHAKE128.
inline constexpr std::size_t kRates[] = {72, 104, 136, 144, 168};
inline constexpr std::size_t kRateCount = std::size(kRates);

// The round counts a kernel serves: Keccak-f[1600], and Keccak-p[1600,12] (RFC 9861).
inline constexpr int kFullRounds = 24;
inline constexpr int kReducedRounds = 12;
// The rates of the 12-round absorb entries, in bytes: TurboSHAKE256/KT256, TurboSHAKE128/KT128.
inline constexpr std::size_t kReducedRoundRates[] = {136, 168};
inline constexpr std::size_t kReducedRoundRateCount = std::size(kReducedRoundRates);

struct KeccakKernel {
  std::string_view name;
  bool (*cpu_supports)() noexcept;
  PermuteFn permute;
  AbsorbFn absorb[kRateCount];  // indexed like kRates
  // Keccak-p[1600,12]: rounds 12 .. 23 of Keccak-f[1600].
  PermuteFn permute_reduced_rounds;
  AbsorbFn absorb_reduced_rounds[kReducedRoundRateCount];  // indexed like kReducedRoundRates

  // The permute-only entry for `rounds`: kFullRounds or kReducedRounds.
  PermuteFn permute_for(int rounds) const noexcept;
  // The fused entry for `rate_bytes` and `rounds`: one of kRates with kFullRounds, one of
  // kReducedRoundRates with kReducedRounds.
  AbsorbFn absorb_for(std::size_t rate_bytes, int rounds) const noexcept;
  // The 24-round fused entry for `rate_bytes`, one of kRates.
  AbsorbFn absorb_for(std::size_t rate_bytes) const noexcept {
    return absorb_for(rate_bytes, kFullRounds);
  }
};

// Every kernel compiled into this library, best first; "portable" is always last.
std::span<const KeccakKernel* const> compiled_kernels() noexcept;

// The kernel chosen for this process (see sponge::active_kernel for the rules).
const KeccakKernel& active_keccak_kernel() noexcept;

// The portable reference, usable on any CPU and any endianness.
void keccak_f1600_portable(std::uint64_t* state) noexcept;
// Rounds first_round .. end_round - 1 of Keccak-f[1600] (round constants by round index);
// keccak_f1600_portable is rounds 0 .. 24. The tests step through a permutation with it.
void keccak_p1600_rounds_portable(std::uint64_t* state, int first_round, int end_round) noexcept;

// Keccak-p[1600,12] on the portable code, and its fused absorb entries. Every kernel's
// 12-round entries point here until the generated Keccak-p[1600,12] entries replace them.
void keccak_p1600_12_portable(std::uint64_t* state) noexcept;
void keccak_p1600_12_absorb136_portable(std::uint64_t* state, const std::uint8_t* block) noexcept;
void keccak_p1600_12_absorb168_portable(std::uint64_t* state, const std::uint8_t* block) noexcept;

}  // namespace sponge::detail
