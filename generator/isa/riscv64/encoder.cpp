// riscv64 machine code, by our own encoder: asmjit has no RISC-V backend. Every instruction
// is one 32-bit word (the files say `.option norvc`, so GNU as compresses nothing), laid out
// as the .S file lays it out: functions 32-byte aligned in order, then the constant tables
// 64-byte aligned, the gaps filled with `nop` (addi zero, zero, 0), as GNU as fills them.
// The encoding proof compares every word with what GNU as assembles from the written file.
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "isa/riscv64/target_parts.hpp"
#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::riscv64 {
namespace {

constexpr std::uint32_t kNop = 0x00000013;

struct Encoder {
  const Program& program;
  const Function* function = nullptr;
  const Instruction* instruction = nullptr;

  [[noreturn]] void refuse(const std::string& why) const {
    throw GenerationError(fmt::format("kernel {}, function {}, instruction '{}': {}",
                                      program.kernel_name, function->symbol,
                                      writers::format_instruction(program, *instruction), why));
  }

  std::uint32_t reg(std::size_t i) const {
    const Reg* r = std::get_if<Reg>(&instruction->operands.at(i));
    if (r == nullptr || r->cls != RegClass::gp64 || r->index > 31) {
      refuse(fmt::format("operand {} is not x0-x31", i + 1));
    }
    return r->index;
  }
  std::uint32_t vreg(std::size_t i) const {
    const Reg* r = std::get_if<Reg>(&instruction->operands.at(i));
    if (r == nullptr || r->cls != RegClass::rvv || r->index > 31) {
      refuse(fmt::format("operand {} is not v0-v31", i + 1));
    }
    return r->index;
  }
  // A vector load's or store's address: (register), no displacement.
  std::uint32_t vector_base(std::size_t i) const {
    const Mem* m = std::get_if<Mem>(&instruction->operands.at(i));
    if (m == nullptr || m->addressing != Addressing::offset || m->base.cls != RegClass::gp64) {
      refuse("a vector memory operand is (register)");
    }
    if (m->disp != 0) {
      refuse(
          fmt::format("displacement {} is outside 0..0: a vector load or store has none", m->disp));
    }
    return m->base.index;
  }
  // OP-V, unmasked (vm = 1): funct6, vs2, the third operand's field, funct3, vd.
  static std::uint32_t op_v(std::uint32_t funct6, std::uint32_t vs2, std::uint32_t field,
                            std::uint32_t funct3, std::uint32_t vd) {
    return funct6 << 26 | 1u << 25 | vs2 << 20 | (field & 0x1f) << 15 | funct3 << 12 | vd << 7 |
           0x57;
  }
  std::int64_t imm(std::size_t i, std::int64_t low, std::int64_t high, const char* what) const {
    const Imm* value = std::get_if<Imm>(&instruction->operands.at(i));
    if (value == nullptr) refuse(fmt::format("operand {} is not an immediate", i + 1));
    if (value->value < low || value->value > high) {
      refuse(fmt::format("{} {} is outside {}..{}", what, value->value, low, high));
    }
    return value->value;
  }
  const Mem& mem(std::size_t i) const {
    const Mem* m = std::get_if<Mem>(&instruction->operands.at(i));
    if (m == nullptr || m->addressing != Addressing::offset || m->base.cls != RegClass::gp64) {
      refuse("a riscv64 memory operand is disp(register)");
    }
    if (m->disp < -2048 || m->disp > 2047) {
      refuse(fmt::format("displacement {} is outside the 12-bit range -2048..2047", m->disp));
    }
    return *m;
  }

  static std::uint32_t r_type(std::uint32_t funct7, std::uint32_t rs2, std::uint32_t rs1,
                              std::uint32_t funct3, std::uint32_t rd, std::uint32_t opcode) {
    return funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode;
  }
  static std::uint32_t i_type(std::int64_t imm, std::uint32_t rs1, std::uint32_t funct3,
                              std::uint32_t rd, std::uint32_t opcode) {
    return (static_cast<std::uint32_t>(imm) & 0xfff) << 20 | rs1 << 15 | funct3 << 12 | rd << 7 |
           opcode;
  }

