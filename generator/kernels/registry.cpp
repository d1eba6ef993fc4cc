#include "kernels/kernel.hpp"

#include "isa/amd64/win64_entries.hpp"
#include "isa/target.hpp"
#include "kernels/register_clearing.hpp"

namespace spongegen::kernels {

namespace {

// The kernels as their builders write them, each with the outputs it gets besides its .S
// (KernelOutputs: its Go Program's builder, whether the Rust crate carries it). Within a family
// this order is the runtime's preference, best first, where CPU features alone decide
// (generated/sponge_kernels.h carries it as SPONGE_KERNELS_<ISA>).
std::vector<KernelSpec> listed_kernels() {
  return {
      {"keccak-p1600",
       "amd64-bmi2",
       "keccakf1600_amd64_bmi2.S",
       Isa::amd64,
       {kBmi1, kBmi2},
       keccak_reference_call,
       build_keccak_amd64_bmi2,
       {build_keccak_amd64_bmi2_go, true}},
      {"keccak-p1600",
       "arm64-sha3",
       "keccakf1600_arm64_sha3.S",
       Isa::arm64,
       {kArmSha3},
       keccak_reference_call,
       build_keccak_arm64_sha3,
       {build_keccak_arm64_sha3_go, true}},
      {"keccak-p1600",
       "arm64-scalar",
       "keccakf1600_arm64_scalar.S",
       Isa::arm64,
       {},  // base ARMv8-A
       keccak_reference_call,
       build_keccak_arm64_scalar,
       {{}, true}},
      {"keccak-p1600",
       "amd64-avx512-x8",
       "keccakf1600_amd64_avx512_x8.S",
       Isa::amd64,
       {kAvx, kAvx2, kAvx512f},
       keccak_reference_call,
       build_keccak_amd64_avx512_x8,
       {build_keccak_amd64_avx512_x8_go, true}},
      {"keccak-p1600",
       "amd64-avx512-x4",
       "keccakf1600_amd64_avx512_x4.S",
       Isa::amd64,
       {kAvx, kAvx2, kAvx512f, kAvx512vl},
       keccak_reference_call,
       build_keccak_amd64_avx512_x4,
       {}},
      {"keccak-p1600",
       "amd64-avx2-x4",
       "keccakf1600_amd64_avx2_x4.S",
       Isa::amd64,
       {kAvx, kAvx2},
       keccak_reference_call,
       build_keccak_amd64_avx2_x4,
       {build_keccak_amd64_avx2_x4_go, true}},
      {"keccak-p1600",
       "arm64-sha3-x2",
       "keccakf1600_arm64_sha3_x2.S",
       Isa::arm64,
       {kArmSha3},
       keccak_reference_call,
       build_keccak_arm64_sha3_x2,
       {build_keccak_arm64_sha3_x2_go, true}},
      {"keccak-p1600",
       "riscv64-zbb",
       "keccakf1600_riscv64_zbb.S",
       Isa::riscv64,
       {kZbb},
       keccak_reference_call,
       build_keccak_riscv64_zbb,
       {}},
      {"keccak-p1600",
       "riscv64",
       "keccakf1600_riscv64.S",
       Isa::riscv64,
       {},  // RV64I
       keccak_reference_call,
       build_keccak_riscv64,
       {}},
      {"keccak-p1600",
       "riscv64-v-x8",
       "keccakf1600_riscv64_v_x8.S",
       Isa::riscv64,
       {kRiscvV, kZvl512b},  // the entries trap below VLEN 512; the runtime checks first
       keccak_reference_call,
       [] { return build_keccak_riscv64_v(8); },
       {}},
      {"keccak-p1600",
       "riscv64-v-x4",
       "keccakf1600_riscv64_v_x4.S",
       Isa::riscv64,
       {kRiscvV, kZvl256b},
       keccak_reference_call,
       [] { return build_keccak_riscv64_v(4); },
       {}},
      {"keccak-p1600",
       "riscv64-v-x2",
       "keccakf1600_riscv64_v_x2.S",
       Isa::riscv64,
       {kRiscvV},  // V's least VLEN, 128 bits, holds two states
       keccak_reference_call,
       [] { return build_keccak_riscv64_v(2); },
       {}},
      {"keccak-p1600",
       "wasm-scalar",
       "keccakf1600_wasm_scalar.wat",
       Isa::wasm32,
       {},  // WebAssembly 2.0 without SIMD
       keccak_reference_call,
       build_keccak_wasm_scalar,
       {}},
      {"keccak-p1600",
       "wasm-scalar-memory",
       "keccakf1600_wasm_scalar_memory.wat",
       Isa::wasm32,
       {},  // WebAssembly 2.0 without SIMD
       keccak_reference_call,
       build_keccak_wasm_scalar_memory,
       {}},
      {"keccak-p1600",
       "wasm-simd128",
       "keccakf1600_wasm_simd128.wat",
       Isa::wasm32,
       {kWasmSimd128},
       keccak_reference_call,
       build_keccak_wasm_simd128,
       {}},
      {"ascon-p320",
       "ascon-amd64-bmi2",
       "ascon_p320_amd64_bmi2.S",
       Isa::amd64,
       {kBmi1, kBmi2},
       ascon_reference_call,
       build_ascon_amd64_bmi2,
       {{}, true}},
      {"ascon-p320",
       "ascon-arm64",
       "ascon_p320_arm64.S",
       Isa::arm64,
       {},  // base ARMv8-A
       ascon_reference_call,
       build_ascon_arm64,
       {{}, true}},
      {"ascon-p320",
       "ascon-riscv64-zbb",
       "ascon_p320_riscv64_zbb.S",
       Isa::riscv64,
       {kZbb},
       ascon_reference_call,
       build_ascon_riscv64_zbb,
       {}},
      {"ascon-p320",
       "ascon-wasm",
       "ascon_p320_wasm.wat",
       Isa::wasm32,
       {},  // WebAssembly 2.0
       ascon_reference_call,
       build_ascon_wasm,
       {}},
  };
}

}  // namespace

const std::vector<KernelSpec>& all_kernels() {
  // Every Program is named after its spec here, every entry clears the caller-saved registers
  // it wrote before it returns, and every amd64 kernel gets its Windows x64 entries (the
  // header lines of both after the builder's), the later ones included.
  static const std::vector<KernelSpec> kKernels = [] {
    std::vector<KernelSpec> kernels = listed_kernels();
    for (KernelSpec& spec : kernels) {
      spec.build = [build = spec.build, name = spec.name, isa = spec.isa] {
        BuiltKernel kernel = build();
        kernel.program.kernel_name = name;
        std::vector<std::string> added_lines =
            clearing_header_lines(kernel.program, emit_clear_caller_saved(kernel.program));
        if (target(isa).has_win64_entries()) {
          const std::vector<std::string> win64_lines = add_win64_entries(kernel.program);
          added_lines.insert(added_lines.end(), win64_lines.begin(), win64_lines.end());
        }
        kernel.header = [builder_lines = std::move(kernel.header),
                         added_lines = std::move(added_lines)](const HeaderInputs& in) {
          std::vector<std::string> lines = builder_lines(in);
          lines.insert(lines.end(), added_lines.begin(), added_lines.end());
          return lines;
        };
        return kernel;
      };
    }
    return kernels;
  }();
  return kKernels;
}

}  // namespace spongegen::kernels
