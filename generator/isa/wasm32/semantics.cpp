// What each wasm32 mnemonic of isa/wasm32/instructions.def does, on the symbolic machine, as
// the WebAssembly specification defines the operations each row lowers to. Locals are the
// machine's registers: i32 and i64 locals its general-purpose file (an i32 value in the low
// half, the upper half zero), v128 locals words 0 (lane 0) and 1 of its vector file. The i32
// locals that hold pointers hold the machine's addresses, and memory is addressed at the
// base's address plus the row's constant offset. The switch names every mnemonic of the
// table, so a row added without its meaning here does not compile (-Wswitch, an error in
// every build).
#include "isa/wasm32/target_parts.hpp"
#include "isa/wasm32/wasm32.hpp"
#include "prove/instruction_semantics.hpp"

namespace spongegen::prove {
namespace {

class Wasm32 : public InstructionSemantics {
 public:
  using InstructionSemantics::InstructionSemantics;

  Value& local(std::size_t i) { return m_.gp(reg(i).index); }
  Word data(std::size_t i) const {
    const Value& value = m_.gp(reg(i).index);
    if (value.is_address()) throw MachineError("an address used as data");
    if (value.block_count) throw MachineError("the block count used as data");
    return value.bits;
  }
  // An i32 result: an address stays one (WebAssembly's addresses are i32), anything else
  // wraps to 32 bits.
  static Value i32(Value value) {
    if (value.is_address()) return value;
    return low_half(std::move(value), "an address as an i32");
  }
  Pointer access(std::size_t i, std::int64_t word = 0) const {
    const Mem& mem = std::get<Mem>(operand(i));
    if (mem.addressing != Addressing::offset || mem.disp < 0) {
      throw MachineError("a memory operand other than a local plus a constant offset");
    }
    Pointer at = address_of(m_.gp(mem.base.index), "the base local");
    at.offset += mem.disp + 8 * word;
    return at;
  }
  Word load_data(const Pointer& at) const {
    const Value value = m_.load(at);
    if (value.is_address()) throw MachineError("an address loaded into a v128 local");
    return value.bits;
  }
  VectorValue& vd() { return m_.vector(reg(0).index); }
  const VectorValue& vs(std::size_t i) const { return m_.vector(reg(i).index); }
  // Each of the two 64-bit lanes.
  template <typename F>
  void lanewise(std::size_t source, F f) {
    const VectorValue a = vs(source);
    VectorValue& d = vd();
    for (std::size_t lane = 0; lane < 2; ++lane)
      d[lane] = f(a[lane], lane);
  }
  // The shift and rotate counts: WebAssembly takes them modulo 64.
  int amount(std::size_t i) const { return static_cast<int>(imm(i) & 63); }
  Control branch(bool taken) const {
    if (!taken) return {};
    return {Control::jump, std::get<LabelRef>(operand(0)).id};
  }

