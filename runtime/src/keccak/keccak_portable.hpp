// The portable Keccak-p[1600] reference: usable on any CPU and any endianness. The
// generator's JIT self-check compiles it too, so this header needs nothing generated.
#pragma once

#include <cstdint>

namespace sponge::detail {

void keccak_f1600_portable(std::uint64_t* state) noexcept;
// Keccak-p[1600, 12]: rounds 12 .. 24 of Keccak-f[1600] (TurboSHAKE, KangarooTwelve).
void keccak_p1600_12_portable(std::uint64_t* state) noexcept;
// Rounds first_round .. end_round - 1 of Keccak-f[1600] (round constants by round index);
// keccak_f1600_portable is rounds 0 .. 24, Keccak-p[1600, 12] rounds 12 .. 24. The tests
// step through a permutation with it.
void keccak_p1600_rounds_portable(std::uint64_t* state, int first_round, int end_round) noexcept;

}  // namespace sponge::detail
