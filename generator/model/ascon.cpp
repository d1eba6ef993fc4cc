#include "model/ascon.hpp"

#include <fmt/format.h>

#include "ascon/ascon_portable.hpp"  // the runtime's portable reference, for the cross-check
#include "program/program.hpp"

namespace spongegen::ascon {
namespace {

using enum BooleanOp;

// The specification's form (SP 800-232 Sec. 3; ASCON.md): x0 ^= x4, x4 ^= x3, x2 ^= x1;
// t_i = x_i ^ (~x_{i+1} & x_{i+2}); t1 ^= t0, t0 ^= t4, t3 ^= t2, t2 = ~t2. With ANDN this
// is 16 operations and the NOT: 17, the "17-operation ANDN/BIC form". Values 0..4 are x0..x4.
SubstitutionFormula specification_form(bool defer_not) {
  SubstitutionFormula f{defer_not ? "specification, NOT deferred" : "specification",
                        "SP 800-232 Sec. 3.3 (the round function's S-box layer)",
                        {},
                        {},
                        0};
  f.ops = {
      {xor_op, 0, 4},     // 5: x0' = x0 ^ x4
      {xor_op, 4, 3},     // 6: x4' = x4 ^ x3
      {xor_op, 2, 1},     // 7: x2' = x2 ^ x1
      {and_not_a, 1, 7},  // 8: ~x1 & x2'
      {and_not_a, 7, 3},  // 9: ~x2' & x3
      {and_not_a, 3, 6},  // 10: ~x3 & x4'
      {and_not_a, 6, 5},  // 11: ~x4' & x0'
      {and_not_a, 5, 1},  // 12: ~x0' & x1
      {xor_op, 5, 8},     // 13: t0 = x0' ^ (~x1 & x2')
      {xor_op, 1, 9},     // 14: t1
      {xor_op, 7, 10},    // 15: t2
      {xor_op, 3, 11},    // 16: t3
      {xor_op, 6, 12},    // 17: t4
      {xor_op, 14, 13},   // 18: t1 ^= t0
      {xor_op, 13, 17},   // 19: t0 ^= t4
      {xor_op, 16, 15},   // 20: t3 ^= t2
  };
  if (defer_not) {
    f.outputs = {19, 18, 15, 20, 17};
    f.complemented_outputs = 1u << 2;
  } else {
    f.ops.push_back({not_op, 15});  // 21: t2 = ~t2
    f.outputs = {19, 18, 21, 20, 17};
  }
  return f;
}

// The 16-operation form found by an instruction search (IACR ePrint 2023/1721), which the
// Ascon speed-up pull request this project started from adopted: 10 XOR, 4 OR, 1 AND and
// 1 NOT; with or_not_a for ~x4 | x3 it is 15 operations on AArch64 (ORN).
SubstitutionFormula searched_form(bool with_orn) {
  SubstitutionFormula f{with_orn ? "ePrint 2023/1721, ORN" : "ePrint 2023/1721",
                        "IACR ePrint 2023/1721, as the Ascon speed-up pull request adopted it",
                        {},
                        {},
                        0};
  f.ops = {
      {xor_op, 0, 4},  // 5: x0 ^ x4
      {xor_op, 1, 2},  // 6: x1 ^ x2
      {xor_op, 2, 3},  // 7: x2 ^ x3
      {xor_op, 3, 4},  // 8: x3 ^ x4
  };
  int not_x4_or_x3 = 0;
  if (with_orn) {
    f.ops.push_back({or_not_a, 4, 3});  // 9: ~x4 | x3
    not_x4_or_x3 = 9;
  } else {
    f.ops.push_back({not_op, 4});    // 9: ~x4
    f.ops.push_back({or_op, 9, 3});  // 10: ~x4 | x3
    not_x4_or_x3 = 10;
  }
  const int base = static_cast<int>(f.ops.size()) + kWords;
  f.ops.push_back({or_op, 5, 1});                 // base + 0: (x0 ^ x4) | x1
  f.ops.push_back({or_op, 0, 8});                 // base + 1: x0 | (x3 ^ x4)
  f.ops.push_back({or_op, 7, 6});                 // base + 2: (x2 ^ x3) | (x1 ^ x2)
  f.ops.push_back({and_op, 2, 6});                // base + 3: x2 & (x1 ^ x2)
  f.ops.push_back({xor_op, base + 0, 8});         // base + 4: shared
  f.ops.push_back({xor_op, base + 4, base + 3});  // base + 5: x0
  f.ops.push_back({xor_op, 5, base + 2});         // base + 6: x1
  f.ops.push_back({xor_op, 6, not_x4_or_x3});     // base + 7: x2
  f.ops.push_back({xor_op, 6, base + 1});         // base + 8: x3
  f.ops.push_back({xor_op, 5, base + 4});         // base + 9: x4
  f.outputs = {base + 5, base + 6, base + 7, base + 8, base + 9};
  return f;
}

// A form three operations deep, where the others are four: found by an exhaustive search
// over two-input gates (AND with either input complemented, OR, XOR) for each output's
// shallowest, then smallest, circuit, sharing x1 ^ x2. 19 operations, x2 complemented.
// Its chain is shorter by one operation a round; it costs three more.
SubstitutionFormula shallow_form() {
  SubstitutionFormula f{"depth 3 (exhaustive search)", "this project's search", {}, {}, 0};
  f.ops = {
      {xor_op, 0, 2},     // 5: x0 ^ x2
      {and_not_a, 1, 5},  // 6: ~x1 & (x0 ^ x2)
      {and_not_a, 4, 1},  // 7: ~x4 & x1
      {xor_op, 3, 7},     // 8: x3 ^ (~x4 & x1)
      {xor_op, 6, 8},     // 9: x0
      {xor_op, 1, 2},     // 10: x1 ^ x2, shared by x1, x2 and x3
      {xor_op, 1, 3},     // 11: x1 ^ x3
      {or_op, 10, 11},    // 12: (x1 ^ x2) | (x1 ^ x3)
      {xor_op, 0, 4},     // 13: x0 ^ x4
      {xor_op, 13, 12},   // 14: x1
      {and_not_a, 3, 4},  // 15: ~x3 & x4
      {xor_op, 10, 15},   // 16: ~x2
      {xor_op, 3, 4},     // 17: x3 ^ x4
      {or_op, 0, 17},     // 18: x0 | (x3 ^ x4)
      {xor_op, 10, 18},   // 19: x3
      {and_not_a, 0, 1},  // 20: ~x0 & x1
      {and_not_a, 1, 4},  // 21: ~x1 & x4
      {xor_op, 3, 21},    // 22: x3 ^ (~x1 & x4)
      {xor_op, 20, 22},   // 23: x4
  };
  f.outputs = {9, 14, 16, 19, 23};
  f.complemented_outputs = 1u << 2;
  return f;
}

std::array<std::uint64_t, kMaxRounds> compute_round_constants() {
  std::array<std::uint64_t, kMaxRounds> constants{};
  for (int round = 0; round < kMaxRounds; ++round) {
    constants[static_cast<std::size_t>(round)] =
        (std::uint64_t{0xf} - static_cast<std::uint64_t>(round)) << 4 |
        static_cast<std::uint64_t>(round);
  }
  return constants;
}

// The S-box of the specification, computed from its definition on one column.
std::array<std::uint64_t, kWords> specified_substitution(std::array<std::uint64_t, kWords> x) {
  x[0] ^= x[4];
  x[4] ^= x[3];
  x[2] ^= x[1];
  std::array<std::uint64_t, kWords> t{};
  for (int i = 0; i < kWords; ++i)
    t[i] = x[i] ^ (~x[(i + 1) % kWords] & x[(i + 2) % kWords]);
  t[1] ^= t[0];
  t[0] ^= t[4];
  t[3] ^= t[2];
  t[2] = ~t[2];
  return t;
}

void check_formula(const SubstitutionFormula& f) {
  // All 32 S-box inputs side by side: column j holds input j, x0 its most significant bit.
  std::array<std::uint64_t, kWords> columns{};
  for (int j = 0; j < 32; ++j) {
    for (int i = 0; i < kWords; ++i) {
      if ((j >> (kWords - 1 - i)) & 1) columns[i] |= std::uint64_t{1} << j;
    }
  }
  const auto expected = specified_substitution(columns);
  const auto actual = evaluate(f, columns);
  for (int i = 0; i < kWords; ++i) {
    const std::uint64_t mask = 0xffffffffull;
    if ((actual[i] & mask) != (expected[i] & mask)) {
      throw GenerationError(fmt::format(
          "Ascon model: substitution formula '{}' differs from the S-box in word x{}", f.name, i));
    }
  }
}

Model build_model() {
  Model m;
  m.round_constants = compute_round_constants();
  m.linear = {{{19, 28}, {61, 39}, {1, 6}, {10, 17}, {7, 41}}};
  m.formulas = {specification_form(false), specification_form(true), searched_form(false),
                searched_form(true), shallow_form()};
  m.variants = {{12}, {8}, {6}};
  for (const SubstitutionFormula& f : m.formulas)
    check_formula(f);
  for (int round = 0; round < kMaxRounds; ++round) {
    if (m.round_constants[static_cast<std::size_t>(round)] !=
        sponge::detail::ascon_round_constant(round)) {
      throw GenerationError(
          fmt::format("Ascon model: round constant {} disagrees with the runtime's", round));
    }
  }
  return m;
}

}  // namespace

const Model& model() {
  static const Model m = build_model();
  return m;
}

const SubstitutionFormula& formula(std::string_view name) {
  for (const SubstitutionFormula& f : model().formulas) {
    if (f.name == name) return f;
  }
  throw GenerationError(fmt::format("Ascon model: no substitution formula '{}'", name));
}

std::array<std::uint64_t, kWords> evaluate(const SubstitutionFormula& f,
                                           const std::array<std::uint64_t, kWords>& words) {
  std::vector<std::uint64_t> values(words.begin(), words.end());
  for (const FormulaOp& op : f.ops) {
    const std::uint64_t a = values.at(static_cast<std::size_t>(op.a));
    const std::uint64_t b = op.b >= 0 ? values.at(static_cast<std::size_t>(op.b)) : 0;
    switch (op.op) {
      case xor_op:
        values.push_back(a ^ b);
        break;
      case and_op:
        values.push_back(a & b);
        break;
      case or_op:
        values.push_back(a | b);
        break;
      case and_not_a:
        values.push_back(~a & b);
        break;
      case or_not_a:
        values.push_back(~a | b);
        break;
      case not_op:
        values.push_back(~a);
        break;
    }
  }
  std::array<std::uint64_t, kWords> out{};
  for (int i = 0; i < kWords; ++i) {
    out[i] = values.at(static_cast<std::size_t>(f.outputs[i]));
    if ((f.complemented_outputs >> i) & 1) out[i] = ~out[i];
  }
  return out;
}

}  // namespace spongegen::ascon
