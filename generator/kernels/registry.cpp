#include "kernels/kernel.hpp"

namespace spongegen::kernels {

const std::vector<KernelSpec>& all_kernels() {
  static const std::vector<KernelSpec> kKernels = {
      {"amd64-bmi2",
       "keccakf1600_amd64_bmi2.S",
       Isa::amd64,
       {kBmi1, kBmi2},
       keccak_reference_call,
       build_keccak_amd64_bmi2},
      {"arm64-sha3",
       "keccakf1600_arm64_sha3.S",
       Isa::arm64,
       {kArmSha3},
       keccak_reference_call,
       build_keccak_arm64_sha3},
  };
  return kKernels;
}

}  // namespace spongegen::kernels
