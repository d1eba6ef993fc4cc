// Ascon-p[320] for amd64 with BMI1 (ANDN) and BMI2 (RORX): the five words in registers for
// the whole call, rounds unrolled, and the mode entries looping over their blocks with the
// state kept in registers.
//
// The substitution layer comes from the model as a dataflow (model/ascon.hpp); a small
// allocator maps its values to registers, writing in place where an operand dies and copying
// where x86's two-operand form would destroy a value still needed. The builder emits the
// round with every formula the ISA can run, for the header's table, and keeps the one that
// measured fastest (kMeasuredFormula): on amd64 the fewest instructions did not.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "isa/amd64/amd64.hpp"
#include "kernels/ascon_entries.hpp"
#include "model/ascon.hpp"

namespace spongegen::kernels {
namespace {

using namespace amd64;

// Every register's role, named once. The arguments stay where System V puts them.
constexpr Reg kState = rdi;       // argument 1: uint64_t state[5]
constexpr Reg kInput = rsi;       // argument 2 of the mode entries: the blocks (or `in`)
constexpr Reg kCountOrOut = rdx;  // argument 3: block_count (absorb) or `out` (crypt)
constexpr Reg kCryptCount = rcx;  // argument 4 of encrypt and decrypt: block_count

// The substitution formula, chosen by measurement (the figures are in the header): ePrint
// 2023/1721's circuit, four instructions a round more than the fewest, ran p12, Hash and
// AEAD 3 to 5% faster on Zen 4 and left RustCrypto ascon 0.5 (the same circuit, compiled)
// level with this kernel; the fewest-instruction formula was 3 to 4% behind both.
constexpr std::string_view kMeasuredFormula = "ePrint 2023/1721";
// The words and the substitution's temporaries: 11 registers, six of them callee-saved.
constexpr std::array<Reg, 11> kPool = {rax, r8, r9, r10, r11, rbx, rbp, r12, r13, r14, r15};
constexpr std::array<Reg, 6> kCalleeSaved = {rbx, rbp, r12, r13, r14, r15};

constexpr std::string_view kSymbolSuffix = "amd64_bmi2";

// Which register holds each word; changes from round to round as the allocator places the
// substitution's outputs, so code that loops restores it (restore_mapping).
using WordRegisters = std::array<Reg, ascon::kWords>;

// The pool's registers in use (ascon_entries.hpp).
class RegisterFile : public AsconRegisterFile {
 public:
  explicit RegisterFile(const WordRegisters& words)
      : AsconRegisterFile({kPool.begin(), kPool.end()}, words) {}
};

// Emits one substitution layer from a formula: the words' registers in `file` are replaced
// by the registers of the formula's outputs. Returns the instructions it emitted.
int emit_substitution(Emitter& e, RegisterFile& file, const ascon::SubstitutionFormula& formula) {
  const int inputs = ascon::kWords;
  const int values = inputs + formula.operation_count();
  const std::vector<int> last_use = formula_last_uses(formula);
  std::vector<std::optional<Reg>> reg_of(static_cast<std::size_t>(values));
  for (int word = 0; word < inputs; ++word) {
    reg_of[static_cast<std::size_t>(word)] = file.words()[static_cast<std::size_t>(word)];
  }
  // From here on the file tracks registers by value, not by word.
  const WordRegisters inputs_held = file.words();
  for (Reg& reg : file.words())
    reg = rsp;  // a placeholder, never in kPool; the outputs are assigned at the end
  for (Reg reg : inputs_held)
    file.hold(reg);
  int emitted = 0;
  auto dies_at = [&](int value, int k) { return last_use[static_cast<std::size_t>(value)] == k; };
  auto reg = [&](int value) { return *reg_of[static_cast<std::size_t>(value)]; };
  for (int k = 0; k < formula.operation_count(); ++k) {
    const ascon::FormulaOp& op = formula.ops[static_cast<std::size_t>(k)];
    const int value = inputs + k;
    std::optional<Reg> dst;
    switch (op.op) {
      case ascon::BooleanOp::xor_op:
      case ascon::BooleanOp::and_op:
      case ascon::BooleanOp::or_op: {
        int into = op.a, other = op.b;
        if (!dies_at(op.a, k) && dies_at(op.b, k)) std::swap(into, other);
        if (dies_at(into, k)) {
          dst = reg(into);
        } else {
          dst = file.take();
          e.mov(*dst, reg(into));
          ++emitted;
        }
        if (op.op == ascon::BooleanOp::xor_op) e.xor_(*dst, reg(other));
        if (op.op == ascon::BooleanOp::and_op) e.and_(*dst, reg(other));
        if (op.op == ascon::BooleanOp::or_op) e.or_(*dst, reg(other));
        ++emitted;
        break;
      }
      case ascon::BooleanOp::and_not_a:
        dst = dies_at(op.a, k) ? reg(op.a) : dies_at(op.b, k) ? reg(op.b) : file.take();
        e.andn(*dst, reg(op.a), reg(op.b));
        ++emitted;
        break;
      case ascon::BooleanOp::not_op:
        if (dies_at(op.a, k)) {
          dst = reg(op.a);
        } else {
          dst = file.take();
          e.mov(*dst, reg(op.a));
          ++emitted;
        }
        e.not_(*dst);
        ++emitted;
        break;
      case ascon::BooleanOp::or_not_a:
        throw GenerationError(fmt::format(
            "ascon-amd64-bmi2: formula '{}' needs ORN, which amd64 lacks", formula.name));
    }
    reg_of[static_cast<std::size_t>(value)] = dst;
    file.hold(*dst);
    // Operands whose last use this was give their registers back (unless reused as dst).
    for (int operand : {op.a, op.b}) {
      if (operand >= 0 && dies_at(operand, k) && reg(operand) != *dst) file.release(reg(operand));
    }
  }
  for (int word = 0; word < inputs; ++word) {
    const Reg out = reg(formula.outputs[static_cast<std::size_t>(word)]);
    file.words()[static_cast<std::size_t>(word)] = out;
    file.release(out);  // held as a word from now on
  }
  return emitted;
}

// x ^= rotr(x, first) ^ rotr(x, second): two RORX into temporaries, two XOR. For x2,
// `x2_mask` (if any) is XORed into the second rotation, off the critical path: the next
// round's constant, and all ones where the substitution left x2 complemented.
void emit_linear_layer(Emitter& e, RegisterFile& file, std::optional<std::int64_t> x2_mask) {
  const ascon::Model& model = ascon::model();
  for (int word = 0; word < ascon::kWords; ++word) {
    const Reg x = file.words()[static_cast<std::size_t>(word)];
    const ascon::LinearRotations rotations = model.linear[static_cast<std::size_t>(word)];
    const Reg first = file.take(), second = file.take();
    e.rorx(first, x, rotations.first);
    e.rorx(second, x, rotations.second);
    if (word == 2 && x2_mask) {
      e.xor_(second, static_cast<std::int32_t>(*x2_mask));
      e.annotate(fmt::format("the next round's constant{}, folded in",
                             *x2_mask < 0 ? " and the deferred NOT" : ""));
    }
    e.xor_(x, first);
    e.xor_(x, second);
    e.annotate(fmt::format("x{} ^= rotr(x{}, {}) ^ rotr(x{}, {})", word, word, rotations.first,
                           word, rotations.second));
    file.release(first);
    file.release(second);
  }
}

// Rounds first_round .. 11, unrolled. The first round adds its constant to x2; every other
// round's constant is folded into the previous linear layer (x2 ^= c commutes with nothing
// in between, and there it is off the critical path). A formula that leaves x2 complemented
// (the deferred NOT) has the complement folded in the same way, since the linear layer maps
// ~x to ~L(x); after the last round one NOT makes x2 true again.
void emit_rounds(Emitter& e, RegisterFile& file, const ascon::SubstitutionFormula& formula,
                 int first_round) {
  const ascon::Model& model = ascon::model();
  const bool complemented_x2 = ((formula.complemented_outputs >> 2) & 1) != 0;
  if ((formula.complemented_outputs & ~(1u << 2)) != 0) {
    throw GenerationError(fmt::format(
        "ascon-amd64-bmi2: formula '{}' complements a word other than x2", formula.name));
  }
  auto constant = [&](int round) {
    return static_cast<std::int64_t>(model.round_constants[static_cast<std::size_t>(round)]);
  };
  for (int round = first_round; round < ascon::kMaxRounds; ++round) {
    e.begin_round(round - first_round, false);
    if (round == first_round) {
      e.xor_(file.words()[2], static_cast<std::int32_t>(constant(round)));
      e.annotate(fmt::format("round {}: x2 ^= 0x{:02x}", round, constant(round)));
    }
    emit_substitution(e, file, formula);
    std::optional<std::int64_t> mask;
    if (round + 1 < ascon::kMaxRounds) mask = constant(round + 1) ^ (complemented_x2 ? -1 : 0);
    emit_linear_layer(e, file, mask);
    if (round + 1 == ascon::kMaxRounds && complemented_x2) {
      e.not_(file.words()[2]);
      e.annotate("the deferred NOT of the last round");
    }
    e.end_round();
  }
}

class AsconAmd64Builder {
 public:
  BuiltKernel build() {
    Program& program = kernel_.program;
    program.isa = Isa::amd64;
    program.property_note = PropertyNote::x86_ibt_shstk;
    formula_ = &choose_formula();
    program.options = {{"syntax", "gnu-as intel_syntax noprefix"},
                       {"rounds", "unrolled"},
                       {"state", "five registers"},
                       {"substitution", std::string(formula_->name)},
                       {"abi", "sysv"}};
    for (const AsconEntryPlan& plan : ascon_entry_plans(kSymbolSuffix))
      emit_entry(plan);
    kernel_.header = [lines = header_lines()](const HeaderInputs&) { return lines; };
    return std::move(kernel_);
  }

