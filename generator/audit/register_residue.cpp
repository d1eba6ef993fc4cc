#include "audit/register_residue.hpp"
#include "isa/target.hpp"

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
  return target(program.isa).is_caller_saved(reg, program.go_abi0);
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
      const bool restores_upper_half = reg->file == RegisterFile::vector &&
                                       target(program.isa).preserves_vector_low_half(reg->index) &&
                                       is_vector_restore(*instruction, effects);
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
