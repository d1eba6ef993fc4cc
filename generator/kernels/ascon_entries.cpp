#include "kernels/ascon_entries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace spongegen::kernels {

std::vector<AsconEntryPlan> ascon_entry_plans(std::string_view kernel_suffix) {
  const std::string stem = fmt::format("sponge_ascon_p320_{}", kernel_suffix);
  std::vector<AsconEntryPlan> plans;
  for (const ascon::RoundVariant& variant : ascon::model().variants) {
    plans.push_back({fmt::format("{}_p{}", stem, variant.rounds),
                     fmt::format("Ascon-p[320] with {} rounds (p{}) on the five words at state.",
                                 variant.rounds, variant.rounds),
                     EntryKind::permute, variant.rounds, 0});
  }
  plans.push_back({stem + "_absorb_hash",
                   "For each 8-byte block: x0 ^= block, then p12 (Hash256, XOF128, CXOF128).",
                   EntryKind::absorb, 12, 8});
  plans.push_back({stem + "_absorb_ad",
                   "For each 16-byte block: x0, x1 ^= block, then p8 (AEAD associated data).",
                   EntryKind::absorb, 8, 16});
  plans.push_back({stem + "_encrypt",
                   "For each 16-byte block: x0, x1 ^= in; out = x0, x1; then p8.",
                   EntryKind::encrypt, 8, 16});
  plans.push_back({stem + "_decrypt",
                   "For each 16-byte block: out = x0, x1 ^ in; x0, x1 = in; then p8.",
                   EntryKind::decrypt, 8, 16});
  return plans;
}

Function& add_ascon_entry(BuiltKernel& kernel, const AsconEntryPlan& plan) {
  std::vector<Parameter> parameters{{"uint64_t", "state", ascon::kWords}};
  if (plan.kind == EntryKind::absorb) {
    parameters.push_back({"const uint8_t*", "blocks", 0});
    parameters.push_back({"size_t", "block_count", 0});
  } else if (plan.kind == EntryKind::encrypt || plan.kind == EntryKind::decrypt) {
    parameters.push_back({"const uint8_t*", "in", 0});
    parameters.push_back({"uint8_t*", "out", 0});
    parameters.push_back({"size_t", "block_count", 0});
  }
  kernel.program.functions.push_back(Function{
      plan.symbol,
      plan.summary,
      EntryShape{plan.kind, "ascon-p320", plan.rounds, plan.rate_bytes, 1, std::move(parameters)},
      {}});
  return kernel.program.functions.back();
}

std::vector<int> formula_last_uses(const ascon::SubstitutionFormula& formula) {
  std::vector<int> last_use(static_cast<std::size_t>(ascon::kWords + formula.operation_count()),
                            -1);
  for (int k = 0; k < formula.operation_count(); ++k) {
    const ascon::FormulaOp& op = formula.ops[static_cast<std::size_t>(k)];
    last_use[static_cast<std::size_t>(op.a)] = k;
    if (op.b >= 0) last_use[static_cast<std::size_t>(op.b)] = k;
  }
  for (int output : formula.outputs)
    last_use[static_cast<std::size_t>(output)] = formula.operation_count();
  return last_use;
}

bool formula_uses(const ascon::SubstitutionFormula& formula, ascon::BooleanOp op) {
  return std::any_of(formula.ops.begin(), formula.ops.end(),
                     [op](const ascon::FormulaOp& each) { return each.op == op; });
}

Reg AsconRegisterFile::take() {
  for (Reg reg : pool_) {
    if (!busy(reg)) {
      in_flight_.push_back(reg);
      return reg;
    }
  }
  throw GenerationError("Ascon kernels: out of registers");
}

void AsconRegisterFile::hold(Reg reg) {
  if (!busy(reg)) in_flight_.push_back(reg);
}

void AsconRegisterFile::release(Reg reg) {
  std::erase(in_flight_, reg);
}