 private:
  // Every formula's instructions a round on amd64 (moves included), for the header; the
  // one kMeasuredFormula names is built.
  const ascon::SubstitutionFormula& choose_formula() {
    const ascon::SubstitutionFormula* chosen = nullptr;
    for (const ascon::SubstitutionFormula& formula : ascon::model().formulas) {
      const bool runnable = !formula_uses(formula, ascon::BooleanOp::or_not_a);
      if (!runnable) {
        counts_.push_back({std::string(formula.name), -1});
        continue;
      }
      Program scratch;
      scratch.isa = Isa::amd64;
      scratch.functions.push_back(Function{"count", "", {}, {}});
      Emitter e(scratch, scratch.functions.back());
      RegisterFile file(initial_words());
      const int count = emit_substitution(e, file, formula);
      counts_.push_back({std::string(formula.name), count});
      if (fewest_ < 0 || count < counts_[static_cast<std::size_t>(fewest_)].second)
        fewest_ = static_cast<int>(counts_.size()) - 1;
      if (formula.name == kMeasuredFormula) chosen = &formula;
    }
    if (chosen == nullptr) {
      throw GenerationError(fmt::format(
          "ascon-amd64-bmi2: the measured formula '{}' is not a formula of the model that "
          "amd64 can run",
          kMeasuredFormula));
    }
    return *chosen;
  }

