// Ascon-p[320] for WebAssembly 2.0 (wasm32) on i64 locals (ascon-wasm): the five words in
// locals for the whole call, rounds unrolled, the mode entries looping over their blocks with
// the state kept in locals.
//
// The rows are three-operand, like riscv64's: each value of the substitution formula goes to a
// free local or over an operand that dies there (the Ascon builders' shared allocator), so no
// copy is needed but where a block loop puts the words back. WebAssembly has i64.rotr, so a
// word of the linear layer is two rotations and two XORs; it has no and-not or or-not, so a
// formula's ~a & b and ~a | b take two rows, and the formula with the fewest rows is chosen.
// The round constant is an i64.const, folded into the linear layer of the round before.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "isa/wasm32/wasm32.hpp"
#include "kernels/ascon_entries.hpp"

namespace spongegen::kernels {
namespace {

using namespace wasm32;

constexpr std::string_view kSymbolSuffix = "wasm";
constexpr int kWordBytes = 8;
constexpr int kPoolLocals = 12;

// Every local's role, named once. The parameters: the state, then the blocks (or `in`), then
// block_count (absorb) or `out` (encrypt, decrypt), then block_count (encrypt, decrypt). After
// them, the pool the words and the round's values share, and the local a NOT goes through
// on its way into an and-not or or-not (outside the pool, so no value lives in it).
constexpr Reg kState = parameter(0);
constexpr Reg kInput = parameter(1);
constexpr Reg kCountOrOut = parameter(2);
constexpr Reg kCryptCount = parameter(3);

struct Locals {
  explicit Locals(int parameters) : first(parameters) {}
  int first;
  std::vector<Reg> pool() const {
    std::vector<Reg> locals;
    for (int i = 0; i < kPoolLocals; ++i)
      locals.push_back(x(first + i));
    return locals;
  }
  AsconRegisterFile::Words initial_words() const {
    return {x(first), x(first + 1), x(first + 2), x(first + 3), x(first + 4)};
  }
  Reg not_scratch() const { return x(first + kPoolLocals); }
};

// One substitution layer; returns the rows emitted.
int emit_substitution(Emitter& e, AsconRegisterFile& file, const Locals& l,
                      const ascon::SubstitutionFormula& formula) {
  int rows = 0;
  const int operations = emit_three_operand_substitution(
      file, formula, l.not_scratch(), [&](ascon::BooleanOp op, Reg dst, Reg a, Reg b) {
        switch (op) {
          case ascon::BooleanOp::xor_op:
            e.i64_xor(dst, a, b);
            break;
          case ascon::BooleanOp::and_op:
            e.i64_and(dst, a, b);
            break;
          case ascon::BooleanOp::or_op:
            e.i64_or(dst, a, b);
            break;
          case ascon::BooleanOp::and_not_a:  // ~a & b: the NOT first, through the scratch
            e.i64_xor_const(l.not_scratch(), a, -1);
            e.i64_and(dst, l.not_scratch(), b);
            ++rows;
            break;
          case ascon::BooleanOp::or_not_a:  // ~a | b
            e.i64_xor_const(l.not_scratch(), a, -1);
            e.i64_or(dst, l.not_scratch(), b);
            ++rows;
            break;
          case ascon::BooleanOp::not_op:
            e.i64_xor_const(dst, a, -1);
            break;
        }
      });
  return rows + operations;
}

// The rows of the rounds and block loops the Ascon builders share, as wasm32 writes them.
ThreeOperandAsconRows rows_of(Emitter& e) {
  return {e,
          [&e](Reg d, Reg a, int amount) { e.i64_rotr(d, a, amount); },
          [&e](Reg d, Reg a, Reg b) { e.i64_xor(d, a, b); },
          [&e](Reg d, Reg a, std::int64_t constant) { e.i64_xor_const(d, a, constant); },
          [&e](Reg d, Reg a) { e.i64_xor_const(d, a, -1); },
          [&e](Reg d, Reg base, int offset) { e.i64_load(d, at(base, offset)); },
          [&e](Reg s, Reg base, int offset) { e.i64_store(s, at(base, offset)); },
          [&e](Reg pointer, int bytes) { e.i32_add_const(pointer, pointer, bytes); }};
}

class AsconWasmBuilder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::wasm32;
    formula_ = &choose_formula();
    program.options = {{"format", "WebAssembly 2.0 text (.wat) and binary (.wasm)"},
                       {"rounds", "unrolled"},
                       {"state", "five i64 locals"},
                       {"substitution", std::string(formula_->name)},
                       {"memory", "imported as env.memory, the state and blocks in it"}};
    for (const AsconEntryPlan& plan : ascon_entry_plans(kSymbolSuffix))
      emit_entry(plan);
    kernel_.header = [decisions = decision_lines()](const HeaderInputs& in) {
      std::vector<std::string> lines = decisions;
      const audit::EntryAudit& p12 = in.audit.entries.at(0);
      const audit::EntryAudit& riscv64 = in.audit_of("ascon-riscv64-zbb").entries.at(0);
      lines.insert(lines.end(),
                   {
                       "",
                       "Figures of the code (the audit's, in rows: a row is one operation "
                       "between its",
                       "local.get and local.set), against ascon_p320_riscv64_zbb.S, whose "
                       "rounds are",
                       "the same but for its andn and orn:",
                       fmt::format("  first round of p12     wasm {}, riscv64 {}",
                                   p12.per_round.total, riscv64.per_round.total),
                       fmt::format("  p12, whole call        wasm {}, riscv64 {}",
                                   p12.per_permutation.total, riscv64.per_permutation.total),
                       "Speed: not measured yet (the npm package's bench will measure it).",
                   });
      return lines;
    };
    return std::move(kernel_);
  }