bool AsconRegisterFile::busy(Reg reg) const {
  return std::find(words_.begin(), words_.end(), reg) != words_.end() ||
         std::find(in_flight_.begin(), in_flight_.end(), reg) != in_flight_.end();
}

int emit_three_operand_substitution(
    AsconRegisterFile& file, const ascon::SubstitutionFormula& formula, Reg placeholder,
    const std::function<void(ascon::BooleanOp, Reg dst, Reg a, Reg b)>& emit) {
  const int inputs = ascon::kWords;
  const std::vector<int> last_use = formula_last_uses(formula);
  std::vector<std::optional<Reg>> reg_of(last_use.size());
  const AsconRegisterFile::Words input_registers = file.words();
  for (int word = 0; word < inputs; ++word) {
    reg_of[static_cast<std::size_t>(word)] = input_registers[static_cast<std::size_t>(word)];
  }
  for (Reg& reg : file.words())
    reg = placeholder;  // the outputs are assigned at the end
  for (Reg reg : input_registers)
    file.hold(reg);
  auto reg = [&](int value) { return *reg_of[static_cast<std::size_t>(value)]; };
  auto dies_at = [&](int value, int k) { return last_use[static_cast<std::size_t>(value)] == k; };
  int emitted = 0;
  for (int k = 0; k < formula.operation_count(); ++k) {
    const ascon::FormulaOp& op = formula.ops[static_cast<std::size_t>(k)];
    Reg dst = op.b >= 0 && dies_at(op.b, k) ? reg(op.b) : Reg{};
    if (dies_at(op.a, k)) dst = reg(op.a);
    if (!(dies_at(op.a, k) || (op.b >= 0 && dies_at(op.b, k)))) dst = file.take();
    emit(op.op, dst, reg(op.a), op.b >= 0 ? reg(op.b) : placeholder);
    ++emitted;
    reg_of[static_cast<std::size_t>(inputs + k)] = dst;
    file.hold(dst);
    for (int operand : {op.a, op.b}) {
      if (operand >= 0 && dies_at(operand, k) && reg(operand) != dst) file.release(reg(operand));
    }
  }
  for (int word = 0; word < inputs; ++word) {
    const Reg out = reg(formula.outputs[static_cast<std::size_t>(word)]);
    file.words()[static_cast<std::size_t>(word)] = out;
    file.release(out);
  }
  return emitted;
}

void restore_words(AsconRegisterFile& file, const AsconRegisterFile::Words& target,
                   const std::function<void(Reg, Reg)>& move) {
  AsconRegisterFile::Words& current = file.words();
  for (int guard = 0; guard < 4 * ascon::kWords; ++guard) {
    bool moved = false, pending = false;
    for (std::size_t word = 0; word < current.size(); ++word) {
      if (current[word] == target[word]) continue;
      pending = true;
      if (!file.busy(target[word])) {
        move(target[word], current[word]);
        current[word] = target[word];
        moved = true;
      }
    }
    if (!pending) return;
    if (!moved) {  // a cycle: park one word in a free register
      for (std::size_t word = 0; word < current.size(); ++word) {
        if (current[word] == target[word]) continue;
        const Reg parked = file.take();
        file.release(parked);
        move(parked, current[word]);
        current[word] = parked;
        break;
      }
    }
  }
  throw GenerationError("Ascon kernels: the words' registers do not converge to the loop's");
}