  static WordRegisters initial_words() { return {rax, r8, r9, r10, r11}; }

  void emit_entry(const AsconEntryPlan& plan) {
    Emitter e(kernel_.program, add_ascon_entry(kernel_, plan));
    e.endbr64();
    int cfa_offset = 8;
    for (Reg reg : kCalleeSaved) {
      e.push(reg);
      cfa_offset += 8;
      e.cfi({CfiKind::adjust_cfa_offset, 8});
      e.cfi({CfiKind::offset, -cfa_offset, reg});
    }
    RegisterFile file(initial_words());
    for (int word = 0; word < ascon::kWords; ++word)
      e.mov(file.words()[static_cast<std::size_t>(word)], qword(kState, 8 * word));
    const int first_round = plan.first_round();
    if (plan.kind == EntryKind::permute) {
      emit_rounds(e, file, *formula_, first_round);
    } else {
      const Reg count = plan.kind == EntryKind::absorb ? kCountOrOut : kCryptCount;
      const LabelId loop = kernel_.program.new_label(plan.symbol + "_block");
      const LabelId done = kernel_.program.new_label(plan.symbol + "_done");
      e.cmp(count, 0);
      e.je(done);
      e.bind(loop);
      const WordRegisters at_loop = file.words();
      emit_block_input(e, file, plan);
      emit_rounds(e, file, *formula_, first_round);
      restore_words(file, at_loop, [&](Reg dst, Reg src) { e.mov(dst, src); });
      e.sub(count, 1);
      e.jne(loop);
      e.bind(done);
    }
    for (int word = 0; word < ascon::kWords; ++word)
      e.mov(qword(kState, 8 * word), file.words()[static_cast<std::size_t>(word)]);
    for (auto it = kCalleeSaved.rbegin(); it != kCalleeSaved.rend(); ++it) {
      e.pop(*it);
      e.cfi({CfiKind::adjust_cfa_offset, -8});
      e.cfi({CfiKind::restore, 0, *it});
    }
    e.ret();
  }

