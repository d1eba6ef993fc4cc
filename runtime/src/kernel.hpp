// The dispatcher's view of a Keccak-f[1600] kernel: a permute-only entry and one fused
// "XOR one full rate block into the state, then permute" entry per rate. The sponge modes
// only ever call through this table, so a new kernel plugs in without touching them.
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

struct KeccakKernel {
  std::string_view name;
  bool (*cpu_supports)() noexcept;
  PermuteFn permute;
  AbsorbFn absorb[kRateCount];  // indexed like kRates

  // The fused entry for `rate_bytes`, which must be one of kRates.
  AbsorbFn absorb_for(std::size_t rate_bytes) const noexcept;
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

}  // namespace sponge::detail