 private:
  // The formula with the fewest rows a round (an and-not or or-not is two rows here).
  const ascon::SubstitutionFormula& choose_formula() {
    return fewest_instructions(
        [](const ascon::SubstitutionFormula& formula) {
          Program scratch;
          scratch.isa = Isa::wasm32;
          scratch.functions.push_back(Function{"count", "", {}, {}});
          Emitter e(scratch, scratch.functions.back());
          const Locals l(1);
          AsconRegisterFile file(l.pool(), l.initial_words());
          return emit_substitution(e, file, l, formula);
        },
        counts_);
  }

  void emit_entry(const AsconEntryPlan& plan) {
    Program& program = kernel_.program;
    Function& function = add_ascon_entry(kernel_, plan);
    const Locals l(static_cast<int>(function.shape.parameters.size()));
    Emitter e(program, function);
    AsconRegisterFile file(l.pool(), l.initial_words());
    for (int word = 0; word < ascon::kWords; ++word)
      e.i64_load(file.words()[static_cast<std::size_t>(word)], at(kState, kWordBytes * word));
    const ThreeOperandAsconRows rows = rows_of(e);
    const auto rounds = [&] {
      emit_three_operand_rounds(
          rows, file, *formula_, plan.first_round(),
          [&] { emit_substitution(e, file, l, *formula_); }, "ascon-wasm");
    };
    if (plan.kind == EntryKind::permute) {
      rounds();
    } else {
      // Zero blocks leave the state as it was (loaded and stored back unchanged).
      const Reg count = plan.kind == EntryKind::absorb ? kCountOrOut : kCryptCount;
      const LabelId done = program.new_label(plan.symbol + "_done");
      const LabelId next_block = program.new_label(plan.symbol + "_next_block");
      e.block(done);
      e.br_if_eqz(done, count);
      e.loop(next_block);
      e.bind(next_block);
      const AsconRegisterFile::Words at_loop = file.words();
      emit_three_operand_block_input(rows, file, plan, kInput, kCountOrOut);
      rounds();
      restore_words(file, at_loop, [&](Reg dst, Reg src) { e.i64_copy(dst, src); });
      e.i32_add_const(count, count, -1);
      e.br_if(next_block, count);
      e.end();
      e.end();
      e.bind(done);
    }
    for (int word = 0; word < ascon::kWords; ++word)
      e.i64_store(file.words()[static_cast<std::size_t>(word)], at(kState, kWordBytes * word));
    e.return_();
  }

  std::vector<std::string> decision_lines() const {
    std::vector<std::string> lines = {
        "Ascon-p[320] (NIST SP 800-232) for WebAssembly 2.0 (wasm32) on i64 locals.",
        "",
        "Parameters (i32): state; blocks or in; block_count (absorb) or out (encrypt,",
        "decrypt); block_count (encrypt, decrypt).",
        fmt::format("Locals: a pool of {} i64 the five words and a round's values share (which "
                    "local",
                    kPoolLocals),
        "holds which word changes from round to round: each value goes where a dying operand",
        "was; the block loops copy the words back before they turn), and one through which a",
        "NOT goes into an and-not or or-not. Nothing of the state is in memory but the",
        "caller's array and the output. No branch and no address depends on the state or",
        "the input.",
        "",
        "A round: the substitution; the linear layer as two i64.rotr and two i64.xor per word;",
        "the next round's constant XORed into x2's second rotation (an i64.const: no table).",
        "The first round of a call adds its own. WebAssembly has no and-not or or-not, so a",
        "formula's ~a & b and ~a | b cost two rows; rows a round for each formula of the",
        "model (generator/model/ascon.cpp, each checked against the specification's S-box):",
    };
    for (const auto& [name, count] : counts_)
      lines.push_back(fmt::format("  {:<32} {}", name, count));
    lines.push_back(fmt::format("Chosen: {} (the fewest).", formula_->name));
    return lines;
  }

  BuiltKernel kernel_;
  const ascon::SubstitutionFormula* formula_ = nullptr;
  std::vector<std::pair<std::string, int>> counts_;
};

}  // namespace

BuiltKernel build_ascon_wasm() {
  return AsconWasmBuilder().build();
}

}  // namespace spongegen::kernels
