// The check every searched round schedule passes before a builder may use it: one round of
// Keccak-f[1600] without iota, from the runtime's portable reference, on random states.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string_view>

namespace spongegen::kernels {

using KeccakLanes = std::array<std::uint64_t, 25>;

// theta, rho, pi and chi of round 0 (iota is the kernels' own last step).
KeccakLanes keccak_round_without_iota(const KeccakLanes& lanes);

// Runs `schedule` (lanes in, lanes out) on `trials` seeded random states and throws
// GenerationError naming `what` if any result differs from keccak_round_without_iota.
void check_round_schedule(std::string_view what,
                          const std::function<KeccakLanes(const KeccakLanes&)>& schedule,
                          int trials = 64);

}  // namespace spongegen::kernels
