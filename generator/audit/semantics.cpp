#include "audit/semantics.hpp"

#include <fmt/format.h>

#include <map>

#include "isa/target.hpp"

namespace spongegen::audit {
namespace {

// The effects of one operand position, as the instruction's table row declares its access.
void add_operand(Isa isa, const InstructionSpec& spec, const Instruction& in, std::size_t index,
                 Effects& e) {
  const Operand& operand = in.operands[index];
  const Access access = spec.operands[index].access;
  const bool reads = access == Access::read || access == Access::read_write;
  const bool writes = access == Access::write || access == Access::read_write;
  if (const Reg* reg = std::get_if<Reg>(&operand)) {
    if (reads) e.reads.push_back(register_location(isa, *reg));
    if (writes) e.writes.push_back(register_location(isa, *reg));
  } else if (const ShiftedReg* shifted = std::get_if<ShiftedReg>(&operand)) {
    e.reads.push_back(register_location(isa, shifted->reg));
  } else if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
    if (access == Access::target) e.target = label;
  } else if (const Mem* mem = std::get_if<Mem>(&operand)) {
    if (mem->addressing != Addressing::pc_relative) {
      e.reads.push_back(register_location(isa, mem->base));
    }
    if (access == Access::address) return;
    // ldp/stp: the memory covers both register operands, the second right after the first.
    std::vector<Location> locations{memory_location(isa, *mem)};
    if (spec.has(kPair)) {
      auto second = std::get<MemoryLocation>(locations.front());
      second.offset += register_bytes(std::get<Reg>(in.operands[0]));
      locations.push_back(second);
    }
    if (reads) {
      e.reads.insert(e.reads.end(), locations.begin(), locations.end());
      e.loads.push_back(mem);
    }
    if (writes) {
      e.writes.insert(e.writes.end(), locations.begin(), locations.end());
      e.stores.push_back(mem);
    }
    // arm64 pre/post-indexed addressing writes its base back.
    if (mem->addressing == Addressing::pre_index || mem->addressing == Addressing::post_index) {
      e.writes.push_back(register_location(isa, mem->base));
      if (register_location(isa, mem->base) == stack_pointer_location(isa)) {
        e.stack_adjust += mem->disp;
      }
    }
  }
}

bool has_memory_operand(const Instruction& in) {
  for (const Operand& operand : in.operands) {
    if (std::holds_alternative<Mem>(operand)) return true;
  }
  return false;
}

}  // namespace

Effects effects_of(Isa isa, const Instruction& in) {
  const InstructionSpec& spec = instruction_spec(in.mnemonic);
  if (in.operands.size() != spec.operand_count) {
    throw GenerationError("audit: '" + std::string(spec.text) + "' with " +
                          std::to_string(in.operands.size()) + " operands, not " +
                          std::to_string(spec.operand_count));
  }
  Effects e;
  e.cls = spec.cls;
  if (spec.has(kMove))
    e.cls = has_memory_operand(in) ? InstructionClass::other : InstructionClass::alu;
  for (std::size_t i = 0; i < in.operands.size(); ++i)
    add_operand(isa, spec, in, i, e);
  if (spec.has(kReadsFlags)) e.reads.push_back(kFlags);
  if (spec.has(kWritesFlags)) e.writes.push_back(kFlags);
  e.is_conditional_branch = spec.has(kConditionalBranch);
  e.is_unconditional_branch = spec.has(kUnconditionalBranch);
  e.is_return = spec.has(kReturn);
  if (spec.has(kZeroWhenSourcesEqual) && !has_memory_operand(in)) {
    std::vector<Reg> sources;
    for (std::size_t i = 0; i < in.operands.size(); ++i) {
      const Access access = spec.operands[i].access;
      const Reg* reg = std::get_if<Reg>(&in.operands[i]);
      if (reg != nullptr && (access == Access::read || access == Access::read_write)) {
        sources.push_back(*reg);
      }
    }
    e.writes_constant = sources.size() == 2 && sources[0] == sources[1];
  }
  if (spec.has(kClearsVectorRegisters)) {
    for (int index = 0; index < 16; ++index)
      e.writes.push_back(RegisterLocation{RegisterFile::vector, static_cast<std::uint8_t>(index)});
    e.writes_constant = true;
  }

  const Location stack_pointer = stack_pointer_location(isa);
  const RegisterLocation sp_register = std::get<RegisterLocation>(stack_pointer);
  if (spec.has(kPush)) {
    e.reads.push_back(stack_pointer);
    e.writes.push_back(stack_pointer);
    e.writes.push_back(MemoryLocation{sp_register, kNoLabel, -8});
    e.stack_adjust = -8;
  }
  if (spec.has(kPop)) {
    e.reads.push_back(stack_pointer);
    e.reads.push_back(MemoryLocation{sp_register, kNoLabel, 0});
    e.writes.push_back(stack_pointer);
    e.stack_adjust = 8;
  }
  if (spec.has(kReturn)) {
    if (const std::optional<Reg> link = target(isa).link_register()) {
      e.reads.push_back(register_location(isa, *link));
    } else {
      e.reads.push_back(stack_pointer);  // pops the return address
      e.writes.push_back(stack_pointer);
    }
  }
  if (spec.has(kAddsImmediateToStack) || spec.has(kSubtractsImmediateFromStack)) {
    // `add rsp, N` on amd64; `addi sp, sp, N` (the source the stack pointer too) elsewhere.
    const Reg* dst = std::get_if<Reg>(&in.operands[0]);
    const Imm* value = std::get_if<Imm>(&in.operands.back());
    const bool from_stack_pointer =
        in.operands.size() == 2 ||
        (std::holds_alternative<Reg>(in.operands[1]) &&
         register_location(isa, std::get<Reg>(in.operands[1])) == stack_pointer);
    if (dst != nullptr && value != nullptr && from_stack_pointer &&
        register_location(isa, *dst) == stack_pointer) {
      const int bytes = static_cast<int>(value->value);
      e.stack_adjust = spec.has(kAddsImmediateToStack) ? bytes : -bytes;
    }
  }
  return e;
}

