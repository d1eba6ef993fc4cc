// The portable Keccak-f[1600]: the fallback kernel on CPUs without BMI2 or the SHA3
// extension, and the reference every generated kernel is tested against.
//
// The 25 lanes live in locals for the whole permutation, so the compiler keeps as many in
// registers as the target has; one round is written out once (theta, rho and pi, chi, iota)
// and looped 24 times. Lanes are loaded from rate blocks as little-endian bytes, so the
// result is the same on any endianness.
#include <bit>
#include <cstring>

#include "byte_order.hpp"
#include "keccak_constants.hpp"
#include "kernel.hpp"
#include "wipe.hpp"

namespace sponge::detail {
namespace {

// A bound on the stack keccak_p1600_rounds_portable uses below its caller: 152 bytes of
// frame plus saved registers and the return address at -O2/-O3 with GCC 12 on x86-64
// (-fstack-usage); unoptimised and sanitised builds keep every local in memory, with
// redzones. tests/test_residue.cpp checks the bound holds on every build scripts/test makes.
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kPortableRoundsStackBytes = 512;
#else
constexpr std::size_t kPortableRoundsStackBytes = 8192;
#endif

}  // namespace

// Not inlined: its frame, which holds the compiler's spills of lanes, must lie below
// keccak_f1600_portable's, where that function's wipe reaches.
[[gnu::noinline]] void keccak_p1600_rounds_portable(std::uint64_t* state, int first_round,
                                                    int end_round) noexcept {
  std::uint64_t a0 = state[0];
  std::uint64_t a1 = state[1];
  std::uint64_t a2 = state[2];
  std::uint64_t a3 = state[3];
  std::uint64_t a4 = state[4];
  std::uint64_t a5 = state[5];
  std::uint64_t a6 = state[6];
  std::uint64_t a7 = state[7];
  std::uint64_t a8 = state[8];
  std::uint64_t a9 = state[9];
  std::uint64_t a10 = state[10];
  std::uint64_t a11 = state[11];
  std::uint64_t a12 = state[12];
  std::uint64_t a13 = state[13];
  std::uint64_t a14 = state[14];
  std::uint64_t a15 = state[15];
  std::uint64_t a16 = state[16];
  std::uint64_t a17 = state[17];
  std::uint64_t a18 = state[18];
  std::uint64_t a19 = state[19];
  std::uint64_t a20 = state[20];
  std::uint64_t a21 = state[21];
  std::uint64_t a22 = state[22];
  std::uint64_t a23 = state[23];
  std::uint64_t a24 = state[24];
  for (int round = first_round; round < end_round; ++round) {
    // theta: column parities and the D values
    const std::uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
    const std::uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
    const std::uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
    const std::uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
    const std::uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
    const std::uint64_t d0 = c4 ^ std::rotl(c1, 1);
    const std::uint64_t d1 = c0 ^ std::rotl(c2, 1);
    const std::uint64_t d2 = c1 ^ std::rotl(c3, 1);
    const std::uint64_t d3 = c2 ^ std::rotl(c4, 1);
    const std::uint64_t d4 = c3 ^ std::rotl(c0, 1);
    // rho and pi: b at (y, 2x + 3y) = rotl(a[x, y] ^ d[x], r[x, y])
    const std::uint64_t b0 = a0 ^ d0;
    const std::uint64_t b1 = std::rotl(a6 ^ d1, 44);
    const std::uint64_t b2 = std::rotl(a12 ^ d2, 43);
    const std::uint64_t b3 = std::rotl(a18 ^ d3, 21);
    const std::uint64_t b4 = std::rotl(a24 ^ d4, 14);
    const std::uint64_t b5 = std::rotl(a3 ^ d3, 28);
    const std::uint64_t b6 = std::rotl(a9 ^ d4, 20);
    const std::uint64_t b7 = std::rotl(a10 ^ d0, 3);
    const std::uint64_t b8 = std::rotl(a16 ^ d1, 45);
    const std::uint64_t b9 = std::rotl(a22 ^ d2, 61);
    const std::uint64_t b10 = std::rotl(a1 ^ d1, 1);
    const std::uint64_t b11 = std::rotl(a7 ^ d2, 6);
    const std::uint64_t b12 = std::rotl(a13 ^ d3, 25);
    const std::uint64_t b13 = std::rotl(a19 ^ d4, 8);
    const std::uint64_t b14 = std::rotl(a20 ^ d0, 18);
    const std::uint64_t b15 = std::rotl(a4 ^ d4, 27);
    const std::uint64_t b16 = std::rotl(a5 ^ d0, 36);
    const std::uint64_t b17 = std::rotl(a11 ^ d1, 10);
    const std::uint64_t b18 = std::rotl(a17 ^ d2, 15);
    const std::uint64_t b19 = std::rotl(a23 ^ d3, 56);
    const std::uint64_t b20 = std::rotl(a2 ^ d2, 62);
    const std::uint64_t b21 = std::rotl(a8 ^ d3, 55);
    const std::uint64_t b22 = std::rotl(a14 ^ d4, 39);
    const std::uint64_t b23 = std::rotl(a15 ^ d0, 41);
    const std::uint64_t b24 = std::rotl(a21 ^ d1, 2);
    // chi, row by row; iota on lane 0
    a0 = b0 ^ (~b1 & b2);
    a1 = b1 ^ (~b2 & b3);
    a2 = b2 ^ (~b3 & b4);
    a3 = b3 ^ (~b4 & b0);
    a4 = b4 ^ (~b0 & b1);
    a5 = b5 ^ (~b6 & b7);
    a6 = b6 ^ (~b7 & b8);
    a7 = b7 ^ (~b8 & b9);
    a8 = b8 ^ (~b9 & b5);
    a9 = b9 ^ (~b5 & b6);
    a10 = b10 ^ (~b11 & b12);
    a11 = b11 ^ (~b12 & b13);
    a12 = b12 ^ (~b13 & b14);
    a13 = b13 ^ (~b14 & b10);
    a14 = b14 ^ (~b10 & b11);
    a15 = b15 ^ (~b16 & b17);
    a16 = b16 ^ (~b17 & b18);
    a17 = b17 ^ (~b18 & b19);
    a18 = b18 ^ (~b19 & b15);
    a19 = b19 ^ (~b15 & b16);
    a20 = b20 ^ (~b21 & b22);
    a21 = b21 ^ (~b22 & b23);
    a22 = b22 ^ (~b23 & b24);
    a23 = b23 ^ (~b24 & b20);
    a24 = b24 ^ (~b20 & b21);
    a0 ^= kKeccakRoundConstants[round];
  }
  state[0] = a0;
  state[1] = a1;
  state[2] = a2;
  state[3] = a3;
  state[4] = a4;
  state[5] = a5;
  state[6] = a6;
  state[7] = a7;
  state[8] = a8;
  state[9] = a9;
  state[10] = a10;
  state[11] = a11;
  state[12] = a12;
  state[13] = a13;
  state[14] = a14;
  state[15] = a15;
  state[16] = a16;
  state[17] = a17;
  state[18] = a18;
  state[19] = a19;
  state[20] = a20;
  state[21] = a21;
  state[22] = a22;
  state[23] = a23;
  state[24] = a24;
}

void keccak_f1600_portable(std::uint64_t* state) noexcept {
  keccak_p1600_rounds_portable(state, 0, kKeccakRounds);
  // 25 lanes and the round's temporaries do not fit in the registers of any target, so
  // the rounds' frame holds spilled lanes (tests/test_residue.cpp found 11 to 21 lanes of
  // the final state there after one hash, x86-64, GCC 12 -O3): zero it before returning.
  // Once per permutation, about 30 TSC ticks on ~970 (see README, Secrets).
  wipe_released_stack<kPortableRoundsStackBytes>();
}

void keccak_p1600_12_portable(std::uint64_t* state) noexcept {
  keccak_p1600_rounds_portable(state, kKeccakRounds - kReducedRounds, kKeccakRounds);
  wipe_released_stack<kPortableRoundsStackBytes>();  // as in keccak_f1600_portable
}

namespace {

template <std::size_t RateBytes, PermuteFn Permute>
void absorb_portable(std::uint64_t* state, const std::uint8_t* block) noexcept {
  for (std::size_t lane = 0; lane < RateBytes / 8; ++lane) {
    state[lane] ^= load_le64(block + 8 * lane);
  }
  Permute(state);
}

template <std::size_t RateBytes>
constexpr AbsorbFn absorb24_portable = absorb_portable<RateBytes, keccak_f1600_portable>;

bool always_supported() noexcept {
  return true;
}

}  // namespace

void keccak_p1600_12_absorb136_portable(std::uint64_t* state, const std::uint8_t* block) noexcept {
  absorb_portable<136, keccak_p1600_12_portable>(state, block);
}
void keccak_p1600_12_absorb168_portable(std::uint64_t* state, const std::uint8_t* block) noexcept {
  absorb_portable<168, keccak_p1600_12_portable>(state, block);
}

extern const KeccakKernel kPortableKernel = {
    "portable",
    always_supported,
    keccak_f1600_portable,
    {absorb24_portable<72>, absorb24_portable<104>, absorb24_portable<136>, absorb24_portable<144>,
     absorb24_portable<168>},
    keccak_p1600_12_portable,
    {keccak_p1600_12_absorb136_portable, keccak_p1600_12_absorb168_portable},
};

}  // namespace sponge::detail
