// What every Ascon-p[320] kernel shares, whatever its ISA: the seven entries of the runtime's
// Ascon table (named, documented and typed alike), the liveness of a substitution formula's
// values, and the parallel move that puts the words back where a block loop started.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel.hpp"
#include "model/ascon.hpp"

namespace spongegen::kernels {

// One entry: p12, p8, p6, absorb_hash (8-byte blocks, p12), absorb_ad (16-byte blocks, p8),
// encrypt and decrypt (16-byte blocks, p8).
struct AsconEntryPlan {
  std::string symbol;  // sponge_ascon_p320_<suffix>_<name>
  std::string summary;
  EntryKind kind;
  int rounds;
  int rate_bytes;  // 0 for a permute entry
  int first_round() const { return ascon::kMaxRounds - rounds; }
  int rate_words() const { return rate_bytes / 8; }
};
std::vector<AsconEntryPlan> ascon_entry_plans(std::string_view kernel_suffix);

// Adds the entry's function, with its EntryShape and C signature, to the kernel's Program.
Function& add_ascon_entry(BuiltKernel& kernel, const AsconEntryPlan& plan);

// For each value of the formula (inputs 0..4, then one per operation), the index of the last
// operation that reads it; the outputs count as read at operation_count().
std::vector<int> formula_last_uses(const ascon::SubstitutionFormula& formula);
bool formula_uses(const ascon::SubstitutionFormula& formula, ascon::BooleanOp op);

// The registers of a kernel's pool in use: the five words', and values in flight within a
// round (the substitution's temporaries, the linear layer's rotations).
class AsconRegisterFile {
 public:
  using Words = std::array<Reg, ascon::kWords>;
  AsconRegisterFile(std::vector<Reg> pool, const Words& words)
      : pool_(std::move(pool)), words_(words) {}
  Words& words() { return words_; }
  // A pool register no word holds and no value in flight uses; throws when none is left.
  Reg take();
  void hold(Reg reg);
  void release(Reg reg);
  bool busy(Reg reg) const;

 private:
  std::vector<Reg> pool_;
  Words words_;
  std::vector<Reg> in_flight_;
};

// One substitution layer for an ISA with three-operand instructions: each value of the
// formula goes over an operand that dies there, or to a free register of the file; the
// words' registers become the formula's outputs'. `emit(op, dst, a, b)` emits one operation
// (b is the placeholder for a NOT); `placeholder` is a register outside the pool. Returns
// the instructions emitted.
int emit_three_operand_substitution(
    AsconRegisterFile& file, const ascon::SubstitutionFormula& formula, Reg placeholder,
    const std::function<void(ascon::BooleanOp, Reg dst, Reg a, Reg b)>& emit);

// The rows a three-operand ISA's Ascon rounds and block loops are made of (riscv64 with Zbb,
// wasm32), as its builder's Emitter writes them; `builder` takes the round markers and the
// annotations.
struct ThreeOperandAsconRows {
  FunctionBuilder& builder;
  std::function<void(Reg d, Reg a, int amount)> rotate_right;
  std::function<void(Reg d, Reg a, Reg b)> exclusive_or;
  std::function<void(Reg d, Reg a, std::int64_t constant)> exclusive_or_constant;
  std::function<void(Reg d, Reg a)> complement;
  std::function<void(Reg d, Reg base, int offset)> load;
  std::function<void(Reg s, Reg base, int offset)> store;
  std::function<void(Reg pointer, int bytes)> advance;
};

// Rounds first_round .. 11, unrolled: the first round adds its constant to x2; every other
// round's is folded into the linear layer of the round before (XORed into x2's second
// rotation), with the complement of a formula that leaves x2 complemented (the linear layer
// maps ~x to ~L(x)); after the last round of such a formula one NOT makes x2 true again. A
// word of the linear layer is x ^= rotr(x, first) ^ rotr(x, second), the rotations side by
// side. `substitution` emits one substitution layer; `kernel` names the kernel in errors.
void emit_three_operand_rounds(const ThreeOperandAsconRows& rows, AsconRegisterFile& file,
                               const ascon::SubstitutionFormula& formula, int first_round,
                               const std::function<void()>& substitution, std::string_view kernel);

// A mode entry's block into the rate (and out), then the pointers advanced: `input` the
// blocks (or in), `output` out (encrypt, decrypt). Inputs are loaded before outputs are
// stored, so `out` may be `in`.
void emit_three_operand_block_input(const ThreeOperandAsconRows& rows, AsconRegisterFile& file,
                                    const AsconEntryPlan& plan, Reg input, Reg output);

// The formula `count` gives the fewest instructions, each formula's count added to `counts`
// (for the header).
const ascon::SubstitutionFormula& fewest_instructions(
    const std::function<int(const ascon::SubstitutionFormula&)>& count,
    std::vector<std::pair<std::string, int>>& counts);

// Moves the file's words back to `target`, the registers they had where a block loop starts
// (a parallel move; a cycle goes through a free register of the pool). `move(dst, src)`
// emits one register move.
void restore_words(AsconRegisterFile& file, const AsconRegisterFile::Words& target,
                   const std::function<void(Reg, Reg)>& move);

}  // namespace spongegen::kernels
