// WebAssembly's structured control flow in a Program: block, loop and end nest, a branch
// names a label that a construct around it owns, and its relative depth is the number of
// constructs between (br's immediate). The label's LabelDef sits where the branch arrives,
// right after `loop` or right after the block's `end`, so the prover's jump to the LabelDef
// is WebAssembly's branch.
#include <fmt/format.h>

#include <optional>
#include <set>

#include "isa/wasm32/lowering.hpp"
#include "isa/wasm32/wasm32.hpp"

namespace spongegen::wasm32 {

Structure check_structure(const Program& program, const Function& function) {
  struct Open {
    LabelId label;
    bool loop;
  };
  std::vector<Open> open;
  Structure structure;
  std::set<LabelId> owned;  // labels of every block and loop so far
  // The label a LabelDef may bind next: the loop's just begun or the block's just ended.
  std::optional<LabelId> bindable;
  const Instruction* last = nullptr;
  const auto refuse_here = [&](const Instruction& instruction, const std::string& why) {
    refuse(program, function, instruction, why);
  };
  const auto label_of = [&](const Instruction& instruction) {
    const auto* label = std::get_if<LabelRef>(&instruction.operands.at(0));
    if (label == nullptr) refuse_here(instruction, "operand 1 is not a label");
    return label->id;
  };
  const auto name_of = [&](LabelId id) {
    return id < program.label_names.size() ? program.label_names[id] : fmt::format("{}", id);
  };
  // Each block's and loop's label is bound where a branch to it arrives, so the text (which
  // names the label on the construct) reads back as the same Program.
  const auto unbound = [&](LabelId label) {
    throw GenerationError(fmt::format(
        "kernel {}, function {}: label {} is not bound right after '{}', where a branch to "
        "it arrives",
        program.kernel_name, function.symbol, name_of(label), describe(program, function, *last)));
  };
  for (const Item& item : function.items) {
    const auto* def = std::get_if<LabelDef>(&item);
    if (bindable && (def == nullptr || def->id != *bindable)) unbound(*bindable);
    if (def != nullptr) {
      if (!bindable || *bindable != def->id) {
        const std::string name = name_of(def->id);
        const std::string where =
            last == nullptr ? "at the start" : "after '" + describe(program, function, *last) + "'";
        throw GenerationError(fmt::format(
            "kernel {}, function {}: label {} is bound {}, not right after its loop begins or "
            "its block ends, where a branch to it arrives",
            program.kernel_name, function.symbol, name, where));
      }
      bindable.reset();
      continue;
    }
    const auto* instruction = std::get_if<Instruction>(&item);
    if (instruction == nullptr) continue;
    last = instruction;
    bindable.reset();
    int depth = -1;
    switch (instruction->mnemonic) {
      case Mnemonic::wasm32_block:
      case Mnemonic::wasm32_loop: {
        const LabelId label = label_of(*instruction);
        if (!owned.insert(label).second) {
          refuse_here(*instruction, "its label already belongs to another block or loop");
        }
        const bool loop = instruction->mnemonic == Mnemonic::wasm32_loop;
        open.push_back({label, loop});
        if (loop) bindable = label;
        break;
      }
      case Mnemonic::wasm32_end:
        if (open.empty()) refuse_here(*instruction, "no block or loop is open to end");
        if (!open.back().loop) bindable = open.back().label;
        open.pop_back();
        break;
      case Mnemonic::wasm32_br:
      case Mnemonic::wasm32_br_if:
      case Mnemonic::wasm32_br_if_eqz: {
        const LabelId label = label_of(*instruction);
        for (std::size_t i = open.size(); i-- > 0;) {
          if (open[i].label == label) {
            depth = static_cast<int>(open.size() - 1 - i);
            break;
          }
        }
        if (depth < 0) {
          refuse_here(*instruction,
                      "its label belongs to no block or loop around it: a WebAssembly branch "
                      "only leaves the constructs it is in");
        }
        break;
      }
      default:
        break;
    }
    structure.branch_depths.push_back(depth);
  }
  if (bindable) unbound(*bindable);
  if (!open.empty()) {
    throw GenerationError(
        fmt::format("kernel {}, function {}: {} block or loop{} left open at the function's end "
                    "(the innermost labelled {})",
                    program.kernel_name, function.symbol, open.size(), open.size() == 1 ? "" : "s",
                    program.label_names.at(open.back().label)));
  }
  return structure;
}

}  // namespace spongegen::wasm32