  // The block's words into the rate (and out), advancing the pointers. Inputs are loaded
  // before outputs are stored, so `out` may be `in`.
  void emit_block_input(Emitter& e, RegisterFile& file, const AsconEntryPlan& plan) {
    WordRegisters& words = file.words();
    const int rate_words = plan.rate_bytes / 8;
    switch (plan.kind) {
      case EntryKind::absorb:
        for (int word = 0; word < rate_words; ++word)
          e.xor_(words[static_cast<std::size_t>(word)], qword(kInput, 8 * word));
        e.add(kInput, plan.rate_bytes);
        return;
      case EntryKind::encrypt:
        for (int word = 0; word < rate_words; ++word)
          e.xor_(words[static_cast<std::size_t>(word)], qword(kInput, 8 * word));
        for (int word = 0; word < rate_words; ++word)
          e.mov(qword(kCountOrOut, 8 * word), words[static_cast<std::size_t>(word)]);
        e.add(kInput, plan.rate_bytes);
        e.add(kCountOrOut, plan.rate_bytes);
        return;
      case EntryKind::decrypt: {
        // The ciphertext words become the rate; the old rate registers carry the plaintext.
        std::array<Reg, 2> ciphertext{};
        for (int word = 0; word < rate_words; ++word) {
          ciphertext[static_cast<std::size_t>(word)] = file.take();
          e.mov(ciphertext[static_cast<std::size_t>(word)], qword(kInput, 8 * word));
        }
        for (int word = 0; word < rate_words; ++word) {
          const auto w = static_cast<std::size_t>(word);
          e.xor_(words[w], ciphertext[w]);
          e.mov(qword(kCountOrOut, 8 * word), words[w]);
          e.annotate("plaintext");
          const Reg plaintext = words[w];
          words[w] = ciphertext[w];
          file.release(ciphertext[w]);
          (void)plaintext;  // free again: no word holds it any more
        }
        e.add(kInput, plan.rate_bytes);
        e.add(kCountOrOut, plan.rate_bytes);
        return;
      }
      case EntryKind::permute:
        return;
    }
  }

