// The riscv64 encoder is ours (asmjit has no RISC-V backend), so it is checked against an
// independent assembler row by row: every row of the riscv64 table, in each operand form at
// the edges of its ranges, encodes to the word GNU as (binutils-riscv64) assembles from the
// written text; and every operand our encoder refuses, GNU as refuses too. The kernels'
// encoding proofs cover the forms the kernels happen to use; this covers the rest.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "isa/riscv64/riscv64.hpp"
#include "program/instruction_table.hpp"
#include "readers/elf_object.hpp"
#include "spongegen_process.hpp"
#include "writers/asmjit_encoder.hpp"
#include "writers/gas_writer.hpp"

using namespace spongegen;
using namespace spongegen::riscv64;
using namespace spongegen_test;

namespace {

using Emit = std::function<void(Emitter&)>;

Program one_function(const Emit& emit) {
  Program program;
  program.isa = Isa::riscv64;
  program.kernel_name = "riscv64-rows";
  program.arch_directive = "+zbb, +v";
  program.functions.push_back(Function{"rows", {}, {}, {}});
  Emitter e(program, program.functions.back());
  emit(e);
  return program;
}

// GNU as's .text for the written program, or its error output.
ProcessResult assemble(const Program& program, const TemporaryFolder& folder,
                       const std::string& name, std::string& text) {
  const auto source = folder.path() / (name + ".S");
  const auto object = folder.path() / (name + ".o");
  write_binary_file(source, writers::write_gas(program));
  ProcessResult result =
      run_process({SPONGEGEN_TEST_RISCV64_CC, "-c", source.string(), "-o", object.string()});
  if (result.exited && result.exit_status == 0) {
    text = readers::read_elf_text(read_binary_file(object)).bytes;
  }
  return result;
}

// One instruction in every form each row takes, at the edges of its operand ranges.
const std::vector<std::pair<Mnemonic, Emit>>& accepted_forms() {
  static const std::vector<std::pair<Mnemonic, Emit>> forms = [] {
    std::vector<std::pair<Mnemonic, Emit>> list;
    const auto add = [&](Mnemonic m, Emit emit) { list.emplace_back(m, std::move(emit)); };
    const Reg regs[][3] = {{x(1), x(2), x(3)}, {x(31), x(30), x(29)}, {x(10), zero, x(31)}};
    for (const auto& r : regs) {
      add(Mnemonic::riscv64_and, [r](Emitter& e) { e.and_(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_andn, [r](Emitter& e) { e.andn(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_or, [r](Emitter& e) { e.or_(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_xor, [r](Emitter& e) { e.xor_(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_orn, [r](Emitter& e) { e.orn(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_not, [r](Emitter& e) { e.not_(r[0], r[2]); });
      add(Mnemonic::riscv64_mv, [r](Emitter& e) { e.mv(r[0], r[2]); });
    }
    for (std::int64_t imm : {-2048, -1, 0, 1, 1024, 2047}) {
      add(Mnemonic::riscv64_addi, [imm](Emitter& e) { e.addi(x(31), x(7), imm); });
      add(Mnemonic::riscv64_xori, [imm](Emitter& e) { e.xori(x(5), x(31), imm); });
    }
    for (int amount : {0, 1, 31, 32, 63}) {
      add(Mnemonic::riscv64_slli, [amount](Emitter& e) { e.slli(x(6), x(28), amount); });
      add(Mnemonic::riscv64_srli, [amount](Emitter& e) { e.srli(x(28), x(6), amount); });
      add(Mnemonic::riscv64_rori, [amount](Emitter& e) { e.rori(x(31), x(1), amount); });
    }
    for (std::int64_t imm : {0, 1, 0x7ffff, 0x80000, 0xfffff})
      add(Mnemonic::riscv64_lui, [imm](Emitter& e) { e.lui(x(29), imm); });
    for (std::int32_t disp : {-2048, -8, 0, 8, 2040, 2047}) {
      add(Mnemonic::riscv64_ld, [disp](Emitter& e) { e.ld(x(17), at(sp, disp)); });
      add(Mnemonic::riscv64_sd, [disp](Emitter& e) { e.sd(x(31), at(x(30), disp)); });
    }
    add(Mnemonic::riscv64_ret, [](Emitter& e) { e.ret(); });
    add(Mnemonic::riscv64_unimp, [](Emitter& e) { e.unimp(); });
    // V: vl 0 and 31 (vsetivli's 5-bit immediate), vtype 0 and 1023 (its 10 bits) and the
    // kernels' e64, m1, ta, ma; every vector operand at v0, v31 and between; shifts 0-31.
    for (const auto& [avl, vtype] : std::vector<std::pair<int, std::int64_t>>{
             {0, 0}, {31, 1023}, {2, kVtypeE64M1TaMa}, {8, kVtypeE64M1TaMa}}) {
      add(Mnemonic::riscv64_vsetivli, [avl, vtype](Emitter& e) { e.vsetivli(x(31), avl, vtype); });
    }
    add(Mnemonic::riscv64_vsetivli, [](Emitter& e) { e.vsetivli(zero, 4, kVtypeE64M1TaMa); });
    const Reg vregs[][3] = {{v(0), v(1), v(2)}, {v(31), v(30), v(29)}, {v(16), v(0), v(31)}};
    for (const auto& r : vregs) {
      add(Mnemonic::riscv64_vle64_v, [r](Emitter& e) { e.vle64(r[0], at(x(r[0].index))); });
      add(Mnemonic::riscv64_vse64_v, [r](Emitter& e) { e.vse64(r[2], at(x(r[1].index))); });
      add(Mnemonic::riscv64_vxor_vv, [r](Emitter& e) { e.vxor(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_vand_vv, [r](Emitter& e) { e.vand(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_vor_vv, [r](Emitter& e) { e.vor(r[0], r[1], r[2]); });
      add(Mnemonic::riscv64_vnot_v, [r](Emitter& e) { e.vnot(r[0], r[2]); });
      add(Mnemonic::riscv64_vsll_vx, [r](Emitter& e) { e.vsll(r[0], r[1], x(r[2].index)); });
      add(Mnemonic::riscv64_vsrl_vx, [r](Emitter& e) { e.vsrl(r[2], r[0], x(r[1].index)); });
      add(Mnemonic::riscv64_vxor_vx, [r](Emitter& e) { e.vxor(r[0], r[2], x(r[1].index), true); });
      add(Mnemonic::riscv64_vslide1down_vx,
          [r](Emitter& e) { e.vslide1down(r[1], r[2], x(r[0].index)); });
    }
    for (int amount : {0, 1, 16, 31}) {
      add(Mnemonic::riscv64_vsll_vi, [amount](Emitter& e) { e.vsll(v(3), v(31), amount); });
      add(Mnemonic::riscv64_vsrl_vi, [amount](Emitter& e) { e.vsrl(v(31), v(0), amount); });
    }
    // A backward and a forward jump.
    add(Mnemonic::riscv64_j, [](Emitter& e) {
      const LabelId back = e.program().new_label("back");
      const LabelId ahead = e.program().new_label("ahead");
      e.bind(back);
      e.j(ahead);
      e.xor_(x(5), x(5), x(6));
      e.j(back);
      e.bind(ahead);
    });
    // The conditional branches at the ends of their reach: +4092 (1022 instructions
    // between) and -4096.
    add(Mnemonic::riscv64_beqz, [](Emitter& e) {
      const LabelId ahead = e.program().new_label("far_ahead");
      e.beqz(x(31), ahead);
      for (int i = 0; i < 1022; ++i)
        e.xor_(x(5), x(5), x(6));
      e.bind(ahead);
      e.beqz(x(1), ahead);
    });
    add(Mnemonic::riscv64_bnez, [](Emitter& e) {
      const LabelId back = e.program().new_label("far_back");
      e.bind(back);
      e.bnez(x(10), back);
      for (int i = 0; i < 1023; ++i)
        e.xor_(x(6), x(6), x(5));
      e.bnez(x(31), back);
    });
    return list;
  }();
  return forms;
}

}  // namespace

TEST_CASE("every riscv64 row, in every operand form, encodes as GNU as assembles it") {
  // Every row of the table has forms here: a new row needs its forms added.
  std::set<Mnemonic> covered;
  for (const auto& form : accepted_forms())
    covered.insert(form.first);
  for (const InstructionSpec& spec : instruction_table(Isa::riscv64)) {
    CAPTURE(spec.text);
    CHECK(covered.count(spec.mnemonic) == 1);
  }

  const Program program = one_function([](Emitter& e) {
    for (const auto& form : accepted_forms())
      form.second(e);
  });
  const writers::EncodedProgram encoded = writers::encode(program);
  REQUIRE(encoded.functions.size() == 1);
  const TemporaryFolder folder("riscv64-rows");
  std::string text;
  const ProcessResult assembled = assemble(program, folder, "rows", text);
  CAPTURE(assembled.output);
  REQUIRE(assembled.exit_status == 0);
  const writers::EncodedFunction& function = encoded.functions.front();
  REQUIRE(text.size() >= function.size);
  // Word by word, so that a failure names the instruction.
  const Function& items = program.functions.front();
  std::size_t index = 0;
  for (const Item& item : items.items) {
    const auto* instruction = std::get_if<Instruction>(&item);
    if (instruction == nullptr) continue;
    const std::size_t at = function.instruction_offsets.at(index++);
    CAPTURE(writers::format_instruction(program, *instruction));
    CHECK(text.substr(at, 4) ==
          std::string(encoded.code.begin() + static_cast<std::ptrdiff_t>(at),
                      encoded.code.begin() + static_cast<std::ptrdiff_t>(at + 4)));
  }
  CHECK(index == function.instruction_offsets.size());
}

// (A conditional branch beyond its reach is not here: GNU as rewrites it as an inverted
// branch around a `j` instead of refusing it; the encoder refuses it, as the encoding proof
// would catch the longer sequence.)
TEST_CASE("every operand the riscv64 encoder refuses, GNU as refuses too") {
  const std::vector<std::pair<std::string, Emit>> refused = {
      {"addi 2048", [](Emitter& e) { e.addi(x(5), x(6), 2048); }},
      {"addi -2049", [](Emitter& e) { e.addi(x(5), x(6), -2049); }},
      {"xori 2048", [](Emitter& e) { e.xori(x(5), x(6), 2048); }},
      {"slli 64", [](Emitter& e) { e.slli(x(5), x(6), 64); }},
      {"srli -1", [](Emitter& e) { e.srli(x(5), x(6), -1); }},
      {"rori 64", [](Emitter& e) { e.rori(x(5), x(6), 64); }},
      {"lui 0x100000", [](Emitter& e) { e.lui(x(5), 0x100000); }},
      {"ld 2048(sp)", [](Emitter& e) { e.ld(x(5), at(sp, 2048)); }},
      {"sd -2049(a0)", [](Emitter& e) { e.sd(x(5), at(a(0), -2049)); }},
      {"vsll.vi 32", [](Emitter& e) { e.vsll(v(1), v(2), 32); }},
      {"vsrl.vi -1", [](Emitter& e) { e.vsrl(v(1), v(2), -1); }},
      {"vsetivli vl 32", [](Emitter& e) { e.vsetivli(x(5), 32, kVtypeE64M1TaMa); }},
      {"vsetivli vl -1", [](Emitter& e) { e.vsetivli(x(5), -1, kVtypeE64M1TaMa); }},
      {"vsetivli vtype 1024", [](Emitter& e) { e.vsetivli(x(5), 1, 1024); }},
      {"vle64.v 8(a0)", [](Emitter& e) { e.vle64(v(1), at(a(0), 8)); }},
  };
  const TemporaryFolder folder("riscv64-refused");
  int n = 0;
  for (const auto& [name, emit] : refused) {
    CAPTURE(name);
    const Program program = one_function(emit);
    std::string our_refusal;
    try {
      writers::encode(program);
    } catch (const GenerationError& error) {
      our_refusal = error.what();
    }
    CHECK(our_refusal.find("outside") != std::string::npos);
    std::string text;
    const ProcessResult assembled =
        assemble(program, folder, "refused" + std::to_string(n++), text);
    CAPTURE(assembled.output);
    CHECK(assembled.exited);
    CHECK(assembled.exit_status != 0);
  }
}
