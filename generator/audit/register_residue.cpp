#include "audit/register_residue.hpp"

#include <map>

namespace spongegen::audit {
namespace {

bool is_vector_restore(const Instruction& instruction, const Effects& effects) {
  if (effects.loads.empty()) return false;
  for (const Operand& operand : instruction.operands) {
    const Reg* reg = std::get_if<Reg>(&operand);
    if (reg != nullptr && (reg->cls == RegClass::fp64 || reg->cls == RegClass::fp128)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool is_caller_saved(const Program& program, const RegisterLocation& reg) {
  const Isa isa = program.isa;
  switch (reg.file) {
    case RegisterFile::gp:
      if (isa == Isa::amd64 && program.go_abi0) {
        return reg.index != 4 && reg.index != 5 && reg.index != 14;
      }
      if (isa == Isa::arm64 && program.go_abi0) {
        // All but R18 (the platform's), R27 (the assembler's), g, FP and LR.
        return reg.index <= 26 && reg.index != 18;
      }
      if (isa == Isa::amd64) {
        // rbx (3), rsp (4), rbp (5) and r12-r15 are the caller's.
        return reg.index != 3 && reg.index != 4 && reg.index != 5 && reg.index < 12;
      }
      return reg.index <= 18;
    case RegisterFile::vector:
      return true;
    default:
      return false;
  }
}

ReturnResidue register_residue(const Program& program, std::size_t entry) {
  std::map<const Item*, std::pair<std::size_t, std::size_t>> places;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const auto& items = program.functions[f].items;
    for (std::size_t i = 0; i < items.size(); ++i)
      places[&items[i]] = {f, i};
  }
  std::set<RegisterLocation> dirty;
  ReturnResidue residue{entry, 0, {}};
  walk_entry(program, entry, [&](const Step& step) {
    const auto* instruction = std::get_if<Instruction>(step.item);
    if (instruction == nullptr) return;
    const Effects effects = effects_of(program.isa, *instruction);
    for (const Location& written : effects.writes) {
      const auto* reg = std::get_if<RegisterLocation>(&written);
      if (reg == nullptr || !is_caller_saved(program, *reg)) continue;
      const bool restores_upper_half = program.isa == Isa::arm64 &&
                                       reg->file == RegisterFile::vector && reg->index >= 8 &&
                                       reg->index <= 15 && is_vector_restore(*instruction, effects);
      if (effects.writes_constant || restores_upper_half) {
        dirty.erase(*reg);
      } else {
        dirty.insert(*reg);
      }
    }
    if (effects.is_return) {
      const auto place = places.at(step.item);
      residue = ReturnResidue{place.first, place.second, dirty};
    }
  });
  return residue;
}

}  // namespace spongegen::audit