void emit_three_operand_rounds(const ThreeOperandAsconRows& rows, AsconRegisterFile& file,
                               const ascon::SubstitutionFormula& formula, int first_round,
                               const std::function<void()>& substitution, std::string_view kernel) {
  const ascon::Model& model = ascon::model();
  const bool complemented_x2 = ((formula.complemented_outputs >> 2) & 1) != 0;
  if ((formula.complemented_outputs & ~(1u << 2)) != 0) {
    throw GenerationError(
        fmt::format("{}: formula '{}' complements a word other than x2", kernel, formula.name));
  }
  auto constant = [&](int round) {
    return static_cast<std::int64_t>(model.round_constants[static_cast<std::size_t>(round)]);
  };
  for (int round = first_round; round < ascon::kMaxRounds; ++round) {
    rows.builder.begin_round(round - first_round, false);
    if (round == first_round) {
      rows.exclusive_or_constant(file.words()[2], file.words()[2], constant(round));
      rows.builder.annotate(fmt::format("round {}: x2 ^= 0x{:02x}", round, constant(round)));
    }
    substitution();
    std::optional<std::int64_t> x2_mask;
    if (round + 1 < ascon::kMaxRounds) {
      x2_mask = constant(round + 1) ^ (complemented_x2 ? -1 : 0);
    }
    for (int word = 0; word < ascon::kWords; ++word) {
      const Reg x = file.words()[static_cast<std::size_t>(word)];
      const ascon::LinearRotations rotations = model.linear[static_cast<std::size_t>(word)];
      const Reg first = file.take(), second = file.take();
      rows.rotate_right(first, x, rotations.first);
      rows.rotate_right(second, x, rotations.second);
      rows.exclusive_or(x, x, first);
      if (word == 2 && x2_mask) {
        rows.exclusive_or_constant(second, second, *x2_mask);
        rows.builder.annotate(fmt::format("the next round's constant{}, folded in",
                                          *x2_mask < 0 ? " and the deferred NOT" : ""));
      }
      rows.exclusive_or(x, x, second);
      rows.builder.annotate(fmt::format("x{} ^= rotr(x{}, {}) ^ rotr(x{}, {})", word, word,
                                        rotations.first, word, rotations.second));
      file.release(first);
      file.release(second);
    }
    if (round + 1 == ascon::kMaxRounds && complemented_x2) {
      rows.complement(file.words()[2], file.words()[2]);
      rows.builder.annotate("the deferred NOT of the last round");
    }
    rows.builder.end_round();
  }
}

void emit_three_operand_block_input(const ThreeOperandAsconRows& rows, AsconRegisterFile& file,
                                    const AsconEntryPlan& plan, Reg input, Reg output) {
  constexpr int kWordBytes = 8;
  const bool crypt = plan.kind == EntryKind::encrypt || plan.kind == EntryKind::decrypt;
  AsconRegisterFile::Words& words = file.words();
  std::array<Reg, 2> in{};
  for (int w = 0; w < plan.rate_words(); ++w) {
    in[static_cast<std::size_t>(w)] = file.take();
    rows.load(in[static_cast<std::size_t>(w)], input, kWordBytes * w);
  }
  for (int w = 0; w < plan.rate_words(); ++w) {
    Reg& word = words[static_cast<std::size_t>(w)];
    const Reg block_word = in[static_cast<std::size_t>(w)];
    rows.exclusive_or(word, word, block_word);
    if (crypt) {
      rows.store(word, output, kWordBytes * w);
      rows.builder.annotate(plan.kind == EntryKind::encrypt ? "ciphertext" : "plaintext");
    }
    if (plan.kind == EntryKind::decrypt) word = block_word;  // the ciphertext becomes the rate
    file.release(block_word);
  }
  rows.advance(input, plan.rate_bytes);
  if (crypt) rows.advance(output, plan.rate_bytes);
}

const ascon::SubstitutionFormula& fewest_instructions(
    const std::function<int(const ascon::SubstitutionFormula&)>& count,
    std::vector<std::pair<std::string, int>>& counts) {
  const ascon::SubstitutionFormula* best = nullptr;
  int best_count = 0;
  for (const ascon::SubstitutionFormula& formula : ascon::model().formulas) {
    const int instructions = count(formula);
    counts.push_back({std::string(formula.name), instructions});
    if (best == nullptr || instructions < best_count) {
      best = &formula;
      best_count = instructions;
    }
  }
  return *best;
}

}  // namespace spongegen::kernels
