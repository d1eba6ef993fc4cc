// What each arm64 mnemonic of isa/arm64/instructions.def does, on the symbolic machine.
// The switch names every mnemonic of the table, so a row added without its meaning here
// does not compile (-Wswitch, an error in every build).
#include <fmt/format.h>

#include "isa/arm64/target_parts.hpp"
#include "prove/instruction_semantics.hpp"

namespace spongegen::prove {
namespace {

constexpr int kZeroRegister = 31;  // xzr / wzr where a general-purpose register is named

class Arm64 : public InstructionSemantics {
 public:
  using InstructionSemantics::InstructionSemantics;

  Value read_gp(const Reg& r) const {
    if (r.cls == RegClass::sp) return m_.stack_pointer();
    if (r.index == kZeroRegister) return Value::integer(0);
    Value value = m_.gp(r.index);
    if (r.cls == RegClass::gp32) return low_half(std::move(value), "a 32-bit view of an address");
    return value;
  }
  void write_gp(const Reg& r, Value value) {
    if (r.cls == RegClass::sp) {
      if (!value.is_address()) throw MachineError("sp set to something that is no address");
      m_.stack_pointer() = std::move(value);
      return;
    }
    if (r.index == kZeroRegister) return;
    if (r.cls == RegClass::gp32) {
      value = low_half(std::move(value), "an address written to a 32-bit register");
    }
    m_.gp(r.index) = std::move(value);
  }
  Word data(const Value& value) const {
    if (value.is_address()) throw MachineError("an address used as data");
    if (value.block_count) throw MachineError("the block count used as data");
    return value.bits;
  }

  // The second source of a data-processing instruction: a register, shifted or not.
  Word source(std::size_t i) const {
    if (const auto* shifted = std::get_if<ShiftedReg>(&operand(i))) {
      const Word w = data(read_gp(shifted->reg));
      const int amount = shifted->amount;
      switch (shifted->shift) {
        case Shift::lsl:
          return shift_left(w, amount);
        case Shift::lsr:
          return shift_right(w, amount);
        case Shift::ror:
          return rotate_left(w, (64 - amount) & 63);
        case Shift::asr:
          break;
      }
      throw MachineError("an arithmetic shift, not modelled");
    }
    return data(read_gp(reg(i)));
  }

  // The address a memory operand accesses, after pre-indexing; post- and pre-indexed forms
  // write the base back.
  Pointer access(const Mem& mem) {
    if (mem.addressing == Addressing::go_argument) {
      if (labels_.go_arguments < 0)
        throw MachineError("an FP argument in an entry that is not Go's");
      return Pointer{labels_.go_arguments, mem.disp};
    }
    Value base = read_gp(mem.base);
    Pointer at = address_of(base, "the base register");
    if (mem.addressing == Addressing::post_index) {
      Pointer updated = at;
      updated.offset += mem.disp;
      write_gp(mem.base, Value::address(updated));
      return at;
    }
    at.offset += mem.disp;
    if (mem.addressing == Addressing::pre_index) write_gp(mem.base, Value::address(at));
    if (mem.addressing != Addressing::offset && mem.addressing != Addressing::pre_index) {
      throw MachineError("an addressing form arm64 lacks");
    }
    return at;
  }

  // Loads into, or stores from, one register of a transfer (ldr, str, ldp, stp) at `at`;
  // returns the bytes moved.
  int load_into(const Reg& r, Pointer at) {
    switch (r.cls) {
      case RegClass::gp64:
        write_gp(r, m_.load(at));
        return 8;
      case RegClass::fp64:
      case RegClass::fp128: {
        const int words = r.cls == RegClass::fp64 ? 1 : 2;
        VectorValue& v = m_.vector(r.index);
        v = VectorValue{};
        for (int w = 0; w < words; ++w) {
          v[static_cast<std::size_t>(w)] = data(m_.load(at));
          at.offset += 8;
        }
        return 8 * words;
      }
      default:
        break;
    }
    throw MachineError("a load into a register class arm64 transfers do not take");
  }
  int store_from(const Reg& r, Pointer at) {
    switch (r.cls) {
      case RegClass::gp64:
        m_.store(at, read_gp(r));
        return 8;
      case RegClass::fp64:
      case RegClass::fp128: {
        const int words = r.cls == RegClass::fp64 ? 1 : 2;
        const VectorValue& v = m_.vector(r.index);
        for (int w = 0; w < words; ++w) {
          m_.store(at, Value::data(v[static_cast<std::size_t>(w)]));
          at.offset += 8;
        }
        return 8 * words;
      }
      default:
        break;
    }
    throw MachineError("a store from a register class arm64 transfers do not take");
  }

