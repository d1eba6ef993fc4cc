// Ascon-p[320] for riscv64 with the Zbb extension: the five words in caller-saved registers
// for the whole call, rounds unrolled, the mode entries looping over their blocks with the
// state kept in registers.
//
// Three-operand instructions need no copies: each value of the substitution formula goes to
// a free register or over an operand that dies there. Zbb's andn and orn take the formulas'
// NOT for free; its rori makes each rotation of the linear layer one instruction, so a word
// is two rotations and two XOR. The round constant is a 12-bit immediate (xori).
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/riscv64/riscv64.hpp"
#include "kernels/ascon_entries.hpp"
#include "program/audit_figures.hpp"

namespace spongegen::kernels {
namespace {

using namespace riscv64;

// Every register's role, named once. The arguments stay where LP64 puts them; the words and
// temporaries use only caller-saved registers (t0-t6, a4-a7), so no register is saved and
// there is no frame. ra, gp, tp and s0-s11 are not touched.
constexpr Reg kState = a(0);       // argument 1: uint64_t state[5]
constexpr Reg kInput = a(1);       // argument 2 of the mode entries: the blocks (or `in`)
constexpr Reg kCountOrOut = a(2);  // argument 3: block_count (absorb) or `out` (crypt)
constexpr Reg kCryptCount = a(3);  // argument 4 of encrypt and decrypt: block_count
constexpr std::array<Reg, 11> kPool = {x(5),  x(6),  x(7),  x(14), x(15), x(16),
                                       x(17), x(28), x(29), x(30), x(31)};

constexpr std::string_view kSymbolSuffix = "riscv64_zbb";
constexpr int kWordBytes = 8;

// ascon-c's opt64 permutation compiled for this ISA, counted by hand outside the repository
// (the comparison the header states; the build refuses a kernel that is not below it).
struct CompiledPeer {
  std::string_view source = "ascon-c (github.com/ascon/ascon-c) commit 446347f21b20";
  std::string_view file = "crypto_hash/asconhash256/opt64/permutations.c, P12";
  std::string_view flags =
      "riscv64-linux-gnu-gcc 12.2.0 -O2 -march=rv64gc_zbb -mabi=lp64d -DASCON_INLINE_PERM=0 -S";
  int instructions = 469;  // 5 ld, 5 sd and ret included
};
constexpr CompiledPeer kCompiledPeer;

using WordRegisters = std::array<Reg, ascon::kWords>;

class Registers : public AsconRegisterFile {
 public:
  explicit Registers(const WordRegisters& words)
      : AsconRegisterFile({kPool.begin(), kPool.end()}, words) {}
};

// One substitution layer; returns the instructions emitted.
int emit_substitution(Emitter& e, Registers& file, const ascon::SubstitutionFormula& formula) {
  // zero: a placeholder, never in kPool.
  return emit_three_operand_substitution(file, formula, zero,
                                         [&](ascon::BooleanOp op, Reg dst, Reg a, Reg b) {
                                           switch (op) {
                                             case ascon::BooleanOp::xor_op:
                                               e.xor_(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::and_op:
                                               e.and_(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::or_op:
                                               e.or_(dst, a, b);
                                               break;
                                             case ascon::BooleanOp::and_not_a:  // ~a & b
                                               e.andn(dst, b, a);
                                               break;
                                             case ascon::BooleanOp::or_not_a:  // ~a | b
                                               e.orn(dst, b, a);
                                               break;
                                             case ascon::BooleanOp::not_op:
                                               e.not_(dst, a);
                                               break;
                                           }
                                         });
}

// The rows of the rounds and block loops the Ascon builders share, as riscv64 writes them.
ThreeOperandAsconRows rows_of(Emitter& e) {
  return {e,
          [&e](Reg d, Reg a, int amount) { e.rori(d, a, amount); },
          [&e](Reg d, Reg a, Reg b) { e.xor_(d, a, b); },
          [&e](Reg d, Reg a, std::int64_t constant) { e.xori(d, a, constant); },
          [&e](Reg d, Reg a) { e.not_(d, a); },
          [&e](Reg d, Reg base, int offset) { e.ld(d, at(base, offset)); },
          [&e](Reg s, Reg base, int offset) { e.sd(s, at(base, offset)); },
          [&e](Reg pointer, int bytes) { e.addi(pointer, pointer, bytes); }};
}

class AsconRiscv64Builder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::riscv64;
    program.arch_directive = "+zbb";
    formula_ = &choose_formula();
    program.options = {{"syntax", "gnu-as riscv64"},
                       {"rounds", "unrolled"},
                       {"state", "five registers of t0-t6, a4-a7"},
                       {"substitution", std::string(formula_->name)},
                       {"extensions", "rv64i, zbb"},
                       {"abi", "lp64"}};
    for (const AsconEntryPlan& plan : ascon_entry_plans(kSymbolSuffix))
      emit_entry(plan);
    kernel_.header = [decisions = decision_lines()](const HeaderInputs& in) {
      std::vector<std::string> lines = decisions;
      const std::vector<std::string> comparison =
          comparison_lines(in.audit, in.audit_of("ascon-arm64"));
      lines.insert(lines.end(), comparison.begin(), comparison.end());
      return lines;
    };
    return std::move(kernel_);
  }

 private:
  static WordRegisters initial_words() { return {x(5), x(6), x(7), x(28), x(29)}; }

  // The formula with the fewest instructions a round (every formula is expressible with
  // Zbb; a deferred NOT costs nothing, folded into the next round's constant).
  const ascon::SubstitutionFormula& choose_formula() {
    return fewest_instructions(
        [](const ascon::SubstitutionFormula& formula) {
          Program scratch;
          scratch.isa = Isa::riscv64;
          scratch.functions.push_back(Function{"count", "", {}, {}});
          Emitter e(scratch, scratch.functions.back());
          Registers file(initial_words());
          return emit_substitution(e, file, formula);
        },
        counts_);
  }

  void emit_entry(const AsconEntryPlan& plan) {
    Emitter e(kernel_.program, add_ascon_entry(kernel_, plan));
    Registers file(initial_words());
    const WordRegisters& words = file.words();
    for (int word = 0; word < ascon::kWords; ++word)
      e.ld(words[static_cast<std::size_t>(word)], at(kState, kWordBytes * word));
    const ThreeOperandAsconRows rows = rows_of(e);
    const auto rounds = [&] {
      emit_three_operand_rounds(
          rows, file, *formula_, plan.first_round(), [&] { emit_substitution(e, file, *formula_); },
          "ascon-riscv64-zbb");
    };
    if (plan.kind == EntryKind::permute) {
      rounds();
    } else {
      const Reg count = plan.kind == EntryKind::absorb ? kCountOrOut : kCryptCount;
      const LabelId loop = kernel_.program.new_label(plan.symbol + "_block");
      const LabelId done = kernel_.program.new_label(plan.symbol + "_done");
      e.beqz(count, done);
      e.bind(loop);
      const WordRegisters at_loop = file.words();
      emit_three_operand_block_input(rows, file, plan, kInput, kCountOrOut);
      rounds();
      restore_words(file, at_loop, [&](Reg dst, Reg src) { e.mv(dst, src); });
      e.addi(count, count, -1);
      e.bnez(count, loop);
      e.bind(done);
    }
    for (int word = 0; word < ascon::kWords; ++word)
      e.sd(file.words()[static_cast<std::size_t>(word)], at(kState, kWordBytes * word));
    e.ret();
  }

  // The header up to the comparisons: what the builder decided.
  std::vector<std::string> decision_lines() const {
    std::vector<std::string> lines = {
        "Ascon-p[320] (NIST SP 800-232) for riscv64: RV64I with the Zbb extension (rori, andn,",
        "orn), LP64.",
        "",
        "Syntax: GNU assembler (RISC-V), passed through the C preprocessor.",
        "ABI: LP64. state in a0; blocks or in in a1; block_count (absorb) or out (encrypt,",
        "decrypt) in a2; block_count in a3 (encrypt, decrypt).",
        "Register roles: the five words and every temporary in t0-t6 and a4-a7, all",
        "caller-saved, so no register is saved and there is no frame: nothing of the state is",
        "ever in memory but the caller's array and the output. Which register holds which word",
        "changes from round to round (each value goes where a dying operand was); the block",
        "loops move the words back (mv) before they turn. ra, gp, tp and s0-s11 are untouched.",
        "No branch and no memory address depends on the state or the input.",
        "",
        "A round: the substitution; the linear layer as two rori and two xor per word, the",
        "rotations side by side (three instructions deep); the next round's constant XORed",
        "into x2's second rotation with one xori (a 12-bit immediate: no table, no",
        "PC-relative address), beside the chain. The first round of a call adds its own.",
        "The substitution layer: formulas from the model (generator/model/ascon.cpp), each",
        "checked against the specification's S-box; instructions a round here (a deferred NOT",
        "is free: the complement joins the next constant's immediate, one not ends the call):",
    };
    for (const auto& [name, count] : counts_)
      lines.push_back(fmt::format("  {:<32} {}", name, count));
    lines.push_back(fmt::format("Chosen: {} (the fewest).", formula_->name));
    return lines;
  }

  // Against compiled ascon-c and the arm64 kernel, from the audit.
  static std::vector<std::string> comparison_lines(const audit::KernelAudit& here,
                                                   const audit::KernelAudit& arm64) {
    const audit::EntryAudit& p12 = here.entries.at(0);
    const audit::EntryAudit& arm64_p12 = arm64.entries.at(0);
    const std::uint64_t ours = p12.per_permutation.total;
    if (ours >= static_cast<std::uint64_t>(kCompiledPeer.instructions)) {
      throw GenerationError(
          fmt::format("ascon-riscv64-zbb: p12 takes {} instructions, not fewer than compiled "
                      "ascon-c's {}",
                      ours, kCompiledPeer.instructions));
    }
    return {
        "",
        "Against ascon-c's opt64 permutation compiled for RV64 with Zbb, instructions of one",
        "p12 call (ours from the audit, `spongegen audit`; the clearing of the caller-saved",
        "registers included, which the compiled code does not do):",
        fmt::format("  this kernel            {}", ours),
        fmt::format("  ascon-c, compiled      {}", kCompiledPeer.instructions),
        fmt::format("    {}", kCompiledPeer.source),
        fmt::format("    {}", kCompiledPeer.file),
        fmt::format("    {}", kCompiledPeer.flags),
        "    (5 ld, 5 sd and ret included; counted in the .s file's P12 function)",
        "",
        "Against ascon_p320_arm64.S, from the same audit:",
        fmt::format("  first round of p12     riscv64 {}, arm64 {} instructions",
                    p12.per_round.total, arm64_p12.per_round.total),
        fmt::format("  p12, whole call        riscv64 {}, arm64 {} instructions", ours,
                    arm64_p12.per_permutation.total),
        fmt::format("  round chain            riscv64 {}, arm64 {} cycles (the audit's "
                    "latency model)",
                    p12.round_chain_cycles, arm64_p12.round_chain_cycles),
        "Speed: not measured; no RISC-V hardware here (qemu runs it for the tests).",
    };
  }

  BuiltKernel kernel_;
  const ascon::SubstitutionFormula* formula_ = nullptr;
  std::vector<std::pair<std::string, int>> counts_;
};

}  // namespace

BuiltKernel build_ascon_riscv64_zbb() {
  return AsconRiscv64Builder().build();
}

}  // namespace spongegen::kernels
