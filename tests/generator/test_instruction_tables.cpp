// The instruction tables and typed operands: operand classes and widths, the encoder's
// refusal of a wrong register class, shifted and sized operands through writer, reader and
// encoder, typed storage locations, and the CPU feature each row declares.
#include <doctest/doctest.h>

#include <string>

#include "audit/cpu_features.hpp"
#include "audit/semantics.hpp"
#include "isa/amd64/amd64.hpp"
#include "isa/arm64/arm64.hpp"
#include "kernels/kernel.hpp"
#include "program/instruction_table.hpp"
#include "readers/gas_reader.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"

using namespace spongegen;

namespace {

Program one_function(Isa isa, const std::string& kernel_name) {
  Program program;
  program.isa = isa;
  program.kernel_name = kernel_name;
  program.functions.push_back(Function{"f", {}, {}, {}});
  return program;
}

std::string refusal(const Program& program) {
  try {
    writers::encode(program);
  } catch (const GenerationError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every mnemonic has one table row, in enum order, of its own ISA") {
  for (Isa isa : {Isa::amd64, Isa::arm64}) {
    for (const InstructionSpec& spec : instruction_table(isa)) {
      CAPTURE(spec.text);
      CHECK(&instruction_spec(spec.mnemonic) == &spec);
      CHECK(spec.isa == isa);
      CHECK(spec.operand_count <= kMaxOperands);
    }
  }
  CHECK(instruction_spec(Mnemonic::amd64_rorx).cpu_feature == "bmi2");
  CHECK(instruction_spec(Mnemonic::amd64_andn).cpu_feature == "bmi1");
  CHECK(instruction_spec(Mnemonic::arm64_xar).cpu_feature == "sha3");
}

TEST_CASE("the encoder refuses a register of the wrong class, naming kernel, instruction, reason") {
  Program program = one_function(Isa::amd64, "wrong-class");
  amd64::Emitter e(program, program.functions.back());
  e.rorx(amd64::xmm(3), amd64::rax, 7);  // RORX writes a general-purpose register
  const std::string message = refusal(program);
  CAPTURE(message);
  CHECK(message.find("kernel wrong-class") != std::string::npos);
  CHECK(message.find("'rorx xmm3, rax, 7'") != std::string::npos);
  CHECK(message.find("operand 1 is an xmm register; rorx takes a 32-bit general-purpose "
                     "register or a 64-bit general-purpose register there") != std::string::npos);

  Program arm = one_function(Isa::arm64, "wrong-arrangement");
  arm64::Emitter a(arm, arm.functions.back());
  a.ld1r(arm64::v16b(31), arm64::post_index(arm64::x(10), 8));  // ld1r loads .2d lanes here
  CHECK(refusal(arm).find("operand 1 is a .16b vector register; ld1r takes a .2d vector "
                          "register there") != std::string::npos);
}

TEST_CASE("a memory operand of the wrong size is refused") {
  Program program = one_function(Isa::amd64, "wrong-size");
  amd64::Emitter e(program, program.functions.back());
  e.mov(amd64::rax, amd64::sized(16, amd64::rdi));
  CHECK(refusal(program).find("operand 2 is a 128-bit memory operand; mov takes a 32-bit "
                              "general-purpose register or a 64-bit general-purpose register "
                              "or a 64-bit memory operand there") != std::string::npos);
}

TEST_CASE("an arm64 shifted-register operand: text, reading back, and the Arm ARM's encoding") {
  Program program = one_function(Isa::arm64, "shifted");
  program.functions.back().shape.rounds = 1;
  arm64::Emitter e(program, program.functions.back());
  e.eor(arm64::x(0), arm64::x(1), arm64::ror(arm64::x(2), 19));
  e.ret();
  const Instruction& eor = std::get<Instruction>(program.functions.back().items.front());
  CHECK(writers::format_instruction(program, eor) == "eor x0, x1, x2, ror #19");
  // EOR (shifted register), 64-bit: 0xca000000 | shift << 22 | Rm << 16 | imm6 << 10 |
  // Rn << 5 | Rd, with ROR = 3.
  const writers::EncodedProgram encoded = writers::encode(program);
  const std::uint32_t expected = 0xca000000u | 3u << 22 | 2u << 16 | 19u << 10 | 1u << 5 | 0u;
  REQUIRE(encoded.code.size() >= 4);
  CHECK((encoded.code[0] | encoded.code[1] << 8 | encoded.code[2] << 16 |
         static_cast<std::uint32_t>(encoded.code[3]) << 24) == expected);
  const Program read = readers::read_gas(writers::write_gas(program), "shifted");
  const Instruction& read_eor = std::get<Instruction>(read.functions.back().items.front());
  CHECK(read_eor.operands == eor.operands);
  // The shifted register is read, the destination written.
  const audit::Effects effects = audit::effects_of(Isa::arm64, eor);
  CHECK(effects.reads.size() == 2);
  CHECK(effects.writes ==
        std::vector<audit::Location>{audit::register_location(Isa::arm64, arm64::x(0))});
}

TEST_CASE("x86 vector registers and sized memory operands print, read back and encode") {
  Program program = one_function(Isa::amd64, "vectors");
  amd64::Emitter e(program, program.functions.back());
  e.mov(amd64::gp32(amd64::rax), amd64::gp32(amd64::r9));
  e.ret();
  const Instruction& mov = std::get<Instruction>(program.functions.back().items.front());
  CHECK(writers::format_instruction(program, mov) == "mov eax, r9d");
  CHECK(amd64::register_name(amd64::ymm(3)) == "ymm3");
  CHECK(amd64::memory_size_keyword(32) == "ymmword ptr");
  CHECK(writers::encode(program).code.front() == 0x44);  // REX.R for r9d
  const Program read = readers::read_gas(writers::write_gas(program), "vectors");
  CHECK(std::get<Instruction>(read.functions.back().items.front()).operands == mov.operands);
}

TEST_CASE("storage locations are typed: a vector register never aliases a general-purpose one") {
  using audit::register_location;
  CHECK(register_location(Isa::amd64, amd64::ymm(3)) != register_location(Isa::amd64, amd64::rbx));
  CHECK(register_location(Isa::amd64, amd64::ymm(3)) ==
        register_location(Isa::amd64, amd64::xmm(3)));
  CHECK(register_location(Isa::amd64, amd64::gp32(amd64::rbx)) ==
        register_location(Isa::amd64, amd64::rbx));
  CHECK(register_location(Isa::arm64, arm64::d(8)) ==
        register_location(Isa::arm64, arm64::v16b(8)));
  CHECK(register_location(Isa::arm64, arm64::d(8)) != register_location(Isa::arm64, arm64::x(8)));
  CHECK(audit::location_name(Isa::amd64, register_location(Isa::amd64, amd64::zmm(3))) == "xmm3");
}

TEST_CASE("a kernel whose instructions need a CPU feature its spec does not declare is refused") {
  const kernels::KernelSpec& amd64_spec = kernels::all_kernels().front();
  REQUIRE(amd64_spec.name == "amd64-bmi2");
  kernels::KernelSpec undeclared = amd64_spec;
  undeclared.cpu_features = {kBmi1};  // RORX is BMI2
  const Program program = amd64_spec.build().program;
  CHECK_NOTHROW(audit::check_cpu_features(program, amd64_spec.cpu_features));
  try {
    audit::check_cpu_features(program, undeclared.cpu_features);
    FAIL("a missing CPU feature was accepted");
  } catch (const GenerationError& error) {
    CHECK(std::string(error.what()).find("needs bmi2, which the kernel spec does not declare") !=
          std::string::npos);
  }
}

// An AVX-512 instruction on ymm registers is a VL form: the four-state kernel must declare
// avx512vl, the eight-state one (zmm only, and ymm only as vinserti64x4's source) need not.
TEST_CASE("AVX-512 instructions without a zmm operand need avx512vl") {
  for (const kernels::KernelSpec& spec : kernels::all_kernels()) {
    if (spec.name != "amd64-avx512-x4" && spec.name != "amd64-avx512-x8") continue;
    CAPTURE(spec.name);
    const Program program = spec.build().program;
    CHECK_NOTHROW(audit::check_cpu_features(program, spec.cpu_features));
    kernels::KernelSpec without_vl = spec;
    std::erase_if(without_vl.cpu_features,
                  [](const CpuFeature& feature) { return feature.name == "avx512vl"; });
    if (spec.name == "amd64-avx512-x8") {
      CHECK(without_vl.cpu_features.size() == spec.cpu_features.size());  // never declared
      continue;
    }
    REQUIRE(without_vl.cpu_features.size() + 1 == spec.cpu_features.size());
    try {
      audit::check_cpu_features(program, without_vl.cpu_features);
      FAIL("a ymm vpternlogq without avx512vl was accepted");
    } catch (const GenerationError& error) {
      CHECK(std::string(error.what())
                .find("needs avx512vl, which the kernel spec does not "
                      "declare") != std::string::npos);
    }
  }
}