  // The word of the current instruction at `at`; `labels` holds each label's offset.
  std::uint32_t encode(std::size_t at, const std::vector<std::int64_t>& labels) const {
    const auto branch_offset = [&](std::size_t i, std::int64_t reach) {
      const LabelRef* label = std::get_if<LabelRef>(&instruction->operands.at(i));
      if (label == nullptr || labels.at(label->id) < 0) refuse("the target is no code label");
      const std::int64_t offset = labels[label->id] - static_cast<std::int64_t>(at);
      if (offset < -reach || offset >= reach) {
        refuse(fmt::format("the target is {} bytes away; this branch reaches +-{}", offset, reach));
      }
      return static_cast<std::uint32_t>(offset);
    };
    switch (instruction->mnemonic) {
      case Mnemonic::riscv64_and:
        return r_type(0x00, reg(2), reg(1), 7, reg(0), 0x33);
      case Mnemonic::riscv64_or:
        return r_type(0x00, reg(2), reg(1), 6, reg(0), 0x33);
      case Mnemonic::riscv64_xor:
        return r_type(0x00, reg(2), reg(1), 4, reg(0), 0x33);
      case Mnemonic::riscv64_andn:
        return r_type(0x20, reg(2), reg(1), 7, reg(0), 0x33);
      case Mnemonic::riscv64_orn:
        return r_type(0x20, reg(2), reg(1), 6, reg(0), 0x33);
      case Mnemonic::riscv64_addi:
        return i_type(imm(2, -2048, 2047, "the immediate"), reg(1), 0, reg(0), 0x13);
      case Mnemonic::riscv64_xori:
        return i_type(imm(2, -2048, 2047, "the immediate"), reg(1), 4, reg(0), 0x13);
      case Mnemonic::riscv64_mv:
        return i_type(0, reg(1), 0, reg(0), 0x13);
      case Mnemonic::riscv64_not:
        return i_type(-1, reg(1), 4, reg(0), 0x13);
      case Mnemonic::riscv64_slli:
        return i_type(imm(2, 0, 63, "the shift"), reg(1), 1, reg(0), 0x13);
      case Mnemonic::riscv64_srli:
        return i_type(imm(2, 0, 63, "the shift"), reg(1), 5, reg(0), 0x13);
      case Mnemonic::riscv64_rori:
        return i_type(0x600 | imm(2, 0, 63, "the rotation"), reg(1), 5, reg(0), 0x13);
      case Mnemonic::riscv64_ld: {
        const Mem& m = mem(1);
        return i_type(m.disp, m.base.index, 3, reg(0), 0x03);
      }
      case Mnemonic::riscv64_sd: {
        const Mem& m = mem(1);
        const auto disp = static_cast<std::uint32_t>(m.disp);
        return (disp >> 5 & 0x7f) << 25 | reg(0) << 20 | std::uint32_t{m.base.index} << 15 |
               3u << 12 | (disp & 0x1f) << 7 | 0x23;
      }
      case Mnemonic::riscv64_lui:
        return static_cast<std::uint32_t>(imm(1, 0, 0xfffff, "the upper immediate")) << 12 |
               reg(0) << 7 | 0x37;
      case Mnemonic::riscv64_j: {
        const std::uint32_t o = branch_offset(0, 1 << 20);
        return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 | (o >> 11 & 1) << 20 |
               (o >> 12 & 0xff) << 12 | 0x6f;
      }
      case Mnemonic::riscv64_beqz:    // beq rs, zero
      case Mnemonic::riscv64_bnez: {  // bne rs, zero
        const std::uint32_t funct3 = instruction->mnemonic == Mnemonic::riscv64_bnez ? 1 : 0;
        const std::uint32_t o = branch_offset(1, 1 << 12);
        return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | reg(0) << 15 | funct3 << 12 |
               (o >> 1 & 0xf) << 8 | (o >> 11 & 1) << 7 | 0x63;
      }
      case Mnemonic::riscv64_ret:
        return i_type(0, 1, 0, 0, 0x67);
      case Mnemonic::riscv64_unimp:  // csrrw zero, cycle, zero: an illegal instruction
        return 0xc0001073;
      case Mnemonic::riscv64_vsetivli:
        return 3u << 30 | static_cast<std::uint32_t>(imm(2, 0, 0x3ff, "vtype")) << 20 |
               static_cast<std::uint32_t>(imm(1, 0, 31, "the vector length")) << 15 | 7u << 12 |
               reg(0) << 7 | 0x57;
      case Mnemonic::riscv64_vle64_v:  // unit-stride, width 111 (64-bit elements), vm = 1
        return 1u << 25 | vector_base(1) << 15 | 7u << 12 | vreg(0) << 7 | 0x07;
      case Mnemonic::riscv64_vse64_v:
        return 1u << 25 | vector_base(1) << 15 | 7u << 12 | vreg(0) << 7 | 0x27;
      // funct3: OPIVV 000, OPIVI 011, OPIVX 100, OPMVX 110.
      case Mnemonic::riscv64_vand_vv:
        return op_v(0x09, vreg(1), vreg(2), 0, vreg(0));
      case Mnemonic::riscv64_vor_vv:
        return op_v(0x0a, vreg(1), vreg(2), 0, vreg(0));
      case Mnemonic::riscv64_vxor_vv:
        return op_v(0x0b, vreg(1), vreg(2), 0, vreg(0));
      case Mnemonic::riscv64_vnot_v:  // vxor.vi vd, vs, -1
        return op_v(0x0b, vreg(1), 0x1f, 3, vreg(0));
      case Mnemonic::riscv64_vsll_vi:
        return op_v(0x25, vreg(1), static_cast<std::uint32_t>(imm(2, 0, 31, "the shift")), 3,
                    vreg(0));
      case Mnemonic::riscv64_vsrl_vi:
        return op_v(0x28, vreg(1), static_cast<std::uint32_t>(imm(2, 0, 31, "the shift")), 3,
                    vreg(0));
      case Mnemonic::riscv64_vsll_vx:
        return op_v(0x25, vreg(1), reg(2), 4, vreg(0));
      case Mnemonic::riscv64_vsrl_vx:
        return op_v(0x28, vreg(1), reg(2), 4, vreg(0));
      case Mnemonic::riscv64_vxor_vx:
        return op_v(0x0b, vreg(1), reg(2), 4, vreg(0));
      case Mnemonic::riscv64_vslide1down_vx:
        return op_v(0x0f, vreg(1), reg(2), 6, vreg(0));
      default:
        refuse("not a riscv64 instruction");
    }
  }
};

void append_word(std::vector<std::uint8_t>& code, std::uint32_t word) {
  for (int i = 0; i < 4; ++i)
    code.push_back(static_cast<std::uint8_t>(word >> (8 * i)));  // little-endian
}

void align(std::vector<std::uint8_t>& code, std::size_t alignment) {
  while (code.size() % alignment != 0)
    append_word(code, kNop);
}

}  // namespace

