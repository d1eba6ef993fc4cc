#include "audit/semantics.hpp"

#include <fmt/format.h>

#include <map>

#include "program/amd64.hpp"
#include "program/arm64.hpp"

namespace spongegen::audit {
namespace {

const Reg& reg_at(const Instruction& instruction, std::size_t index) {
  return std::get<Reg>(instruction.operands.at(index));
}

// Registers an operand reads when it is a source (a register, or a memory base). The
// operand must be the instruction's own: Effects keeps pointers to its memory operands.
void add_reads(Isa isa, const Operand& operand, Effects& effects) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) {
    effects.reads.push_back(register_location(isa, *reg));
  } else if (const Mem* mem = std::get_if<Mem>(&operand)) {
    if (mem->addressing != Addressing::pc_relative) {
      effects.reads.push_back(register_location(isa, mem->base));
    }
    effects.reads.push_back(memory_location(isa, *mem));
    effects.loads.push_back(mem);
  }
}

// A memory destination: its base is read, the location written.
void add_store(Isa isa, const Mem& mem, Effects& effects) {
  effects.reads.push_back(register_location(isa, mem.base));
  effects.writes.push_back(memory_location(isa, mem));
  effects.stores.push_back(&mem);
}

// arm64 pre/post-indexed addressing writes its base back.
void add_writeback(Isa isa, const Mem& mem, Effects& effects) {
  if (mem.addressing != Addressing::pre_index && mem.addressing != Addressing::post_index) return;
  effects.writes.push_back(register_location(isa, mem.base));
  if (mem.base.cls == RegClass::sp) effects.stack_adjust += mem.disp;
}

Effects amd64_effects(const Instruction& in) {
  constexpr Isa isa = Isa::amd64;
  Effects e;
  const Location rsp = register_location(isa, amd64::rsp);
  switch (in.mnemonic) {
    case Mnemonic::amd64_mov:
      e.cls = InstructionClass::other;
      add_reads(isa, in.operands[1], e);
      if (const Mem* dst = std::get_if<Mem>(&in.operands[0])) {
        add_store(isa, *dst, e);
      } else {
        e.writes.push_back(register_location(isa, reg_at(in, 0)));
        if (std::holds_alternative<Reg>(in.operands[1])) e.cls = InstructionClass::alu;
      }
      break;
    case Mnemonic::amd64_xor:
    case Mnemonic::amd64_add:
    case Mnemonic::amd64_sub:
      e.cls = InstructionClass::alu;
      add_reads(isa, in.operands[0], e);
      add_reads(isa, in.operands[1], e);
      if (const Mem* dst = std::get_if<Mem>(&in.operands[0])) {
        add_store(isa, *dst, e);
      } else {
        e.writes.push_back(register_location(isa, reg_at(in, 0)));
      }
      e.writes.push_back(kFlags);
      break;
    case Mnemonic::amd64_cmp:
      e.cls = InstructionClass::alu;
      add_reads(isa, in.operands[0], e);
      add_reads(isa, in.operands[1], e);
      e.writes.push_back(kFlags);
      break;
    case Mnemonic::amd64_lea: {
      // An address computation: no memory is read.
      e.cls = InstructionClass::alu;
      const Mem& address = std::get<Mem>(in.operands[1]);
      if (address.addressing != Addressing::pc_relative) {
        e.reads.push_back(register_location(isa, address.base));
      }
      e.writes.push_back(register_location(isa, reg_at(in, 0)));
      break;
    }
    case Mnemonic::amd64_jne:
      e.cls = InstructionClass::branch;
      e.is_conditional_branch = true;
      e.reads.push_back(kFlags);
      e.target = &std::get<LabelRef>(in.operands[0]);
      break;
    case Mnemonic::amd64_rorx:
      e.cls = InstructionClass::rotate;
      add_reads(isa, in.operands[1], e);
      e.writes.push_back(register_location(isa, reg_at(in, 0)));
      break;
    case Mnemonic::amd64_andn:
      e.cls = InstructionClass::andn;
      add_reads(isa, in.operands[1], e);
      add_reads(isa, in.operands[2], e);
      e.writes.push_back(register_location(isa, reg_at(in, 0)));
      e.writes.push_back(kFlags);
      break;
    case Mnemonic::amd64_push: {
      e.reads = {register_location(isa, reg_at(in, 0)), rsp};
      e.writes = {rsp, "m:" + rsp + ":-8"};
      e.stack_adjust = -8;
      break;
    }
    case Mnemonic::amd64_pop:
      e.reads = {rsp, "m:" + rsp + ":0"};
      e.writes = {register_location(isa, reg_at(in, 0)), rsp};
      e.stack_adjust = 8;
      break;
    case Mnemonic::amd64_jmp:
      e.cls = InstructionClass::branch;
      e.is_unconditional_branch = true;
      e.target = &std::get<LabelRef>(in.operands[0]);
      break;
    case Mnemonic::amd64_ret:
      e.cls = InstructionClass::branch;
      e.is_return = true;
      e.reads = {rsp};
      e.writes = {rsp};
      break;
    case Mnemonic::amd64_endbr64:
      break;
    default:
      throw GenerationError("audit: no semantics for amd64 '" +
                            std::string(mnemonic_info(in.mnemonic).text) + "'");
  }
  return e;
}

