#include "model/keccak.hpp"

#include <stdexcept>
#include <string>

#include "keccak/keccak_constants.hpp"  // the runtime's published tables, for the cross-check

namespace spongegen::keccak {
namespace {

// FIPS 202 Algorithm 5, rc(t): one bit of the LFSR x^8 + x^6 + x^5 + x^4 + 1.
bool lfsr_bit(int t) {
  if (t % 255 == 0) return true;
  unsigned r = 0x01;  // R = 10000000, bit i of R stored as bit i of r
  for (int i = 1; i <= t % 255; ++i) {
    r <<= 1;  // R = 0 || R
    const unsigned r8 = (r >> 8) & 1;
    r ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);  // R[0,4,5,6] ^= R[8]
    r &= 0xff;                                    // R = Trunc8(R)
  }
  return (r & 1) != 0;
}

std::array<std::uint64_t, kRounds> compute_round_constants() {
  std::array<std::uint64_t, kRounds> constants{};
  for (int round = 0; round < kRounds; ++round) {
    for (int j = 0; j <= 6; ++j) {
      if (lfsr_bit(j + 7 * round)) constants[round] |= std::uint64_t{1} << ((1 << j) - 1);
    }
  }
  return constants;
}

std::array<int, kLanes> compute_rho_offsets() {
  std::array<int, kLanes> offsets{};
  int x = 1, y = 0;
  for (int t = 0; t < 24; ++t) {
    offsets[lane_index(x, y)] = ((t + 1) * (t + 2) / 2) % 64;
    const int next_y = (2 * x + 3 * y) % 5;
    x = y;
    y = next_y;
  }
  return offsets;
}

// pi moves lane (x, y) to (y, 2x + 3y); so B[X, Y] comes from (x, y) with X = y and
// Y = 2x + 3y, i.e. x = 3 (Y - 3X) mod 5 (3 is the inverse of 2 mod 5).
std::array<std::array<ChiInput, 5>, 5> compute_chi_rows(const std::array<int, kLanes>& rho) {
  std::array<std::array<ChiInput, 5>, 5> rows{};
  for (int Y = 0; Y < 5; ++Y) {
    for (int X = 0; X < 5; ++X) {
      const int y = X;
      const int x = ((3 * (Y - 3 * X)) % 5 + 5) % 5;
      rows[Y][X] = ChiInput{lane_index(x, y), rho[lane_index(x, y)]};
    }
  }
  return rows;
}

Model compute_model() {
  Model m;
  m.round_constants = compute_round_constants();
  m.rho_offsets = compute_rho_offsets();
  m.chi_rows = compute_chi_rows(m.rho_offsets);
  m.rates = {
      {72, "SHA3-512"},  {104, "SHA3-384"}, {136, "SHA3-256, SHAKE256, Keccak-256"},
      {144, "SHA3-224"}, {168, "SHAKE128"},
  };
  m.variants = {
      {kRounds,
       "keccak-f1600",
       "keccakf1600",
       m.rates,
       {{136, "ParallelHash256's leaves"}, {168, "ParallelHash128's leaves"}}},
      {12,
       "keccak-p1600",
       "keccakp1600_12",
       {{136, "TurboSHAKE256, KT256"}, {168, "TurboSHAKE128, KT128"}},
       {{136, "KT256's leaves"}, {168, "KT128's leaves"}}},
  };
  for (int round = 0; round < kRounds; ++round) {
    if (m.round_constants[round] != sponge::detail::kKeccakRoundConstants[round]) {
      throw std::logic_error("Keccak model: LFSR round constant " + std::to_string(round) +
                             " differs from the published table");
    }
  }
  for (int lane = 0; lane < kLanes; ++lane) {
    if (m.rho_offsets[lane] != sponge::detail::kKeccakRhoOffsets[lane]) {
      throw std::logic_error("Keccak model: rho offset of lane " + std::to_string(lane) +
                             " differs from the published table");
    }
  }
  return m;
}

}  // namespace

const Model& model() {
  static const Model computed = compute_model();
  return computed;
}

}  // namespace spongegen::keccak