  // The two 64-bit lanes of a SIMD register (a 128-bit write: arm64 has nothing wider).
  std::array<Word, 2> lanes(std::size_t i) const {
    const VectorValue& v = m_.vector(reg(i).index);
    return {v[0], v[1]};
  }
  void write_lanes(std::size_t i, const std::array<Word, 2>& value) {
    VectorValue& v = m_.vector(reg(i).index);
    v = VectorValue{};
    v[0] = value[0];
    v[1] = value[1];
  }
  // A lane-wise SIMD instruction whose sources are operands 1 .. `sources`.
  template <class Op>
  void simd(std::size_t sources, Op op) {
    std::array<Word, 2> out;
    for (std::size_t lane = 0; lane < 2; ++lane) {
      std::array<Word, 3> in;
      for (std::size_t s = 0; s < sources; ++s)
        in[s] = lanes(1 + s)[lane];
      out[lane] = op(in);
    }
    write_lanes(0, out);
  }

  // add and sub: address arithmetic (an address plus an integer, the distance between two
  // addresses of one buffer), or arithmetic on known integers.
  Value add(std::int64_t sign) {
    Value a = read_gp(reg(1));
    Value b;
    if (const auto* im = std::get_if<Imm>(&operand(2))) {
      b = Value::integer(static_cast<std::uint64_t>(im->value));
    } else if (std::holds_alternative<Reg>(operand(2))) {
      b = read_gp(reg(2));
    } else {
      b = Value::data(source(2));
    }
    if (a.is_address() && b.is_address()) {
      if (sign > 0 || a.pointer->region != b.pointer->region) {
        throw MachineError("arithmetic on two addresses other than a distance within one buffer");
      }
      return Value::integer(static_cast<std::uint64_t>(a.pointer->offset - b.pointer->offset));
    }
    if (b.is_address()) {
      if (sign < 0) throw MachineError("an integer minus an address");
      std::swap(a, b);
    }
    const std::uint64_t delta = integer_of(b, "an operand of add or sub");
    if (a.block_count) {
      if (sign > 0 || delta != 1) throw MachineError("the block count changed by other than -1");
      Value counted = Value::integer(count_of(a, "the block count") - 1);
      counted.block_count = true;
      return counted;
    }
    if (a.is_address()) {
      a.pointer->offset += sign * static_cast<std::int64_t>(delta);
      return a;
    }
    return Value::integer(integer_of(a, "an operand of add or sub") +
                          static_cast<std::uint64_t>(sign) * delta);
  }

