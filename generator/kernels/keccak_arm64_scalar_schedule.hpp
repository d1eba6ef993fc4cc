// One Keccak-f[1600] round on arm64 general-purpose registers, with rotations folded into
// the shifted operands of EOR and BIC.
//
// 25 lanes and theta's values do not fit the 29 general-purpose registers a portable kernel
// may use (x18 is the platform register, x29 the frame pointer, sp is not one) unless theta
// is ordered with care: the four temporaries below are enough (see theta_ops). Rho costs
// no instruction of its own: a lane after theta stays where it is and is read through a
// ROR-shifted operand, except where chi needs it unrotated as the first operand of its EOR;
// chi writes its outputs straight into the lanes' registers. A seeded search picks which B
// values to rotate in place or into a free register, and the order of chi's outputs, so
// that every lane is back in its own register at the end of the round with as few MOVs as
// it can find; the result is checked on random states against the portable round.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spongegen::kernels {

// Register slots: 0..24 hold lane i at the start and the end of every round; 25..28 are
// theta's temporaries and free at both ends. The builder maps slots to x registers.
inline constexpr int kScalarLaneSlots = 25;
inline constexpr int kScalarTemporaries = 4;
inline constexpr int kScalarSlots = kScalarLaneSlots + kScalarTemporaries;

struct ScalarOp {
  enum class Kind {
    eor,  // dst = n ^ rotr(m, rotate_right)
    bic,  // dst = n & ~rotr(m, rotate_right)
    ror,  // dst = rotr(n, rotate_right)
    mov,  // dst = n
  };
  Kind kind;
  int dst, n, m = -1;
  int rotate_right = 0;
  std::string note;
};

struct ScalarRoundSchedule {
  std::vector<ScalarOp> ops;  // theta, rho and pi, chi (iota is the kernel's)
  int theta_ops = 0;          // the first theta_ops of ops
  int rotations = 0;          // ror instructions: B values chi needs unrotated
  int moves = 0;              // mov instructions the search could not avoid
  std::uint64_t search_seed = 0;
  std::uint64_t search_attempt = 0;   // the attempt that was kept
  std::uint64_t search_attempts = 0;  // attempts made in all
};

// Throws GenerationError if the search finds nothing or what it found computes a wrong round.
const ScalarRoundSchedule& scalar_round_schedule();

}  // namespace spongegen::kernels
