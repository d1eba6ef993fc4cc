// What every kernel builder returns, and the list of kernels spongegen writes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "program/audit_figures.hpp"
#include "program/cpu_features.hpp"
#include "program/program.hpp"

namespace spongegen::kernels {

// What a kernel's header quotes besides the builder's decisions: the audit of its code, and
// of another kernel it compares itself with, at the default issue width. The header pass
// (pipeline/generate.cpp) runs after the audit and hands them over.
struct HeaderInputs {
  const audit::KernelAudit& audit;                                             // this kernel's
  std::function<const audit::KernelAudit&(std::string_view kernel)> audit_of;  // by name
};

// The header prose: the builder's decisions, with the figures of the code filled in from the
// audit, so the header and `spongegen audit` never disagree.
using HeaderComposer = std::function<std::vector<std::string>(const HeaderInputs& inputs)>;

struct BuiltKernel {
  Program program;        // each function is one entry; its EntryShape says what it computes
  HeaderComposer header;  // the lines of Program::header_lines, once the audit has run
};

// The arguments of one entry call, as its C signature (EntryShape::parameters) takes them:
// the state, then for absorb entries the input (one rate block for Keccak, block_count blocks
// for Ascon), for encrypt and decrypt entries the output too (which may be the input).
struct EntryCall {
  std::uint64_t* state = nullptr;
  const std::uint8_t* in = nullptr;
  std::uint8_t* out = nullptr;
  std::size_t block_count = 1;
  // Absorb entries of a multi-state kernel (EntryShape::lanes > 1): one block per state,
  // or block_count consecutive blocks per state for the block entries.
  const std::uint8_t* const* blocks = nullptr;
};

// The reference one entry call must agree with, run on the JIT self-check's copies.
using ReferenceCall = std::function<void(const EntryShape& shape, const EntryCall& call)>;

// The files a kernel gets besides its GNU assembler file in generated/, which every kernel gets
// (the runtime links them all): each is written from the same Program by its own writer.
struct KernelOutputs {
  // The Go (ABI0) Program for go/keccak, built from the same rounds; empty: no Go files. Its
  // files are named after file_name: keccakf1600_amd64_bmi2.S gives
  // keccakf1600_amd64_bmi2_amd64.s and .go.
  std::function<Program()> go;
  // A .rs file of global_asm! for the Rust crate (rust/src/kernels), named after file_name too.
  bool rust = false;
};

struct KernelSpec {
  std::string family;     // the permutation family: "keccak-p1600" or "ascon-p320"
  std::string name;       // as the runtime's dispatcher and SPONGE_KERNEL name it
  std::string file_name;  // in generated/: the one place a kernel names its file
  Isa isa;
  std::vector<CpuFeature> cpu_features;  // all needed to run any entry
  ReferenceCall reference;
  std::function<BuiltKernel()> build;
  KernelOutputs outputs;
};

// Every kernel spongegen generates, in output order. Each spec's build names the Program
// after the spec (Program::kernel_name) and adds the Windows x64 entries of amd64 kernels.
const std::vector<KernelSpec>& all_kernels();

BuiltKernel build_keccak_amd64_bmi2();
// The Go (ABI0) file of amd64-bmi2: its Keccak-f[1600] permute entry, for go/keccak.
Program build_keccak_amd64_bmi2_go();
BuiltKernel build_keccak_arm64_sha3();
// The Go (ABI0) files of arm64-sha3 and arm64-sha3-x2: their Keccak-f[1600] entries.
Program build_keccak_arm64_sha3_go();
Program build_keccak_arm64_sha3_x2_go();
BuiltKernel build_keccak_arm64_scalar();
BuiltKernel build_keccak_amd64_avx2_x4();
// The Go (ABI0) file of amd64-avx2-x4: its Keccak-f[1600] entries, for go/keccak's batches.
Program build_keccak_amd64_avx2_x4_go();
BuiltKernel build_keccak_amd64_avx512_x8();
// The Go (ABI0) file of amd64-avx512-x8: its Keccak-f[1600] entries, for go/keccak's batches.
Program build_keccak_amd64_avx512_x8_go();
BuiltKernel build_keccak_amd64_avx512_x4();
BuiltKernel build_keccak_arm64_sha3_x2();
BuiltKernel build_keccak_riscv64_zbb();
BuiltKernel build_keccak_riscv64();
// riscv64-v-x<states>: `states` lane-interleaved states on the vector registers (V).
BuiltKernel build_keccak_riscv64_v(int states);
// wasm-scalar: one state on a WebAssembly function's i64 locals.
BuiltKernel build_keccak_wasm_scalar();
// wasm-scalar-memory: one state in the module's memory, rewritten in place each round.
BuiltKernel build_keccak_wasm_scalar_memory();
// wasm-simd128: two states in the 64-bit lanes of v128s, in the module's memory.
BuiltKernel build_keccak_wasm_simd128();

// The portable Keccak-p[1600] reference for an entry of any round count and rate.
void keccak_reference_call(const EntryShape& shape, const EntryCall& call);
// The portable Ascon-p[320] entries of the runtime, by the entry's kind and rounds.
void ascon_reference_call(const EntryShape& shape, const EntryCall& call);

BuiltKernel build_ascon_amd64_bmi2();
BuiltKernel build_ascon_arm64();
BuiltKernel build_ascon_riscv64_zbb();
BuiltKernel build_ascon_wasm();

}  // namespace spongegen::kernels