  Control run();
};

Control Arm64::run() {
  const Mnemonic mnemonic = instruction_.mnemonic;
  switch (mnemonic) {
    case Mnemonic::arm64_add:
      write_gp(reg(0), add(1));
      return {};
    case Mnemonic::arm64_sub:
      write_gp(reg(0), add(-1));
      return {};
    case Mnemonic::arm64_adr: {
      const int region = table_region(std::get<LabelRef>(operand(1)).id,
                                      "adr of a label that is no constant table");
      write_gp(reg(0), Value::address(Pointer{region, 0}));
      return {};
    }
    case Mnemonic::arm64_and:
    case Mnemonic::arm64_bic:
    case Mnemonic::arm64_orr:
    case Mnemonic::arm64_orn:
    case Mnemonic::arm64_eor: {
      if (reg(0).cls == RegClass::vec) {
        if (mnemonic != Mnemonic::arm64_eor) throw MachineError("a vector form not modelled");
        simd(2, [](const std::array<Word, 3>& in) { return in[0] ^ in[1]; });
        return {};
      }
      if (mnemonic == Mnemonic::arm64_eor && operand(1) == operand(2)) {
        // The zero idiom: zero whatever the register held, an address included.
        write_gp(reg(0), Value::integer(0));
        return {};
      }
      const Word a = data(read_gp(reg(1))), b = source(2);
      const Word result = mnemonic == Mnemonic::arm64_and   ? a & b
                          : mnemonic == Mnemonic::arm64_bic ? a & ~b
                          : mnemonic == Mnemonic::arm64_orr ? a | b
                          : mnemonic == Mnemonic::arm64_orn ? a | ~b
                                                            : a ^ b;
      write_gp(reg(0), Value::data(result));
      return {};
    }
    case Mnemonic::arm64_mvn:
      write_gp(reg(0), Value::data(~source(1)));
      return {};
    case Mnemonic::arm64_mov:
      if (const auto* im = std::get_if<Imm>(&operand(1))) {
        write_gp(reg(0), Value::integer(static_cast<std::uint64_t>(im->value)));
      } else {
        write_gp(reg(0), read_gp(reg(1)));
      }
      return {};
    case Mnemonic::arm64_ror:
      write_gp(reg(0), Value::data(rotate_left(data(read_gp(reg(1))),
                                               static_cast<int>((64 - imm(2)) & 63))));
      return {};
    case Mnemonic::arm64_b:
      return {Control::jump, std::get<LabelRef>(operand(0)).id};
    case Mnemonic::arm64_cbnz:
    case Mnemonic::arm64_cbz: {
      const bool zero = count_of(read_gp(reg(0)), "the register a branch tests") == 0;
      if (zero == (mnemonic == Mnemonic::arm64_cbz)) {
        return {Control::jump, std::get<LabelRef>(operand(1)).id};
      }
      return {};
    }
    case Mnemonic::arm64_ret:
      return {Control::ret};
    case Mnemonic::arm64_hint:
      // BTI landing pads, and PACIASP / AUTIASP, which sign and authenticate x30 in place:
      // on the data, and on the address x30 returns to once authenticated, no effect.
      return {};
    case Mnemonic::arm64_ldr:
      load_into(reg(0), access(std::get<Mem>(operand(1))));
      return {};
    case Mnemonic::arm64_str:
      store_from(reg(0), access(std::get<Mem>(operand(1))));
      return {};
    case Mnemonic::arm64_ldp: {
      Pointer at = access(std::get<Mem>(operand(2)));
      at.offset += load_into(reg(0), at);
      load_into(reg(1), at);
      return {};
    }
    case Mnemonic::arm64_stp: {
      Pointer at = access(std::get<Mem>(operand(2)));
      at.offset += store_from(reg(0), at);
      store_from(reg(1), at);
      return {};
    }
    case Mnemonic::arm64_ld1r: {
      const Word value = data(m_.load(access(std::get<Mem>(operand(1)))));
      write_lanes(0, {value, value});
      return {};
    }
    case Mnemonic::arm64_eor3:
      simd(3, [](const std::array<Word, 3>& in) { return in[0] ^ in[1] ^ in[2]; });
      return {};
    case Mnemonic::arm64_bcax:
      simd(3, [](const std::array<Word, 3>& in) { return in[0] ^ (in[1] & ~in[2]); });
      return {};
    case Mnemonic::arm64_rax1:
      simd(2, [](const std::array<Word, 3>& in) { return in[0] ^ rotate_left(in[1], 1); });
      return {};
    case Mnemonic::arm64_xar: {
      const int right = static_cast<int>(imm(3) & 63);
      simd(2, [right](const std::array<Word, 3>& in) {
        return rotate_left(in[0] ^ in[1], (64 - right) & 63);
      });
      return {};
    }
    case Mnemonic::arm64_zip1: {
      const auto a = lanes(1), b = lanes(2);
      write_lanes(0, {a[0], b[0]});
      return {};
    }
// Every other ISA's rows: the cases of this table's rows are above.
#define SPONGEGEN_ARM64(...)
#define SPONGEGEN_MNEMONIC(isa, name) case Mnemonic::isa##_##name:
#include "isa/instructions.def"
#undef SPONGEGEN_MNEMONIC
#undef SPONGEGEN_ARM64
    break;
  }
  throw MachineError("not an arm64 instruction");
}

}  // namespace

Control execute_arm64(Machine& machine, const Instruction& instruction,
                      const LabelRegions& labels) {
  return Arm64(machine, instruction, labels).run();
}

}  // namespace spongegen::prove
