#include "audit/cpu_features.hpp"

#include <algorithm>

#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::audit {

namespace {

// The CPU features one instruction needs: its table row's, and avx512vl for an AVX-512
// instruction on ymm or xmm registers only (the VL forms; isa/amd64/instructions.def).
std::vector<std::string_view> features_needed(const Instruction& instruction) {
  const std::string_view row = instruction_spec(instruction.mnemonic).cpu_feature;
  if (row.empty()) return {};
  if (row != "avx512f") return {row};
  const bool has_zmm =
      std::any_of(instruction.operands.begin(), instruction.operands.end(), [](const Operand& op) {
        const Reg* reg = std::get_if<Reg>(&op);
        return reg != nullptr && reg->cls == RegClass::zmm;
      });
  if (has_zmm) return {row};
  return {row, kAvx512vl.name};
}

}  // namespace

void check_cpu_features(const Program& program, const std::vector<CpuFeature>& declared) {
  for (const Function& function : program.functions) {
    for (const Item& item : function.items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr) continue;
      for (const std::string_view needed : features_needed(*instruction)) {
        const bool is_declared =
            std::any_of(declared.begin(), declared.end(),
                        [&](const CpuFeature& feature) { return feature.name == needed; });
        if (!is_declared) {
          throw GenerationError("kernel " + program.kernel_name + ", function " + function.symbol +
                                ": '" + writers::format_instruction(program, *instruction) +
                                "' needs " + std::string(needed) +
                                ", which the kernel spec does not declare");
        }
      }
    }
  }
}

}  // namespace spongegen::audit
