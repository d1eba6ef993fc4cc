// Ascon-p[320] for arm64 on general-purpose registers (any ARMv8-A core): the five words in
// caller-saved registers for the whole call, rounds unrolled, the mode entries looping over
// their blocks with the state kept in registers.
//
// Three-operand instructions need no copies: each value of the substitution formula goes to
// a free register or over an operand that dies there. ORN and BIC take the formulas' NOT
// for free, and the linear layer is two EOR with ROR-shifted operands per word:
// x ^= rotr(x ^ rotr(x, b - a), a).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "isa/arm64/arm64.hpp"
#include "kernels/ascon_entries.hpp"
#include "program/audit_figures.hpp"

namespace spongegen::kernels {
namespace {

using namespace arm64;

// Every register's role, named once. The arguments stay where AAPCS64 puts them; the words
// and temporaries use only caller-saved registers (x4-x17), so no register is saved and
// there is no frame. x18 (the platform register) and x29/x30 are not touched.
constexpr Reg kState = x(0);       // argument 1: uint64_t state[5]
constexpr Reg kInput = x(1);       // argument 2 of the mode entries: the blocks (or `in`)
constexpr Reg kCountOrOut = x(2);  // argument 3: block_count (absorb) or `out` (crypt)
constexpr Reg kCryptCount = x(3);  // argument 4 of encrypt and decrypt: block_count
constexpr std::array<Reg, 14> kPool = {x(4),  x(5),  x(6),  x(7),  x(8),  x(9),  x(10),
                                       x(11), x(12), x(13), x(14), x(15), x(16), x(17)};

constexpr std::string_view kSymbolSuffix = "arm64";

using WordRegisters = std::array<Reg, ascon::kWords>;

// Registers in use: the words', and values in flight within a round.
// The pool's registers in use (ascon_entries.hpp).
class Registers : public AsconRegisterFile {
 public:
  explicit Registers(const WordRegisters& words)
      : AsconRegisterFile({kPool.begin(), kPool.end()}, words) {}
};

// One substitution layer; returns the instructions emitted.
int emit_substitution(Emitter& e, Registers& file, const ascon::SubstitutionFormula& formula) {
  // sp: a placeholder, never in kPool.
  return emit_three_operand_substitution(file, formula, sp,
                                         [&](ascon::BooleanOp op, Reg dst, Reg a, Reg b) {
                                           switch (op) {
                                             case ascon::BooleanOp::xor_op:
                                               e.eor(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::and_op:
                                               e.and_(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::or_op:
                                               e.orr(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::and_not_a:  // ~a & b
                                               e.bic(dst, b, a);
                                               break;
                                             case ascon::BooleanOp::or_not_a:  // ~a | b
                                               e.orn(dst, b, a);
                                               break;
                                             case ascon::BooleanOp::not_op:
                                               e.mvn(dst, a);
                                               break;
                                           }
                                         });
}

void emit_rounds(Emitter& e, Registers& file, const ascon::SubstitutionFormula& formula,
                 int first_round) {
  const ascon::Model& model = ascon::model();
  for (int round = first_round; round < ascon::kMaxRounds; ++round) {
    e.begin_round(round - first_round, false);
    const std::uint64_t constant = model.round_constants[static_cast<std::size_t>(round)];
    const Reg constant_register = file.take();
    e.mov(constant_register, static_cast<std::int64_t>(constant));
    e.eor(file.words()[2], file.words()[2], constant_register);
    e.annotate(fmt::format("round {}: x2 ^= 0x{:02x}", round, constant));
    file.release(constant_register);
    emit_substitution(e, file, formula);
    for (int word = 0; word < ascon::kWords; ++word) {
      const Reg x = file.words()[static_cast<std::size_t>(word)];
      const ascon::LinearRotations rotations = model.linear[static_cast<std::size_t>(word)];
      const Reg t = file.take();
      e.eor(t, x, ror(x, (rotations.second - rotations.first + 64) % 64));
      e.eor(x, x, ror(t, rotations.first));
      e.annotate(fmt::format("x{} ^= rotr(x{}, {}) ^ rotr(x{}, {})", word, word, rotations.first,
                             word, rotations.second));
      file.release(t);
    }
    e.end_round();
  }
}

class AsconArm64Builder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::arm64;
    program.property_note = PropertyNote::aarch64_bti_pac;
    program.arch_directive = "armv8-a";
    formula_ = &choose_formula();
    program.options = {{"syntax", "gnu-as aarch64"},
                       {"rounds", "unrolled"},
                       {"state", "five registers of x4-x17"},
                       {"substitution", std::string(formula_->name)},
                       {"abi", "aapcs64"}};
    for (const AsconEntryPlan& plan : ascon_entry_plans(kSymbolSuffix))
      emit_entry(plan);
    kernel_.header = [decisions = decision_lines()](const HeaderInputs& in) {
      std::vector<std::string> lines = decisions;
      const std::vector<std::string> comparison =
          comparison_lines(in.audit, in.audit_of("ascon-amd64-bmi2"));
      lines.insert(lines.end(), comparison.begin(), comparison.end());
      return lines;
    };
    return std::move(kernel_);
  }

 private:
  static WordRegisters initial_words() { return {x(4), x(5), x(6), x(7), x(8)}; }

  // The formula with the fewest instructions (every formula is expressible here).
  const ascon::SubstitutionFormula& choose_formula() {
    const ascon::SubstitutionFormula* best = nullptr;
    int best_count = 0;
    for (const ascon::SubstitutionFormula& formula : ascon::model().formulas) {
      if (formula.complemented_outputs != 0) {
        counts_.push_back({std::string(formula.name), -1});
        continue;
      }
      Program scratch;
      scratch.isa = Isa::arm64;
      scratch.functions.push_back(Function{"count", "", {}, {}});
      Emitter e(scratch, scratch.functions.back());
      Registers file(initial_words());
      const int count = emit_substitution(e, file, formula);
      counts_.push_back({std::string(formula.name), count});
      if (best == nullptr || count < best_count) {
        best = &formula;
        best_count = count;
      }
    }
    return *best;
  }

  void emit_entry(const AsconEntryPlan& plan) {
    Emitter e(kernel_.program, add_ascon_entry(kernel_, plan));
    e.bti_c();
    Registers file(initial_words());
    const WordRegisters& words = file.words();
    e.ldp(words[0], words[1], at(kState, 0));
    e.ldp(words[2], words[3], at(kState, 16));
    e.ldr(words[4], at(kState, 32));
    if (plan.kind == EntryKind::permute) {
      emit_rounds(e, file, *formula_, plan.first_round());
    } else {
      const Reg count = plan.kind == EntryKind::absorb ? kCountOrOut : kCryptCount;
      const LabelId loop = kernel_.program.new_label(plan.symbol + "_block");
      const LabelId done = kernel_.program.new_label(plan.symbol + "_done");
      e.cbz(count, done);
      e.bind(loop);
      const WordRegisters at_loop = file.words();
      emit_block_input(e, file, plan);
      emit_rounds(e, file, *formula_, plan.first_round());
      restore_words(file, at_loop, [&](Reg dst, Reg src) { e.mov(dst, src); });
      e.sub(count, count, 1);
      e.cbnz(count, loop);
      e.bind(done);
    }
    e.stp(file.words()[0], file.words()[1], at(kState, 0));
    e.stp(file.words()[2], file.words()[3], at(kState, 16));
    e.str(file.words()[4], at(kState, 32));
    e.ret();
  }

  // The block's words into the rate (and out), advancing the pointers by post-indexing.
  // Inputs are loaded before outputs are stored, so `out` may be `in`.
  void emit_block_input(Emitter& e, Registers& file, const AsconEntryPlan& plan) {
    WordRegisters& words = file.words();
    const Reg first = file.take(), second = file.take();
    if (plan.rate_words() == 1) {
      e.ldr(first, post_index(kInput, plan.rate_bytes));
      e.eor(words[0], words[0], first);
    } else {
      e.ldp(first, second, post_index(kInput, plan.rate_bytes));
      if (plan.kind == EntryKind::decrypt) {
        // The plaintext goes out; the ciphertext words become the rate.
        e.eor(words[0], words[0], first);
        e.eor(words[1], words[1], second);
        e.stp(words[0], words[1], post_index(kCountOrOut, plan.rate_bytes));
        e.annotate("plaintext");
        words[0] = first;
        words[1] = second;
      } else {
        e.eor(words[0], words[0], first);
        e.eor(words[1], words[1], second);
        if (plan.kind == EntryKind::encrypt) {
          e.stp(words[0], words[1], post_index(kCountOrOut, plan.rate_bytes));
          e.annotate("ciphertext");
        }
      }
    }
    file.release(first);
    file.release(second);
  }

  // The header up to the comparison with the amd64 kernel: what the builder decided.
  std::vector<std::string> decision_lines() const {
    std::vector<std::string> lines = {
        "Ascon-p[320] (NIST SP 800-232) for arm64 on general-purpose registers: any ARMv8-A",
        "core.",
        "",
        "Syntax: GNU assembler (AArch64), passed through the C preprocessor.",
        "ABI: AAPCS64. state in x0; blocks or in in x1; block_count (absorb) or out (encrypt,",
        "decrypt) in x2; block_count in x3 (encrypt, decrypt).",
        "Register roles: the five words and every temporary in x4-x17, all caller-saved, so",
        "no register is saved and there is no frame: nothing of the state is ever in memory",
        "but the caller's array and the output. Which register holds which word changes from",
        "round to round (each value goes where a dying operand was); the block loops move the",
        "words back before they turn. x18 (the platform register), x29 and x30 are untouched.",
        "BTI: `bti c` at each entry; the ELF object carries the GNU property note with BTI and",
        "PAC (a leaf that never saves its return address needs no PAC instruction).",
        "No branch and no memory address depends on the state or the input.",
        "",
        "A round: x2 ^= the constant (mov of the immediate, eor), the substitution, and the",
        "linear layer as two eor with ROR-shifted operands per word:",
        "x ^= rotr(x ^ rotr(x, b - a), a), 10 instructions where amd64 needs 20.",
        "The substitution layer: formulas from the model (generator/model/ascon.cpp), each",
        "checked against the specification's S-box; instructions a round here:",
    };
    for (const auto& [name, count] : counts_) {
      lines.push_back(count < 0 ? fmt::format("  {:<32} not used (a deferred NOT)", name)
                                : fmt::format("  {:<32} {}", name, count));
    }
    lines.push_back(fmt::format("Chosen: {} (the fewest).", formula_->name));
    return lines;
  }

  // Against the amd64 kernel, from the same audit.
  static std::vector<std::string> comparison_lines(const audit::KernelAudit& here,
                                                   const audit::KernelAudit& amd64) {
    std::vector<std::string> lines;
    const audit::EntryAudit& p12 = here.entries.at(0);
    const audit::EntryAudit& amd64_p12 = amd64.entries.at(0);
    lines.push_back("");
    lines.push_back("Against ascon_p320_amd64_bmi2.S, from the audit (`spongegen audit`):");
    lines.push_back(fmt::format("  first round of p12     arm64 {}, amd64 {} instructions",
                                p12.per_round.total, amd64_p12.per_round.total));
    lines.push_back(fmt::format("  p12, whole call        arm64 {}, amd64 {} instructions",
                                p12.per_permutation.total, amd64_p12.per_permutation.total));
    lines.push_back(
        fmt::format("  round chain            arm64 {}, amd64 {} cycles (the audit's "
                    "latency model)",
                    p12.round_chain_cycles, amd64_p12.round_chain_cycles));
    lines.push_back("Speed: measured on no arm64 machine (qemu runs the tests, not the clock).");
    return lines;
  }

  BuiltKernel kernel_;
  const ascon::SubstitutionFormula* formula_ = nullptr;
  std::vector<std::pair<std::string, int>> counts_;
};

}  // namespace

BuiltKernel build_ascon_arm64() {
  return AsconArm64Builder().build();
}

}  // namespace spongegen::kernels
