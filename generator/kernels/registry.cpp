#include "kernels/kernel.hpp"

#include <algorithm>

#include "kernels/win64_entries.hpp"
#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::kernels {

namespace {

// The kernels as their builders write them. Within a family this order is the runtime's
// preference, best first, where CPU features alone decide (generated/sponge_kernels.h carries
// it as SPONGE_KERNELS_<ISA>).
std::vector<KernelSpec> listed_kernels() {
  return {
      {"keccak-p1600",
       "amd64-bmi2",
       "keccakf1600_amd64_bmi2.S",
       Isa::amd64,
       {kBmi1, kBmi2},
       keccak_reference_call,
       build_keccak_amd64_bmi2},
      {"keccak-p1600",
       "arm64-sha3",
       "keccakf1600_arm64_sha3.S",
       Isa::arm64,
       {kArmSha3},
       keccak_reference_call,
       build_keccak_arm64_sha3},
      {"keccak-p1600",
       "arm64-scalar",
       "keccakf1600_arm64_scalar.S",
       Isa::arm64,
       {},  // base ARMv8-A
       keccak_reference_call,
       build_keccak_arm64_scalar},
      {"keccak-p1600",
       "amd64-avx512-x8",
       "keccakf1600_amd64_avx512_x8.S",
       Isa::amd64,
       {kAvx, kAvx2, kAvx512f},
       keccak_reference_call,
       build_keccak_amd64_avx512_x8},
      {"keccak-p1600",
       "amd64-avx512-x4",
       "keccakf1600_amd64_avx512_x4.S",
       Isa::amd64,
       {kAvx, kAvx2, kAvx512f, kAvx512vl},
       keccak_reference_call,
       build_keccak_amd64_avx512_x4},
      {"keccak-p1600",
       "amd64-avx2-x4",
       "keccakf1600_amd64_avx2_x4.S",
       Isa::amd64,
       {kAvx, kAvx2},
       keccak_reference_call,
       build_keccak_amd64_avx2_x4},
      {"keccak-p1600",
       "arm64-sha3-x2",
       "keccakf1600_arm64_sha3_x2.S",
       Isa::arm64,
       {kArmSha3},
       keccak_reference_call,
       build_keccak_arm64_sha3_x2},
      {"ascon-p320",
       "ascon-amd64-bmi2",
       "ascon_p320_amd64_bmi2.S",
       Isa::amd64,
       {kBmi1, kBmi2},
       ascon_reference_call,
       build_ascon_amd64_bmi2},
      {"ascon-p320",
       "ascon-arm64",
       "ascon_p320_arm64.S",
       Isa::arm64,
       {},  // base ARMv8-A
       ascon_reference_call,
       build_ascon_arm64},
  };
}

}  // namespace

const std::vector<KernelSpec>& all_kernels() {
  // Every amd64 kernel gets its Windows x64 entries here, the later ones included.
  static const std::vector<KernelSpec> kKernels = [] {
    std::vector<KernelSpec> kernels = listed_kernels();
    for (KernelSpec& spec : kernels) {
      if (spec.isa != Isa::amd64) continue;
      spec.build = [build = spec.build] {
        BuiltKernel kernel = build();
        add_win64_entries(kernel.program);
        return kernel;
      };
    }
    return kernels;
  }();
  return kKernels;
}

namespace {

// The CPU features one instruction needs: its table row's, and avx512vl for an AVX-512
// instruction on ymm or xmm registers only (the VL forms; amd64_instructions.def).
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

// Every instruction's CPU features must be ones the kernel spec declares, or the runtime
// would call the kernel on a CPU that cannot run it.
void check_cpu_features(const kernels::KernelSpec& spec, const Program& program) {
  for (const Function& function : program.functions) {
    for (const Item& item : function.items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr) continue;
      for (const std::string_view needed : features_needed(*instruction)) {
        const bool declared =
            std::any_of(spec.cpu_features.begin(), spec.cpu_features.end(),
                        [&](const kernels::CpuFeature& feature) { return feature.name == needed; });
        if (!declared) {
          throw GenerationError("kernel " + spec.name + ", function " + function.symbol + ": '" +
                                writers::format_instruction(program, *instruction) + "' needs " +
                                std::string(needed) + ", which the kernel spec does not declare");
        }
      }
    }
  }
}

}  // namespace spongegen::kernels