  Control run();
};

Control Wasm32::run() {
  const Mnemonic mnemonic = instruction_.mnemonic;
  switch (mnemonic) {
    case Mnemonic::wasm32_i64_load:
      // Whatever the word holds, an address included (the block pointers' 8-byte slots).
      local(0) = m_.load(access(1));
      return {};
    case Mnemonic::wasm32_i64_store:
      m_.store(access(1), m_.gp(reg(0).index));
      return {};
    case Mnemonic::wasm32_i64_xor:
      if (operand(1) == operand(2)) {
        // The zero idiom: zero whatever the local held, an address included.
        local(0) = Value::integer(0);
        return {};
      }
      local(0) = Value::data(data(1) ^ data(2));
      return {};
    case Mnemonic::wasm32_i64_and:
      local(0) = Value::data(data(1) & data(2));
      return {};
    case Mnemonic::wasm32_i64_or:
      local(0) = Value::data(data(1) | data(2));
      return {};
    case Mnemonic::wasm32_i64_xor_const:
      local(0) = Value::data(data(1) ^ constant_word(static_cast<std::uint64_t>(imm(2))));
      return {};
    case Mnemonic::wasm32_i64_rotl:
      local(0) = Value::data(rotate_left(data(1), amount(2)));
      return {};
    case Mnemonic::wasm32_i64_rotr:
      local(0) = Value::data(rotate_left(data(1), (64 - amount(2)) & 63));
      return {};
    case Mnemonic::wasm32_i64_copy:
      // A copy of whatever the local holds: data, an address or the block count.
      local(0) = m_.gp(reg(1).index);
      return {};
    case Mnemonic::wasm32_i32_add_const:
      local(0) = i32(add_immediate(m_.gp(reg(1).index), imm(2), "an operand of i32.add"));
      return {};
    case Mnemonic::wasm32_i32_const:
      local(0) = Value::integer(static_cast<std::uint32_t>(imm(1)));
      return {};
    case Mnemonic::wasm32_i32_table_address:
      local(0) = Value::address(Pointer{table_region(std::get<LabelRef>(operand(1)).id,
                                                     "the address of a label that is no table"),
                                        0});
      return {};
    case Mnemonic::wasm32_i32_wrap_i64:
      // An address passes: the module's addresses are below 2^32, and a block pointer's slot
      // holds one zero-extended.
      local(0) = i32(m_.gp(reg(1).index));
      return {};
    case Mnemonic::wasm32_block:
    case Mnemonic::wasm32_loop:
    case Mnemonic::wasm32_end:
      // The label a branch names is bound where the branch arrives (after the loop or the
      // block's end), which check_structure checks: the generic jump is the branch.
      return {};
    case Mnemonic::wasm32_br:
      return branch(true);
    case Mnemonic::wasm32_br_if:
      return branch(count_of(m_.gp(reg(1).index), "the local br_if tests") != 0);
    case Mnemonic::wasm32_br_if_eqz:
      return branch(count_of(m_.gp(reg(1).index), "the local br_if tests") == 0);
    case Mnemonic::wasm32_return:
      return {Control::ret};
    case Mnemonic::wasm32_v128_load: {
      VectorValue& d = vd();
      d[0] = load_data(access(1, 0));
      d[1] = load_data(access(1, 1));
      return {};
    }
    case Mnemonic::wasm32_v128_store: {
      const VectorValue& s = vs(0);
      m_.store(access(1, 0), Value::data(s[0]));
      m_.store(access(1, 1), Value::data(s[1]));
      return {};
    }
    case Mnemonic::wasm32_v128_load64_zero: {
      VectorValue& d = vd();
      d[0] = load_data(access(1));
      d[1] = constant_word(0);
      return {};
    }
    case Mnemonic::wasm32_v128_load64_lane: {
      if (imm(3) != 0 && imm(3) != 1) throw MachineError("a lane other than 0 or 1");
      const std::size_t lane = static_cast<std::size_t>(imm(3));
      const Word loaded = load_data(access(1));
      lanewise(2, [&](const Word& a, std::size_t l) { return l == lane ? loaded : a; });
      return {};
    }
    case Mnemonic::wasm32_v128_xor: {
      if (operand(1) == operand(2)) {  // the zero idiom
        lanewise(1, [](const Word&, std::size_t) { return constant_word(0); });
        return {};
      }
      const VectorValue b = vs(2);
      lanewise(1, [&](const Word& a, std::size_t l) { return a ^ b[l]; });
      return {};
    }
    case Mnemonic::wasm32_v128_and: {
      const VectorValue b = vs(2);
      lanewise(1, [&](const Word& a, std::size_t l) { return a & b[l]; });
      return {};
    }
    case Mnemonic::wasm32_v128_or: {
      const VectorValue b = vs(2);
      lanewise(1, [&](const Word& a, std::size_t l) { return a | b[l]; });
      return {};
    }
    case Mnemonic::wasm32_v128_andnot: {
      const VectorValue b = vs(2);
      lanewise(1, [&](const Word& a, std::size_t l) { return a & ~b[l]; });
      return {};
    }
    case Mnemonic::wasm32_i64x2_shl: {
      const int bits = amount(2);
      lanewise(1, [&](const Word& a, std::size_t) { return shift_left(a, bits); });
      return {};
    }
    case Mnemonic::wasm32_i64x2_shr_u: {
      const int bits = amount(2);
      lanewise(1, [&](const Word& a, std::size_t) { return shift_right(a, bits); });
      return {};
    }
    case Mnemonic::wasm32_v128_xor_splat_const: {
      const Word constant = constant_word(static_cast<std::uint64_t>(imm(2)));
      lanewise(1, [&](const Word& a, std::size_t) { return a ^ constant; });
      return {};
    }
// Every other ISA's rows: the cases of this table's rows are above.
#define SPONGEGEN_WASM32(...)
#define SPONGEGEN_MNEMONIC(isa, name) case Mnemonic::isa##_##name:
#include "isa/instructions.def"
#undef SPONGEGEN_MNEMONIC
#undef SPONGEGEN_WASM32
    break;
  }
  throw MachineError("not a wasm32 instruction");
}

}  // namespace

Control execute_wasm32(Machine& machine, const Instruction& instruction,
                       const LabelRegions& labels) {
  return Wasm32(machine, instruction, labels).run();
}

}  // namespace spongegen::prove