Location register_location(Isa isa, const Reg& reg) {
  switch (reg.cls) {
    case RegClass::gp32:
    case RegClass::gp64:
      return RegisterLocation{RegisterFile::gp, reg.index};
    case RegClass::sp:
      return RegisterLocation{RegisterFile::stack_pointer, 0};
    case RegClass::xmm:
    case RegClass::ymm:
    case RegClass::zmm:
    case RegClass::fp64:
    case RegClass::fp128:
    case RegClass::vec:
    case RegClass::rvv:
      return RegisterLocation{RegisterFile::vector, reg.index};
  }
  throw GenerationError("audit: unknown register class on " + std::string(isa_name(isa)));
}

Location stack_pointer_location(Isa isa) {
  return register_location(isa, target(isa).stack_pointer());
}

Location memory_location(Isa isa, const Mem& mem) {
  // Post-indexed accesses use the base as it was; pre-indexed ones the updated base. Both
  // are named by the base register and the bytes past the base they touch.
  const std::int32_t offset = mem.addressing == Addressing::post_index ? 0 : mem.disp;
  if (mem.addressing == Addressing::pc_relative) {
    return MemoryLocation{RegisterLocation{RegisterFile::flags, 0}, mem.label, offset};
  }
  return MemoryLocation{std::get<RegisterLocation>(register_location(isa, mem.base)), kNoLabel,
                        offset};
}

std::string location_name(Isa isa, const Location& location) {
  if (const auto* memory = std::get_if<MemoryLocation>(&location)) {
    const std::string base = memory->label != kNoLabel ? "label" + std::to_string(memory->label)
                                                       : location_name(isa, memory->base);
    return "m:" + base + ":" + std::to_string(memory->offset);
  }
  const auto& reg = std::get<RegisterLocation>(location);
  switch (reg.file) {
    case RegisterFile::flags:
      return "flags";
    case RegisterFile::stack_pointer:
      return "sp";
    case RegisterFile::gp:
      return target(isa).gp_name(reg.index);
    case RegisterFile::vector:
      return target(isa).vector_name(reg.index);
  }
  return "?";
}

namespace {
struct Position {
  std::size_t function;
  std::size_t item;
};

}  // namespace

void walk_entry(const Program& program, std::size_t function,
                const std::function<void(const Step&)>& visit) {
  std::map<LabelId, Position> labels;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const auto& items = program.functions[f].items;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (const auto* label = std::get_if<LabelDef>(&items[i])) labels[label->id] = {f, i};
    }
  }
  // The rounds do not depend on the data, so a loop branch is taken exactly while the
  // entry has run fewer rounds than its shape declares: a loop body shared by entries of
  // different round counts turns as often as each one needs.
  const int declared_rounds = program.functions[function].shape.rounds;
  Position at{function, 0};
  int round_index = -1, rounds_entered = 0;
  for (int steps = 0; steps < 1'000'000; ++steps) {
    const auto& items = program.functions[at.function].items;
    if (at.item >= items.size()) {
      throw GenerationError("audit: " + program.functions[at.function].symbol +
                            " runs off its end");
    }
    const Item& item = items[at.item];
    if (const auto* marker = std::get_if<RoundMarker>(&item)) {
      round_index = marker->begin ? rounds_entered++ : -1;
    }
    visit({&item, round_index});
    ++at.item;
    const auto* instruction = std::get_if<Instruction>(&item);
    if (instruction == nullptr) continue;
    const Effects effects = effects_of(program.isa, *instruction);
    if (effects.is_return) return;
    if (effects.is_unconditional_branch) at = labels.at(effects.target->id);
    // A loop branch outside any round region has no known trip count: one pass is walked
    // (the audit reports the executed figures as unknown).
    if (effects.is_conditional_branch && round_index >= 0 && rounds_entered < declared_rounds) {
      at = labels.at(effects.target->id);
    }
  }
  throw GenerationError("audit: the walk of " + program.functions[function].symbol +
                        " does not end");
}

}  // namespace spongegen::audit