Effects arm64_effects(const Instruction& in) {
  constexpr Isa isa = Isa::arm64;
  Effects e;
  auto dst = [&](std::size_t index) {
    e.writes.push_back(register_location(isa, reg_at(in, index)));
  };
  auto src = [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i <= last; ++i)
      add_reads(isa, in.operands[i], e);
  };
  switch (in.mnemonic) {
    case Mnemonic::arm64_eor:
    case Mnemonic::arm64_add:
    case Mnemonic::arm64_sub:
      e.cls = InstructionClass::alu;
      src(1, 2);
      dst(0);
      break;
    case Mnemonic::arm64_adr:
    case Mnemonic::arm64_mov:
      e.cls = InstructionClass::alu;
      dst(0);
      break;
    case Mnemonic::arm64_eor3:
      e.cls = InstructionClass::ternary;
      src(1, 3);
      dst(0);
      break;
    case Mnemonic::arm64_bcax:
      e.cls = InstructionClass::andn;
      src(1, 3);
      dst(0);
      break;
    case Mnemonic::arm64_rax1:
      e.cls = InstructionClass::rotate;
      src(1, 2);
      dst(0);
      break;
    case Mnemonic::arm64_xar:
      e.cls = InstructionClass::rotate;
      src(1, 2);
      dst(0);
      break;
    case Mnemonic::arm64_ldr:
    case Mnemonic::arm64_ld1r: {
      const Mem& mem = std::get<Mem>(in.operands[1]);
      add_reads(isa, in.operands[1], e);
      dst(0);
      add_writeback(isa, mem, e);
      break;
    }
    case Mnemonic::arm64_ldp: {
      const Mem& mem = std::get<Mem>(in.operands[2]);
      add_reads(isa, in.operands[2], e);
      // The second register's memory is the next 8 bytes.
      Mem second = mem;
      second.disp += 8;
      e.reads.push_back(memory_location(isa, second));
      dst(0);
      dst(1);
      add_writeback(isa, mem, e);
      break;
    }
    case Mnemonic::arm64_str: {
      const Mem& mem = std::get<Mem>(in.operands[1]);
      src(0, 0);
      add_store(isa, mem, e);
      add_writeback(isa, mem, e);
      break;
    }
    case Mnemonic::arm64_stp: {
      const Mem& mem = std::get<Mem>(in.operands[2]);
      src(0, 1);
      add_store(isa, mem, e);
      Mem second = mem;
      second.disp += 8;
      e.writes.push_back(memory_location(isa, second));
      add_writeback(isa, mem, e);
      break;
    }
    case Mnemonic::arm64_b:
      e.cls = InstructionClass::branch;
      e.is_unconditional_branch = true;
      e.target = &std::get<LabelRef>(in.operands[0]);
      break;
    case Mnemonic::arm64_cbnz:
      e.cls = InstructionClass::branch;
      e.is_conditional_branch = true;
      src(0, 0);
      e.target = &std::get<LabelRef>(in.operands[1]);
      break;
    case Mnemonic::arm64_ret:
      e.cls = InstructionClass::branch;
      e.is_return = true;
      e.reads = {register_location(isa, arm64::x(30))};
      break;
    case Mnemonic::arm64_hint:
      break;
    default:
      throw GenerationError("audit: no semantics for arm64 '" +
                            std::string(mnemonic_info(in.mnemonic).text) + "'");
  }
  return e;
}

}  // namespace

Location register_location(Isa isa, const Reg& reg) {
  if (isa == Isa::amd64) return fmt::format("r{}", reg.index);
  switch (reg.cls) {
    case RegClass::sp:
      return "sp";
    case RegClass::gp64:
    case RegClass::gp32:
      return fmt::format("x{}", reg.index);
    default:
      return fmt::format("v{}", reg.index);
  }
}

Location memory_location(Isa isa, const Mem& mem) {
  // Post-indexed accesses use the base as it was; pre-indexed ones the updated base. Both
  // are named by the base register and the bytes past the base they touch.
  const std::int32_t offset = mem.addressing == Addressing::post_index ? 0 : mem.disp;
  const std::string base = mem.addressing == Addressing::pc_relative
                               ? "label" + std::to_string(mem.label)
                               : register_location(isa, mem.base);
  return "m:" + base + ":" + std::to_string(offset);
}

std::string location_name(Isa isa, const Location& location) {
  if (location.rfind("m:", 0) == 0 || location == kFlags) return location;
  if (isa == Isa::amd64) {
    const int index = std::stoi(location.substr(1));
    return std::string(amd64::register_name(Reg{RegClass::gp64, static_cast<std::uint8_t>(index)}));
  }
  return location;
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

Effects effects_of(Isa isa, const Instruction& instruction) {
  return isa == Isa::amd64 ? amd64_effects(instruction) : arm64_effects(instruction);
}

}  // namespace spongegen::audit
