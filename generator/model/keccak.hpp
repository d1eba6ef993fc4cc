// Keccak-f[1600] as plain data: everything a kernel builder needs to know about the
// permutation, and nothing about any instruction set.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spongegen::keccak {

inline constexpr int kLanes = 25;
inline constexpr int kRounds = 24;
inline constexpr int kStateBytes = 200;

// Lane (x, y) lives at index x + 5y; bytes are little-endian.
constexpr int lane_index(int x, int y) {
  return x + 5 * y;
}

// Where one input of chi comes from after theta, rho and pi: B[x, y] = rotl(A'[lane], rotation)
// with A' the state after theta.
struct ChiInput {
  int lane;
  int rotation;  // left rotation, 0..63
};

// A sponge rate that kernels serve with a fused absorb entry.
struct Rate {
  int bytes;
  std::string_view used_by;
  constexpr int lanes() const { return bytes / 8; }
};

// A round count the kernels serve, with the rates of its fused absorb entries. Keccak-p
// [1600, n] is the last n rounds of Keccak-f[1600]: it starts at round constant 24 - n.
struct RoundVariant {
  int rounds;
  std::string_view permutation;  // the name manifests and headers print
  std::string_view symbol_stem;  // in entry symbols: sponge_<stem>_<kernel>[_absorb<rate>]
  std::vector<Rate> absorb_rates;
  // The rates of the tree modes' leaves (KangarooTwelve at 12 rounds, ParallelHash at 24):
  // the multi-state kernels' entries that absorb many blocks a call serve these.
  std::vector<Rate> leaf_rates;
  int first_round() const { return kRounds - rounds; }
};

struct Model {
  // iota: computed with the degree-8 LFSR of FIPS 202 (Algorithm 5).
  std::array<std::uint64_t, kRounds> round_constants;
  // rho: rotation of lane x + 5y, computed with FIPS 202 Algorithm 2.
  std::array<int, kLanes> rho_offsets;
  // pi then rho, grouped the way chi consumes them: chi_rows[y][x] is the source of B[x, y].
  // Row y of chi reads only chi_rows[y] and writes lanes 5y .. 5y + 4.
  std::array<std::array<ChiInput, 5>, 5> chi_rows;
  // The rates with fused absorb entries, smallest first.
  std::vector<Rate> rates;
  // Every round count with kernel entries: Keccak-f[1600] first, then Keccak-p[1600, 12]
  // (TurboSHAKE and KangarooTwelve, RFC 9861) at its two rates.
  std::vector<RoundVariant> variants;
};

// The model, computed once. Throws if the computed constants disagree with the published
// tables the runtime carries.
const Model& model();

}  // namespace spongegen::keccak
