// One Keccak-f[1600] round on 32 SIMD registers with no register moves.
//
// The arm64 kernel keeps lane i in v<i> at the start of every round and loops over the
// rounds, so each round must end with every lane back in its own register. Rho and pi
// move lanes, and chi writes five outputs from five inputs per row; done naively that
// costs a MOV for two lanes of every row (10 a round). Instead, the generator searches for
// a placement of the 25 intermediate values (B = rotl(A ^ D, r)) among the registers that
// are free at each step, and an order of the chi outputs, such that every output is
// written straight into its lane's register. The search is seeded and deterministic, and
// its result is checked by evaluating the schedule on random states against the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spongegen::kernels {

struct RoundOp {
  enum class Kind { eor3, rax1, eor, xar, bcax };
  Kind kind;
  int dst, a, b, c = -1;  // SIMD register numbers; c is used by eor3 and bcax
  int rotate_right = 0;   // xar only
  std::string note;
};

struct RoundSchedule {
  std::vector<RoundOp> ops;      // theta, rho and pi, chi (iota is left to the kernel)
  int free_register;             // a register free at the end of the ops, for iota's constant
  std::uint64_t search_attempt;  // which attempt of the seeded search succeeded
  std::uint64_t search_seed;
};

// Throws GenerationError if no schedule is found or the one found computes a wrong round.
const RoundSchedule& zero_move_round_schedule();

}  // namespace spongegen::kernels
