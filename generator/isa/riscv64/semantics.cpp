// What each riscv64 mnemonic of isa/riscv64/instructions.def does, on the symbolic machine.
// The switch names every mnemonic of the table, so a row added without its meaning here
// does not compile (-Wswitch, an error in every build).
#include "isa/riscv64/riscv64.hpp"
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

  // The vector rows act on vl 64-bit elements (e64, m1); the elements above vl are left
  // as they were (the tail is agnostic: the kernels never read it).
  std::size_t vl() const {
    if (m_.vector_length <= 0) throw MachineError("a vector instruction before vsetivli");
    return static_cast<std::size_t>(m_.vector_length);
  }
  VectorValue& vd() { return m_.vector(reg(0).index); }
  const VectorValue& vs(std::size_t i) const { return m_.vector(reg(i).index); }
  template <typename F>
  void elementwise(F f) {
    const VectorValue a = vs(1);
    VectorValue& d = vd();
    for (std::size_t e = 0; e < vl(); ++e)
      d[e] = f(a[e], e);
  }
  int scalar_shift(std::size_t i) const {
    return static_cast<int>(integer_of(read_gp(reg(i)), "a shift amount") & 63);
  }

  Control run();
};

Control Riscv64::run() {
  const Mnemonic mnemonic = instruction_.mnemonic;
  switch (mnemonic) {
    case Mnemonic::riscv64_addi:
      write_gp(reg(0), add_immediate(read_gp(reg(1)), imm(2), "an operand of addi"));
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
    case Mnemonic::riscv64_unimp:
      throw MachineError("unimp: the entry traps here");
    case Mnemonic::riscv64_vsetivli: {
      // The entries' precondition: VLMAX >= avl (else they trap), so vl = avl.
      if (imm(2) != riscv64::kVtypeE64M1TaMa) throw MachineError("a vtype other than e64, m1");
      if (imm(1) < 1 || imm(1) > kVectorWords) {
        throw MachineError("a vector length the prover does not model");
      }
      m_.vector_length = static_cast<int>(imm(1));
      write_gp(reg(0), Value::integer(static_cast<std::uint64_t>(imm(1))));
      return {};
    }
    case Mnemonic::riscv64_vle64_v: {
      const Pointer base = access(std::get<Mem>(operand(1)));
      VectorValue& d = vd();
      for (std::size_t e = 0; e < vl(); ++e) {
        Pointer at = base;
        at.offset += static_cast<std::int64_t>(8 * e);
        const Value value = m_.load(at);
        if (value.is_address()) throw MachineError("an address loaded into a vector register");
        d[e] = value.bits;
      }
      return {};
    }
    case Mnemonic::riscv64_vse64_v: {
      const Pointer base = access(std::get<Mem>(operand(1)));
      const VectorValue& s = vs(0);
      for (std::size_t e = 0; e < vl(); ++e) {
        Pointer at = base;
        at.offset += static_cast<std::int64_t>(8 * e);
        m_.store(at, Value::data(s[e]));
      }
      return {};
    }
    case Mnemonic::riscv64_vxor_vv: {
      if (operand(1) == operand(2)) {  // the zero idiom
        elementwise([](const Word&, std::size_t) { return constant_word(0); });
        return {};
      }
      const VectorValue b = vs(2);
      elementwise([&](const Word& a, std::size_t e) { return a ^ b[e]; });
      return {};
    }
    case Mnemonic::riscv64_vand_vv: {
      const VectorValue b = vs(2);
      elementwise([&](const Word& a, std::size_t e) { return a & b[e]; });
      return {};
    }
    case Mnemonic::riscv64_vor_vv: {
      const VectorValue b = vs(2);
      elementwise([&](const Word& a, std::size_t e) { return a | b[e]; });
      return {};
    }
    case Mnemonic::riscv64_vnot_v:
      elementwise([](const Word& a, std::size_t) { return ~a; });
      return {};
    case Mnemonic::riscv64_vsll_vi:
    case Mnemonic::riscv64_vsll_vx: {
      const int amount =
          mnemonic == Mnemonic::riscv64_vsll_vi ? static_cast<int>(imm(2)) : scalar_shift(2);
      elementwise([&](const Word& a, std::size_t) { return shift_left(a, amount); });
      return {};
    }
    case Mnemonic::riscv64_vsrl_vi:
    case Mnemonic::riscv64_vsrl_vx: {
      const int amount =
          mnemonic == Mnemonic::riscv64_vsrl_vi ? static_cast<int>(imm(2)) : scalar_shift(2);
      elementwise([&](const Word& a, std::size_t) { return shift_right(a, amount); });
      return {};
    }
    case Mnemonic::riscv64_vxor_vx: {
      const Word s = data(2);
      elementwise([&](const Word& a, std::size_t) { return a ^ s; });
      return {};
    }
    case Mnemonic::riscv64_vslide1down_vx: {
      const Word s = data(2);
      const std::size_t last = vl() - 1;
      const VectorValue a = vs(1);
      elementwise([&](const Word&, std::size_t e) { return e == last ? s : a[e + 1]; });
      return {};
    }
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
