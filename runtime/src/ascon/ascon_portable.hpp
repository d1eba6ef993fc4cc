// The portable Ascon-p[320] (NIST SP 800-232): usable on any CPU and any endianness, and
// the reference every generated Ascon kernel is tested against.
//
// One round is three layers kept strictly apart (the Ascon speed-up this project grew
// from: a compiler, or our generator, schedules them best that way): constant addition,
// substitution, linear layer. The substitution is the 16-operation form of IACR ePrint 2023/1721
// (10 XOR, 4 OR, 1 AND, 1 NOT; 15 on AArch64, where `~x4 | x3` is one ORN) instead of the
// specification's 22; the unit test checks it against the specification's form on all 32 S-box
// inputs.
//
// The permutation of r rounds runs the last r of the 12 rounds: round index 12 - r .. 11,
// so p12, p8 and p6 are one round body with a start round (0, 4, 6).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace sponge::detail {

inline constexpr int kAsconMaxRounds = 12;
inline constexpr std::size_t kAsconStateWords = 5;

// The start round of p12, p8 and p6.
constexpr int ascon_first_round(int rounds) noexcept {
  return kAsconMaxRounds - rounds;
}

// c_i = ((0xF - i) << 4) | i: f0 e1 d2 c3 b4 a5 96 87 78 69 5a 4b.
constexpr std::uint64_t ascon_round_constant(int round) noexcept {
  return (std::uint64_t{0xF} - static_cast<std::uint64_t>(round)) << 4 |
         static_cast<std::uint64_t>(round);
}

// The five words x0..x4 (SP 800-232's S0..S4) of a state kept in locals.
struct AsconWords {
  std::uint64_t x0, x1, x2, x3, x4;
};

[[gnu::always_inline]] inline void ascon_add_constant(AsconWords& s, int round) noexcept {
  s.x2 ^= ascon_round_constant(round);
}

// The 5-bit S-box on all 64 columns at once, in 16 operations (ePrint 2023/1721, found by a
// SAT-based search). Every output is a function of the inputs alone, so the five results
// can be computed in any order; the longest dependency chain is four operations deep.
[[gnu::always_inline]] inline void ascon_substitute(AsconWords& s) noexcept {
  const std::uint64_t x0_x4 = s.x0 ^ s.x4;
  const std::uint64_t x1_x2 = s.x1 ^ s.x2;
  const std::uint64_t x2_x3 = s.x2 ^ s.x3;
  const std::uint64_t x3_x4 = s.x3 ^ s.x4;
  const std::uint64_t not_x4_or_x3 = ~s.x4 | s.x3;  // one ORN on AArch64
  const std::uint64_t x0_x4_or_x1 = x0_x4 | s.x1;
  const std::uint64_t x0_or_x3_x4 = s.x0 | x3_x4;
  const std::uint64_t x2_x3_or_x1_x2 = x2_x3 | x1_x2;
  const std::uint64_t x2_and_x1_x2 = s.x2 & x1_x2;
  const std::uint64_t shared = x0_x4_or_x1 ^ x3_x4;
  s.x0 = shared ^ x2_and_x1_x2;
  s.x1 = x0_x4 ^ x2_x3_or_x1_x2;
  s.x2 = x1_x2 ^ not_x4_or_x3;
  s.x3 = x1_x2 ^ x0_or_x3_x4;
  s.x4 = x0_x4 ^ shared;
}

// x_i ^= ROR(x_i, a_i) ^ ROR(x_i, b_i).
[[gnu::always_inline]] inline void ascon_diffuse(AsconWords& s) noexcept {
  s.x0 ^= std::rotr(s.x0, 19) ^ std::rotr(s.x0, 28);
  s.x1 ^= std::rotr(s.x1, 61) ^ std::rotr(s.x1, 39);
  s.x2 ^= std::rotr(s.x2, 1) ^ std::rotr(s.x2, 6);
  s.x3 ^= std::rotr(s.x3, 10) ^ std::rotr(s.x3, 17);
  s.x4 ^= std::rotr(s.x4, 7) ^ std::rotr(s.x4, 41);
}

[[gnu::always_inline]] inline void ascon_round(AsconWords& s, int round) noexcept {
  ascon_add_constant(s, round);
  ascon_substitute(s);
  ascon_diffuse(s);
}

// Rounds FirstRound .. 11, unrolled: the constants become immediates.
template <int FirstRound>
[[gnu::always_inline]] inline void ascon_rounds(AsconWords& s) noexcept {
  static_assert(FirstRound >= 0 && FirstRound < kAsconMaxRounds);
#pragma GCC unroll 12
  for (int round = FirstRound; round < kAsconMaxRounds; ++round)
    ascon_round(s, round);
}

// The permutations on a state of five words in memory; each clears the stack its rounds
// used before it returns (no state word is left in a released frame).
void ascon_p12_portable(std::uint64_t* state) noexcept;
void ascon_p8_portable(std::uint64_t* state) noexcept;
void ascon_p6_portable(std::uint64_t* state) noexcept;

// Rounds first_round .. end_round - 1 (round constants by round index), one at a time: the
// tests step through a permutation with it. Not a kernel entry, and it does not wipe.
void ascon_p320_rounds_portable(std::uint64_t* state, int first_round, int end_round) noexcept;

}  // namespace sponge::detail

namespace sponge::detail {

// The portable kernel's mode entries (see ascon_kernel.hpp for their contracts). Blocks may
// have any alignment; `out` may be `in` exactly (in-place), not partly overlap it.
void ascon_absorb_hash_portable(std::uint64_t* state, const std::uint8_t* blocks,
                                std::size_t block_count) noexcept;
void ascon_absorb_ad_portable(std::uint64_t* state, const std::uint8_t* blocks,
                              std::size_t block_count) noexcept;
void ascon_encrypt_portable(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                            std::size_t block_count) noexcept;
void ascon_decrypt_portable(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                            std::size_t block_count) noexcept;

}  // namespace sponge::detail
