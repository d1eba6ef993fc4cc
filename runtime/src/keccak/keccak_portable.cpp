// The portable Keccak-f[1600]: the fallback kernel on CPUs without BMI2 or the SHA3
// extension, and the reference every generated kernel is tested against.
//
// The 25 lanes live in locals for the whole permutation, so the compiler keeps as many in
// registers as the target has; one round is written out once (theta, rho and pi, chi, iota)
// and run twice a turn, from one set of lanes into another and back. Lanes are loaded from rate
// blocks as little-endian bytes, so the result is the same on any endianness.
#include <bit>
#include <cstring>

#include "keccak/keccak_constants.hpp"
#include "keccak/keccak_portable.hpp"
#include "support/byte_order.hpp"
#include "support/wipe.hpp"

namespace sponge::detail {
namespace {

// A bound on the stack keccak_p1600_rounds_portable uses below its caller. Its frame, by
// -fstack-usage with GCC 12 at -O2 and -O3: 408 bytes on x86-64, 416 on arm64, 528 for
// mingw-w64 (Windows x64); plus the return address. Unoptimised and sanitised builds keep
// every local in memory, with redzones. tests/test_residue.cpp checks the bound holds on
// every build scripts/test makes.
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kPortableRoundsStackBytes = 768;
#else
constexpr std::size_t kPortableRoundsStackBytes = 8192;
#endif

// The 25 lanes as named members, not an array: GCC 12 keeps the lanes of two such structs
// in registers and spills as it schedules, where with two `std::uint64_t[25]` it kept 25% more
// loads and stores and was 4% (generic x86-64) to 8% (BMI2) slower.
struct Lanes {
  std::uint64_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18,
      a19, a20, a21, a22, a23, a24;
};

// Theta's column parities C[x] = xor of column x.
struct ColumnParities {
  std::uint64_t c0, c1, c2, c3, c4;
};

[[gnu::always_inline]] inline ColumnParities column_parities(const Lanes& lanes) noexcept {
  return {lanes.a0 ^ lanes.a5 ^ lanes.a10 ^ lanes.a15 ^ lanes.a20,
          lanes.a1 ^ lanes.a6 ^ lanes.a11 ^ lanes.a16 ^ lanes.a21,
          lanes.a2 ^ lanes.a7 ^ lanes.a12 ^ lanes.a17 ^ lanes.a22,
          lanes.a3 ^ lanes.a8 ^ lanes.a13 ^ lanes.a18 ^ lanes.a23,
          lanes.a4 ^ lanes.a9 ^ lanes.a14 ^ lanes.a19 ^ lanes.a24};
}

// Writes one chi output and adds it to its column's parity for the next round.
[[gnu::always_inline]] inline void chi_output(std::uint64_t& lane, std::uint64_t& parity,
                                              std::uint64_t value) noexcept {
  lane = value;
  parity ^= value;
}

// One round from `in` to `out`; `parities` holds in's column parities and is given out's.
// Writing to a second set of lanes (as ethash and the Keccak team's reference do, two
// rounds a turn: in -> out, then out -> in) leaves the compiler no lane to copy between
// rounds, and gathering out's parities lane by lane as chi writes them lets it do so while
// the lanes are still in registers. Measured on an AMD EPYC (Zen 3), TSC ticks per
// permutation, minimum of 600 trials, GCC 12 -O3, generic x86-64: keccak_f1600_portable with
// its stack wipe 997 for one round a turn on 25 locals, 894 as written here; the rounds
// alone 877 two rounds a turn, 869 with the parities gathered (718 to 728, by code
// placement, with BMI1 and BMI2 enabled); chfast/ethash's keccak.c in the same run, GCC 12
// -O2: 850 (715).
[[gnu::always_inline]] inline void keccak_round(const Lanes& in, Lanes& out,
                                                ColumnParities& parities,
                                                std::uint64_t round_constant) noexcept {
  // theta's D values
  const std::uint64_t d0 = parities.c4 ^ std::rotl(parities.c1, 1);
  const std::uint64_t d1 = parities.c0 ^ std::rotl(parities.c2, 1);
  const std::uint64_t d2 = parities.c1 ^ std::rotl(parities.c3, 1);
  const std::uint64_t d3 = parities.c2 ^ std::rotl(parities.c4, 1);
  const std::uint64_t d4 = parities.c3 ^ std::rotl(parities.c0, 1);
  parities = {};
  // rho and pi, then chi, one output row at a time: row y of chi reads
  // b[x] = rotl(in[x', y'] ^ d[x'], r[x', y']) for the lane (x', y') pi moves to (x, y).
  std::uint64_t b0, b1, b2, b3, b4;
  b0 = in.a0 ^ d0;
  b1 = std::rotl(in.a6 ^ d1, 44);
  b2 = std::rotl(in.a12 ^ d2, 43);
  b3 = std::rotl(in.a18 ^ d3, 21);
  b4 = std::rotl(in.a24 ^ d4, 14);
  chi_output(out.a0, parities.c0, b0 ^ (~b1 & b2) ^ round_constant);  // iota on lane 0
  chi_output(out.a1, parities.c1, b1 ^ (~b2 & b3));
  chi_output(out.a2, parities.c2, b2 ^ (~b3 & b4));
  chi_output(out.a3, parities.c3, b3 ^ (~b4 & b0));
  chi_output(out.a4, parities.c4, b4 ^ (~b0 & b1));
  b0 = std::rotl(in.a3 ^ d3, 28);
  b1 = std::rotl(in.a9 ^ d4, 20);
  b2 = std::rotl(in.a10 ^ d0, 3);
  b3 = std::rotl(in.a16 ^ d1, 45);
  b4 = std::rotl(in.a22 ^ d2, 61);
  chi_output(out.a5, parities.c0, b0 ^ (~b1 & b2));
  chi_output(out.a6, parities.c1, b1 ^ (~b2 & b3));
  chi_output(out.a7, parities.c2, b2 ^ (~b3 & b4));
  chi_output(out.a8, parities.c3, b3 ^ (~b4 & b0));
  chi_output(out.a9, parities.c4, b4 ^ (~b0 & b1));
  b0 = std::rotl(in.a1 ^ d1, 1);
  b1 = std::rotl(in.a7 ^ d2, 6);
  b2 = std::rotl(in.a13 ^ d3, 25);
  b3 = std::rotl(in.a19 ^ d4, 8);
  b4 = std::rotl(in.a20 ^ d0, 18);
  chi_output(out.a10, parities.c0, b0 ^ (~b1 & b2));
  chi_output(out.a11, parities.c1, b1 ^ (~b2 & b3));
  chi_output(out.a12, parities.c2, b2 ^ (~b3 & b4));
  chi_output(out.a13, parities.c3, b3 ^ (~b4 & b0));
  chi_output(out.a14, parities.c4, b4 ^ (~b0 & b1));
  b0 = std::rotl(in.a4 ^ d4, 27);
  b1 = std::rotl(in.a5 ^ d0, 36);
  b2 = std::rotl(in.a11 ^ d1, 10);
  b3 = std::rotl(in.a17 ^ d2, 15);
  b4 = std::rotl(in.a23 ^ d3, 56);
  chi_output(out.a15, parities.c0, b0 ^ (~b1 & b2));
  chi_output(out.a16, parities.c1, b1 ^ (~b2 & b3));
  chi_output(out.a17, parities.c2, b2 ^ (~b3 & b4));
  chi_output(out.a18, parities.c3, b3 ^ (~b4 & b0));
  chi_output(out.a19, parities.c4, b4 ^ (~b0 & b1));
  b0 = std::rotl(in.a2 ^ d2, 62);
  b1 = std::rotl(in.a8 ^ d3, 55);
  b2 = std::rotl(in.a14 ^ d4, 39);
  b3 = std::rotl(in.a15 ^ d0, 41);
  b4 = std::rotl(in.a21 ^ d1, 2);
  chi_output(out.a20, parities.c0, b0 ^ (~b1 & b2));
  chi_output(out.a21, parities.c1, b1 ^ (~b2 & b3));
  chi_output(out.a22, parities.c2, b2 ^ (~b3 & b4));
  chi_output(out.a23, parities.c3, b3 ^ (~b4 & b0));
  chi_output(out.a24, parities.c4, b4 ^ (~b0 & b1));
}

}  // namespace

// Not inlined: its frame, which holds the compiler's spills of lanes, must lie below
// keccak_f1600_portable's, where that function's wipe reaches.
[[gnu::noinline]] void keccak_p1600_rounds_portable(std::uint64_t* state, int first_round,
                                                    int end_round) noexcept {
  static_assert(sizeof(Lanes) == kKeccakLanes * sizeof(std::uint64_t));
  Lanes lanes;
  std::memcpy(&lanes, state, sizeof lanes);
  Lanes next;
  ColumnParities parities = column_parities(lanes);
  int round = first_round;
  for (; round + 2 <= end_round; round += 2) {
    keccak_round(lanes, next, parities, kKeccakRoundConstants[round]);
    keccak_round(next, lanes, parities, kKeccakRoundConstants[round + 1]);
  }
  if (round < end_round) {  // an odd count: the tests step through one round at a time
    keccak_round(lanes, next, parities, kKeccakRoundConstants[round]);
    lanes = next;
  }
  std::memcpy(state, &lanes, sizeof lanes);
}

void keccak_f1600_portable(std::uint64_t* state) noexcept {
  keccak_p1600_rounds_portable(state, 0, kKeccakRounds);
  // 25 lanes and the round's temporaries do not fit in the registers of any target, so
  // the rounds' frame holds spilled lanes (tests/test_residue.cpp found 11 to 21 lanes of
  // the final state there after one hash, x86-64, GCC 12 -O3): zero it before returning.
  // Once per permutation, about 25 TSC ticks on ~894 (see README, Secrets).
  wipe_released_stack_and_registers<kPortableRoundsStackBytes>();
}

void keccak_p1600_12_portable(std::uint64_t* state) noexcept {
  constexpr int kRounds = 12;  // Keccak-p[1600, 12]: the last 12 rounds
  keccak_p1600_rounds_portable(state, kKeccakRounds - kRounds, kKeccakRounds);
  wipe_released_stack_and_registers<kPortableRoundsStackBytes>();  // as keccak_f1600_portable
}

}  // namespace sponge::detail