writers::EncodedProgram encode(const Program& program) {
  if (!program.win64_entries.empty()) throw GenerationError("riscv64 has no Windows entries");
  // Pass 1: every label's offset (every instruction is 4 bytes).
  std::vector<std::int64_t> labels(program.label_names.size(), -1);
  std::size_t at = 0;
  for (const Function& function : program.functions) {
    at = (at + 31) / 32 * 32;
    for (const Item& item : function.items) {
      if (std::holds_alternative<Instruction>(item)) at += 4;
      if (const auto* label = std::get_if<LabelDef>(&item)) labels.at(label->id) = at;
    }
  }
  // Pass 2: the words.
  writers::EncodedProgram encoded;
  Encoder encoder{program};
  for (const Function& function : program.functions) {
    align(encoded.code, 32);
    writers::EncodedFunction out{function.symbol, encoded.code.size(), 0, {}};
    encoder.function = &function;
    for (const Item& item : function.items) {
      const auto* instruction = std::get_if<Instruction>(&item);
      if (instruction == nullptr) continue;
      encoder.instruction = instruction;
      out.instruction_offsets.push_back(encoded.code.size() - out.offset);
      append_word(encoded.code, encoder.encode(encoded.code.size(), labels));
    }
    out.size = encoded.code.size() - out.offset;
    encoded.functions.push_back(std::move(out));
  }
  for (const QuadTable& table : program.tables) {
    align(encoded.code, 64);
    encoded.tables.push_back(
        {program.label_names.at(table.label), encoded.code.size(), 8 * table.values.size()});
    for (std::uint64_t value : table.values) {
      append_word(encoded.code, static_cast<std::uint32_t>(value));
      append_word(encoded.code, static_cast<std::uint32_t>(value >> 32));
    }
  }
  return encoded;
}

}  // namespace spongegen::riscv64
