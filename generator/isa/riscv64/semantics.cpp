// What each riscv64 mnemonic of isa/riscv64/instructions.def does, on the symbolic machine.
// The switch names every mnemonic of the table, so a row added without its meaning here
// does not compile (-Wswitch, an error in every build).
#include "isa/riscv64/target_parts.hpp"
#include "prove/instruction_semantics.hpp"

namespace spongegen::prove {
namespace {

constexpr int kZeroRegister = 0;  // x0 reads as 0; what is written to it is discarded

class Riscv64 : public InstructionSemantics {
 public:
  using InstructionSemantics::InstructionSemantics;

  Value read_gp(const Reg& r) const {
    if (r.index == kZeroRegister) return Value::integer(0);
    return m_.gp(r.index);
  }
  void write_gp(const Reg& r, Value value) {
    if (r.index == kZeroRegister) return;
    m_.gp(r.index) = std::move(value);
  }
  Word data(std::size_t i) const {
    const Value value = read_gp(reg(i));
    if (value.is_address()) throw MachineError("an address used as data");
    if (value.block_count) throw MachineError("the block count used as data");
    return value.bits;
  }
  Pointer access(const Mem& mem) const {
    if (mem.addressing != Addressing::offset)
      throw MachineError("an addressing form riscv64 lacks");
    Pointer at = address_of(read_gp(mem.base), "the base register");
    at.offset += mem.disp;
    return at;
  }

  // addi: address arithmetic (an address plus an integer), the block count's decrement, or
  // arithmetic on known integers.
  Value add_immediate(Value a, std::int64_t delta) const {
    if (a.block_count) {
      if (delta != -1) throw MachineError("the block count changed by other than -1");
      Value counted = Value::integer(count_of(a, "the block count") - 1);
      counted.block_count = true;
      return counted;
    }
    if (a.is_address()) {
      a.pointer->offset += delta;
      return a;
    }
    return Value::integer(integer_of(a, "an operand of addi") + static_cast<std::uint64_t>(delta));
  }

  Control run();
};

Control Riscv64::run() {
  const Mnemonic mnemonic = instruction_.mnemonic;
  switch (mnemonic) {
    case Mnemonic::riscv64_addi:
      write_gp(reg(0), add_immediate(read_gp(reg(1)), imm(2)));
      return {};
    case Mnemonic::riscv64_xor:
      if (operand(1) == operand(2)) {
        // The zero idiom: zero whatever the register held, an address included.
        write_gp(reg(0), Value::integer(0));
        return {};
      }
      write_gp(reg(0), Value::data(data(1) ^ data(2)));
      return {};
    case Mnemonic::riscv64_and:
      write_gp(reg(0), Value::data(data(1) & data(2)));
      return {};
    case Mnemonic::riscv64_or:
      write_gp(reg(0), Value::data(data(1) | data(2)));
      return {};
    case Mnemonic::riscv64_andn:
      write_gp(reg(0), Value::data(data(1) & ~data(2)));
      return {};
    case Mnemonic::riscv64_orn:
      write_gp(reg(0), Value::data(data(1) | ~data(2)));
      return {};
    case Mnemonic::riscv64_mv:
      // A copy of whatever the register holds: data, an address or the block count.
      write_gp(reg(0), read_gp(reg(1)));
      return {};
    case Mnemonic::riscv64_not:
      write_gp(reg(0), Value::data(~data(1)));
      return {};
    case Mnemonic::riscv64_xori:
      write_gp(reg(0), Value::data(data(1) ^ constant_word(static_cast<std::uint64_t>(imm(2)))));
      return {};
    case Mnemonic::riscv64_lui:
      // imm20 << 12, sign-extended from bit 31.
      write_gp(reg(0), Value::integer(static_cast<std::uint64_t>(static_cast<std::int64_t>(
                           static_cast<std::int32_t>(static_cast<std::uint32_t>(imm(1)) << 12)))));
      return {};
    case Mnemonic::riscv64_slli:
      write_gp(reg(0), Value::data(shift_left(data(1), static_cast<int>(imm(2)))));
      return {};
    case Mnemonic::riscv64_srli:
      write_gp(reg(0), Value::data(shift_right(data(1), static_cast<int>(imm(2)))));
      return {};
    case Mnemonic::riscv64_rori:
      write_gp(reg(0), Value::data(rotate_left(data(1), static_cast<int>((64 - imm(2)) & 63))));
      return {};
    case Mnemonic::riscv64_ld:
      write_gp(reg(0), m_.load(access(std::get<Mem>(operand(1)))));
      return {};
    case Mnemonic::riscv64_sd:
      m_.store(access(std::get<Mem>(operand(1))), read_gp(reg(0)));
      return {};
    case Mnemonic::riscv64_j:
      return {Control::jump, std::get<LabelRef>(operand(0)).id};
    case Mnemonic::riscv64_beqz:
    case Mnemonic::riscv64_bnez: {
      const bool zero = count_of(read_gp(reg(0)), "the register a branch tests") == 0;
      if (zero == (mnemonic == Mnemonic::riscv64_beqz)) {
        return {Control::jump, std::get<LabelRef>(operand(1)).id};
      }
      return {};
    }
    case Mnemonic::riscv64_ret:
      return {Control::ret};
// Every other ISA's rows: the cases of this table's rows are above.
#define SPONGEGEN_RISCV64(...)
#define SPONGEGEN_MNEMONIC(isa, name) case Mnemonic::isa##_##name:
#include "isa/instructions.def"
#undef SPONGEGEN_MNEMONIC
#undef SPONGEGEN_RISCV64
      break;
  }
  throw MachineError("not a riscv64 instruction");
}

}  // namespace

Control execute_riscv64(Machine& machine, const Instruction& instruction,
                        const LabelRegions& labels) {
  return Riscv64(machine, instruction, labels).run();
}

}  // namespace spongegen::prove
