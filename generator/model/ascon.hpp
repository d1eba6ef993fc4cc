// Ascon-p[320] (NIST SP 800-232) as plain data: everything a kernel builder needs to know
// about the permutation, and nothing about any instruction set.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spongegen::ascon {

inline constexpr int kWords = 5;
inline constexpr int kMaxRounds = 12;

// The linear layer of word i: x_i ^= rotr(x_i, first) ^ rotr(x_i, second).
struct LinearRotations {
  int first, second;
};

// One operation of a substitution formula over 64-bit words. Operands are value numbers:
// 0..4 are the round's input words x0..x4, and operation k defines value 5 + k.
enum class BooleanOp : std::uint8_t {
  xor_op,     // a ^ b
  and_op,     // a & b
  or_op,      // a | b
  and_not_a,  // ~a & b (x86 ANDN a, b; arm64 BIC b, a)
  or_not_a,   // ~a | b (arm64 ORN b, a)
  not_op,     // ~a
};
struct FormulaOp {
  BooleanOp op;
  int a, b = -1;
};

// The substitution layer, bit-sliced over the 64 columns, as a dataflow of boolean
// operations. `outputs[i]` is the value that becomes x_i; if `complemented_outputs` has bit
// i set, that value is ~x_i instead (a NOT the builder defers into the next round).
struct SubstitutionFormula {
  std::string_view name;
  std::string_view source;
  std::vector<FormulaOp> ops;
  std::array<int, kWords> outputs;
  unsigned complemented_outputs = 0;
  int operation_count() const { return static_cast<int>(ops.size()); }
};

// A round count with entries: p12, p8 and p6 are the last 12, 8 and 6 rounds.
struct RoundVariant {
  int rounds;
  int first_round() const { return kMaxRounds - rounds; }
};

struct Model {
  // Constant addition: x2 ^= round_constants[i] in round i (p12 runs rounds 0..11).
  std::array<std::uint64_t, kMaxRounds> round_constants;
  std::array<LinearRotations, kWords> linear;
  // The forms the builders choose from; each is checked against the specification's S-box
  // on all 32 inputs when the model is built.
  std::vector<SubstitutionFormula> formulas;
  std::vector<RoundVariant> variants;  // p12, p8, p6
};

// The model, computed once. Throws if a formula is not the S-box or a constant disagrees
// with the runtime's portable reference.
const Model& model();

// The formula named `name`; throws if there is none.
const SubstitutionFormula& formula(std::string_view name);

// Evaluates a formula on five words (the builders' and tests' shared meaning of the data).
std::array<std::uint64_t, kWords> evaluate(const SubstitutionFormula& formula,
                                           const std::array<std::uint64_t, kWords>& words);

}  // namespace spongegen::ascon
