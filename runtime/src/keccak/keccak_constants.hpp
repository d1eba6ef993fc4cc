// Keccak-f[1600] constants, as published in FIPS 202 and by the Keccak team.
// The generator recomputes the round constants with the FIPS 202 LFSR and checks them
// against this table, so the table and the generator's model cannot drift apart.
#pragma once

#include <array>
#include <cstdint>

namespace sponge::detail {

inline constexpr int kKeccakRounds = 24;
inline constexpr int kKeccakLanes = 25;

inline constexpr std::array<std::uint64_t, kKeccakRounds> kKeccakRoundConstants = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

// rho rotation of lane x + 5y.
inline constexpr std::array<int, kKeccakLanes> kKeccakRhoOffsets = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

}  // namespace sponge::detail