  std::vector<std::string> header_lines() const {
    const bool uses_andn = formula_uses(*formula_, ascon::BooleanOp::and_not_a);
    std::vector<std::string> lines = {
        uses_andn ? "Ascon-p[320] (NIST SP 800-232) for amd64 with BMI1 (ANDN) and BMI2 (RORX)."
                  : "Ascon-p[320] (NIST SP 800-232) for amd64 with BMI2 (RORX), chosen with BMI1.",
        "",
        "Syntax: GNU assembler, Intel syntax, passed through the C preprocessor.",
        "ABI: System V AMD64. state in rdi; blocks or in in rsi; block_count (absorb) or",
        "out (encrypt, decrypt) in rdx; block_count in rcx (encrypt, decrypt).",
        "Register roles: the five words and the substitution's temporaries share rax, r8-r11,",
        "rbx, rbp and r12-r15; which register holds which word changes from round to round",
        "(the allocator writes each value where a dying operand was), and the block loops",
        "move the words back before they turn. rbx, rbp and r12-r15 are callee-saved: pushed",
        "and popped with CFI. No stack frame beyond the pushes: no state word is ever stored",
        "below the stack pointer, so nothing needs clearing (the invariants check this).",
        "CET: endbr64 at every entry; the object carries the IBT and SHSTK property note.",
        "No branch and no memory address depends on the state or the input.",
        "",
        "The substitution layer: formulas from the model (generator/model/ascon.cpp), each",
        "checked against the specification's S-box; instructions a round on amd64 with this",
        "builder's allocator (moves included):",
    };
    for (const auto& [name, count] : counts_) {
      lines.push_back(count < 0 ? fmt::format("  {:<32} not expressible (ORN)", name)
                                : fmt::format("  {:<32} {}", name, count));
    }
    const auto& fewest = counts_[static_cast<std::size_t>(fewest_)];
    lines.push_back(
        formula_->name == fewest.first
            ? fmt::format("Chosen: {} (the fewest, and measured fastest).", formula_->name)
            : fmt::format("Chosen: {} (measured fastest; the fewest is {}, {}).", formula_->name,
                          fewest.first, fewest.second));
    const std::vector<std::string> measured = {
        "Measured (AMD EPYC, Zen 4: family 25 model 17, AVX-512, 2 vCPUs, KVM; 2026-12-06),",
        "this generator's kernel with each formula forced, in one C program (GCC 12 -O2; best",
        "of 300 x 2,000 calls, or of 15 passes over 1 MiB; three runs):",
        "                       NOT deferred (16)   ePrint 2023/1721 (20)   depth 3 (23)",
        "  p12                   37.35 ns            36.00 ns                35.73 ns",
        "  p6                    18.68 ns            18.14 ns                17.87 ns",
        "  Hash absorb           4.72-4.74 ns/B      4.49-4.51 ns/B          4.48-4.52 ns/B",
        "  AEAD encrypt          1.57-1.58 ns/B      1.49 ns/B               1.49-1.62 ns/B",
        "and through the Rust crate beside RustCrypto ascon 0.5, which compiles the same",
        "ePrint 2023/1721 circuit inline (bench/rust.sh, rustc 1.95; fastest of 101 samples,",
        "two runs, the same figures in both):",
        "  permute12             38.4 ns             37.1 ns                 39.8 ns    (ascon "
        "0.5: 37.1)",
        "  permute8              26.0 ns             24.9 ns                 26.8 ns    (24.9)",
        "  permute6              19.9 ns             19.0 ns                 20.3 ns    (19.2)",
        "ePrint 2023/1721 is ahead of the fewest-instruction formula in every case of both, and",
        "level with the compiled circuit; depth 3 is fastest in one program and slowest in the",
        "other, so its gain is within what the code's placement moves. llvm-mca, the 12",
        "rounds of p12, NOT deferred / ePrint 2023/1721 (modelled): znver2 120 / 123,",
        "znver3 131 / 130, icelake-server, sapphirerapids and alderlake 133 / 132 cycles.",
        "",
    };
    lines.insert(lines.end(), measured.begin(), measured.end());
    if (((formula_->complemented_outputs >> 2) & 1) != 0) {
      lines.insert(
          lines.end(),
          {"The deferred NOT leaves x2 complemented; the linear layer maps ~x to ~L(x), so "
           "the",
           "complement and the next round's constant are XORed into x2's second rotation "
           "(off the",
           "critical path, one instruction for both), and one NOT ends the permutation."});
    } else {
      lines.insert(lines.end(),
                   {"The next round's constant is XORed into x2's second rotation in the linear "
                    "layer",
                    "(off the critical path)."});
    }
    const std::vector<std::string> decisions = {
        "The first round adds its own constant. Unrolled rounds let the allocator place every",
        "value where a dying operand was; the block loops move the words back to their",
        "registers at the loop's start once per block.",
        "",
        "The figures below, on Zen 3 and Zen 5, were taken with the formula built before the",
        "measurement above, specification, NOT deferred (38 instructions a round).",
        "Loop over blocks in the kernel, or one call per block: measured (AMD EPYC, Zen 3, 2",
        "vCPUs, KVM; 2026-11-30; best of 7 passes over 1 MiB, TSC at 2.445 GHz; the runtime's",
        "portable C++ built by GCC 12 -O2 as the other column):",
        "                                         this kernel    portable",
        "  p12 per call                             42.8 ns       46.8 ns",
        "  Hash absorb, loop in the kernel          5.47 ns/B     5.72 ns/B",
        "  Hash absorb, x0 ^= block + p12 call      5.38 ns/B     5.98 ns/B",
        "  AEAD encrypt, loop in the kernel         1.81 ns/B     1.93 ns/B",
        "  AEAD encrypt, one p8 call per block      1.80 ns/B",
        "The two are level on this core: a round is bound by its dependency chain (the audit's",
        "8 cycles) and the core's four integer ALUs (38 instructions), and the call's five loads",
        "and stores hide under that. The loop stays: it is never slower here, keeps the state",
        "out of memory between blocks (nothing to clear), and matters more where calls cost",
        "more. The kernel is about 1.05-1.1x the portable code on this core, not the 1.3x the",
        "issue hoped for: GCC's code runs into the same two bounds.",
        "",
        "On an AMD EPYC (Zen 5, AVX-512, 2 vCPUs, KVM; 2026-12-01), where a chain of dependent",
        "adds ran at 1.585 core cycles per TSC tick (3.32 GHz): p12 67 ticks, about 106 cycles,",
        "against the audit's latency bound of 96 and issue bound of 78. The portable code",
        "built with -O3 -march=native took 69 ticks in the same run (bench/, portable-native).",
        "An AVX-512 form was prototyped in C intrinsics (GCC 12 -O3 -march=native), one word",
        "an xmm register: the substitution as 11 vpternlogq two deep (y0 = (x1 | (x4 ^ x2 ^",
        "x0)) ^ x4 ^ x3, y3 = ((x4 ^ x3) | x0) ^ x1 ^ x2, ...), the linear layer two vprolq and",
        "one vpternlogq a word, the constant beside the rotations: 28 instructions a round",
        "against 38, half the chain. Checked equal to the scalar form, it took 121-129 ticks",
        "per p12 against 86-100 for the scalar form in the same runs: about 16 cycles a round,",
        "so the vector pipes, not the chain, bound it on this core. llvm-mca's icelake-server",
        "model gives 12.5 cycles a round against 13.1 for the scalar loop. It is not built.",
        "The formula three operations deep (the model's \"depth 3\", found by an exhaustive",
        "search; this one is four deep) shortens a round's chain from 7 to 6 for 23",
        "instructions against 16. Built with it (the same generator, the choice forced) and",
        "timed against this file in one binary on the Zen 5 above (TSC ticks, minimum of 300",
        "x 200 calls or 7 passes over 1 MiB, three runs): p12 64 -> 62, Hash absorb",
        "8.33-8.39 -> 8.23-8.28 ticks/B, AEAD encrypt 2.75-2.82 -> 2.70 ticks/B. llvm-mca, the",
        "12 rounds of p12: znver3 131 -> 124 cycles, znver2 120 -> 132, icelake-server,",
        "sapphirerapids and alderlake 133 -> 137 (modelled). Two to three percent where",
        "measured there and a loss on three of the five modelled cores; Zen 5, which runs RORX",
        "on three of its six ALUs (0.32 cycles each in a throughput loop), is bound by issue",
        "more than by the chain.",
    };
    lines.insert(lines.end(), decisions.begin(), decisions.end());
    return lines;
  }

  BuiltKernel kernel_;
  const ascon::SubstitutionFormula* formula_ = nullptr;
  std::vector<std::pair<std::string, int>> counts_;
  int fewest_ = -1;  // index in counts_ of the formula with the fewest instructions
};

}  // namespace

BuiltKernel build_ascon_amd64_bmi2() {
  return AsconAmd64Builder().build();
}

}  // namespace spongegen::kernels
