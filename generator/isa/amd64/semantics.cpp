// What each amd64 mnemonic of isa/amd64/instructions.def does, on the symbolic machine.
// The switch names every mnemonic of the table, so a row added without its meaning here
// does not compile (-Wswitch, an error in every build).
#include <fmt/format.h>

#include "isa/amd64/amd64.hpp"
#include "isa/amd64/target_parts.hpp"
#include "prove/instruction_semantics.hpp"

namespace spongegen::prove {
namespace {

int vector_words(const Reg& reg) {
  return register_bytes(reg) / 8;
}

class Amd64 : public InstructionSemantics {
 public:
  using InstructionSemantics::InstructionSemantics;

  bool is_reg(std::size_t i) const { return std::holds_alternative<Reg>(operand(i)); }

  Pointer address(const Mem& mem) const {
    if (mem.addressing == Addressing::pc_relative) {
      return Pointer{table_region(mem.label, "a RIP-relative operand names no constant table"),
                     mem.disp};
    }
    if (mem.addressing == Addressing::go_argument) {
      if (labels_.go_arguments < 0)
        throw MachineError("an FP argument in an entry that is not Go's");
      return Pointer{labels_.go_arguments, mem.disp};
    }
    if (mem.addressing != Addressing::offset) throw MachineError("an addressing form amd64 lacks");
    Pointer base = address_of(m_.gp(mem.base.index), "the base register");
    base.offset += mem.disp;
    return base;
  }

  // A general-purpose register or a 64-bit memory operand, as one Value.
  Value read_scalar(std::size_t i) const {
    const Operand& op = operand(i);
    if (const auto* mem = std::get_if<Mem>(&op)) return m_.load(address(*mem));
    if (const auto* im = std::get_if<Imm>(&op))
      return Value::integer(static_cast<std::uint64_t>(im->value));
    const Reg& r = std::get<Reg>(op);
    Value value = m_.gp(r.index);
    if (r.cls == RegClass::gp32) return low_half(std::move(value), "a 32-bit view of an address");
    return value;
  }
  void write_scalar(std::size_t i, Value value) {
    const Operand& op = operand(i);
    if (const auto* mem = std::get_if<Mem>(&op)) {
      m_.store(address(*mem), std::move(value));
      return;
    }
    const Reg& r = std::get<Reg>(op);
    if (r.cls == RegClass::gp32) {
      value = low_half(std::move(value), "an address written to a 32-bit register");
    } else if (r.cls != RegClass::gp64) {
      throw MachineError("a scalar result written to a vector register");
    }
    m_.gp(r.index) = std::move(value);
  }
  Word read_data(std::size_t i) const {
    const Value value = read_scalar(i);
    if (value.is_address()) throw MachineError("an address used as data");
    if (value.block_count) throw MachineError("the block count used as data");
    return value.bits;
  }

  // The words of a vector source: pointers into the register, or words loaded from memory
  // and held here, so that reading a register copies nothing.
  struct VectorSource {
    std::vector<Word> loaded;
    std::vector<const Word*> words;
    const Word& operator[](std::size_t w) const { return *words[w]; }
  };
  VectorSource source_vector(std::size_t i, int words) const {
    VectorSource source;
    source.words.resize(static_cast<std::size_t>(words));
    if (const auto* mem = std::get_if<Mem>(&operand(i))) {
      Pointer at = address(*mem);
      source.loaded.resize(static_cast<std::size_t>(words));
      for (std::size_t w = 0; w < source.words.size(); ++w) {
        const Value value = m_.load(at);
        if (value.is_address()) throw MachineError("an address loaded into a vector register");
        source.loaded[w] = value.bits;
        source.words[w] = &source.loaded[w];
        at.offset += 8;
      }
      return source;
    }
    const VectorValue& v = m_.vector(reg(i).index);
    for (std::size_t w = 0; w < source.words.size(); ++w)
      source.words[w] = &v[w];
    return source;
  }
  std::vector<Word> read_vector(std::size_t i, int words) const {
    const VectorSource source = source_vector(i, words);
    std::vector<Word> out;
    for (const Word* word : source.words)
      out.push_back(*word);
    return out;
  }
  // A VEX or EVEX write: the words past the destination's size become zero.
  void write_vector(std::size_t i, std::vector<Word> words) {
    if (const auto* mem = std::get_if<Mem>(&operand(i))) {
      Pointer at = address(*mem);
      for (Word& word : words) {
        m_.store(at, Value::data(std::move(word)));
        at.offset += 8;
      }
      return;
    }
    VectorValue& v = m_.vector(reg(i).index);
    for (std::size_t w = 0; w < v.size(); ++w)
      v[w] = w < words.size() ? std::move(words[w]) : Word{};
  }

  template <class Op>
  void vector_binary(Op op) {
    const int words = vector_words(reg(0));
    const VectorSource a = source_vector(1, words), b = source_vector(2, words);
    std::vector<Word> out(static_cast<std::size_t>(words));
    for (std::size_t w = 0; w < out.size(); ++w)
      out[w] = op(a[w], b[w]);
    write_vector(0, std::move(out));
  }

  // add and sub with an immediate: address arithmetic, or arithmetic on known integers.
  void add_immediate(std::int64_t delta) {
    Value value = read_scalar(0);
    if (value.is_address()) {
      value.pointer->offset += delta;
      m_.zero_flag.reset();  // never compared: an address is not zero
    } else {
      const bool count = value.block_count;
      const std::uint64_t result =
          count_of(value, "an operand of add or sub") + static_cast<std::uint64_t>(delta);
      if (count && delta != -1) throw MachineError("the block count changed by other than -1");
      value = Value::integer(result);
      value.block_count = count;
      m_.zero_flag = result == 0;
    }
    write_scalar(0, std::move(value));
  }

  void logic_flags(const Word& result) {
    if (is_constant(result)) {
      m_.zero_flag = constant_value(result) == 0;
    } else {
      m_.zero_flag.reset();
    }
  }

  Control branch_if(bool zero) {
    if (!m_.zero_flag) throw MachineError("a branch on a flag that depends on the data");
    if (*m_.zero_flag == zero) return {Control::jump, std::get<LabelRef>(operand(0)).id};
    return {};
  }

  void push(Value value) {
    Pointer& sp = stack();
    sp.offset -= 8;
    m_.store(sp, std::move(value));
  }
  Value pop() {
    Pointer& sp = stack();
    Value value = m_.load(sp);
    sp.offset += 8;
    return value;
  }
  Pointer& stack() {
    Value& rsp = m_.gp(amd64::rsp.index);
    if (!rsp.pointer) throw MachineError("rsp holds no address");
    return *rsp.pointer;
  }

  Control run();
};

Control Amd64::run() {
  switch (instruction_.mnemonic) {
    case Mnemonic::amd64_add:
      add_immediate(imm(1));
      return {};
    case Mnemonic::amd64_sub:
      add_immediate(-imm(1));
      return {};
    case Mnemonic::amd64_cmp: {
      const Value a = read_scalar(0), b = read_scalar(1);
      if (a.is_address() && b.is_address()) {
        if (a.pointer->region != b.pointer->region)
          throw MachineError("cmp of two buffers' addresses");
        m_.zero_flag = a.pointer->offset == b.pointer->offset;
      } else if (a.block_count || b.block_count) {
        // The block count compared with zero: the loop's test, nothing else.
        const Value& other = a.block_count ? b : a;
        if (other.block_count || integer_of(other, "what the block count is compared with") != 0) {
          throw MachineError("the block count compared with something other than zero");
        }
        m_.zero_flag = count_of(a.block_count ? a : b, "the block count") == 0;
      } else {
        m_.zero_flag =
            integer_of(a, "cmp's first operand") == integer_of(b, "cmp's second operand");
      }
      return {};
    }
    case Mnemonic::amd64_and:
    case Mnemonic::amd64_or:
    case Mnemonic::amd64_xor: {
      if (instruction_.mnemonic == Mnemonic::amd64_xor && operand(0) == operand(1)) {
        // The zero idiom: zero whatever the register held, an address included.
        m_.zero_flag = true;
        write_scalar(0, Value::integer(0));
        return {};
      }
      const Word a = read_data(0), b = read_data(1);
      const Word result = instruction_.mnemonic == Mnemonic::amd64_and  ? a & b
                          : instruction_.mnemonic == Mnemonic::amd64_or ? a | b
                                                                        : a ^ b;
      logic_flags(result);
      write_scalar(0, Value::data(result));
      return {};
    }
    case Mnemonic::amd64_andn: {
      const Word result = ~read_data(1) & read_data(2);
      logic_flags(result);
      write_scalar(0, Value::data(result));
      return {};
    }
    case Mnemonic::amd64_not:
      write_scalar(0, Value::data(~read_data(0)));
      return {};
    case Mnemonic::amd64_rorx: {
      if (reg(0).cls != RegClass::gp64) throw MachineError("rorx of a 32-bit register");
      write_scalar(0, Value::data(rotate_left(read_data(1), static_cast<int>((64 - imm(2)) & 63))));
      return {};
    }
    case Mnemonic::amd64_mov:
      write_scalar(0, read_scalar(1));
      return {};
    case Mnemonic::amd64_lea:
      write_scalar(0, Value::address(address(std::get<Mem>(operand(1)))));
      return {};
    case Mnemonic::amd64_prefetcht0:  // a cache hint: no register or memory changes
      return {};
    case Mnemonic::amd64_push:
      push(read_scalar(0));
      return {};
    case Mnemonic::amd64_pop:
      write_scalar(0, pop());
      return {};
    case Mnemonic::amd64_call: {
      const auto* symbol = std::get_if<SymbolRef>(&operand(0));
      if (symbol == nullptr) throw MachineError("a call of a label");
      return {Control::call, kNoLabel, symbol->function};
    }
    case Mnemonic::amd64_ret:
      return {Control::ret};
    case Mnemonic::amd64_jmp:
      return {Control::jump, std::get<LabelRef>(operand(0)).id};
    case Mnemonic::amd64_je:
      return branch_if(true);
    case Mnemonic::amd64_jne:
      return branch_if(false);
    case Mnemonic::amd64_endbr64:
      return {};
    case Mnemonic::amd64_vmovdqu:
    case Mnemonic::amd64_vmovdqu64: {
      const int words = vector_words(is_reg(0) ? reg(0) : reg(1));
      write_vector(0, read_vector(1, words));
      return {};
    }
    case Mnemonic::amd64_vmovq:
      write_vector(0, {read_data(1)});
      return {};
    case Mnemonic::amd64_vpinsrq: {
      std::vector<Word> words = read_vector(1, 2);
      words[static_cast<std::size_t>(imm(3) & 1)] = read_data(2);
      write_vector(0, words);
      return {};
    }
    case Mnemonic::amd64_vinserti128:
    case Mnemonic::amd64_vinserti64x4: {
      const int part = instruction_.mnemonic == Mnemonic::amd64_vinserti128 ? 2 : 4;
      std::vector<Word> words = read_vector(1, vector_words(reg(0)));
      const std::vector<Word> inserted = read_vector(2, part);
      const std::size_t at = static_cast<std::size_t>((imm(3) & 1) * part);
      for (std::size_t w = 0; w < inserted.size(); ++w)
        words.at(at + w) = inserted[w];
      write_vector(0, words);
      return {};
    }
    case Mnemonic::amd64_vpunpcklqdq:
    case Mnemonic::amd64_vpunpckhqdq: {
      const int words = vector_words(reg(0));
      const std::size_t high = instruction_.mnemonic == Mnemonic::amd64_vpunpckhqdq ? 1 : 0;
      const std::vector<Word> a = read_vector(1, words), b = read_vector(2, words);
      std::vector<Word> v(static_cast<std::size_t>(words));
      for (std::size_t block = 0; 2 * block < v.size(); ++block) {
        v[2 * block] = a[2 * block + high];
        v[2 * block + 1] = b[2 * block + high];
      }
      write_vector(0, std::move(v));
      return {};
    }
    case Mnemonic::amd64_vshufi64x2: {
      const int words = vector_words(reg(0));
      if (words != 8) throw MachineError("vshufi64x2 of a vector narrower than zmm");
      const std::vector<Word> a = read_vector(1, words), b = read_vector(2, words);
      const auto selector = static_cast<std::uint64_t>(imm(3));
      std::vector<Word> v(8);
      for (std::size_t block = 0; block < 4; ++block) {
        const std::vector<Word>& from = block < 2 ? a : b;
        const std::size_t picked = (selector >> (2 * block)) & 3;
        v[2 * block] = from[2 * picked];
        v[2 * block + 1] = from[2 * picked + 1];
      }
      write_vector(0, std::move(v));
      return {};
    }
    case Mnemonic::amd64_vpxor:
    case Mnemonic::amd64_vpxorq:
      vector_binary([](const Word& a, const Word& b) { return a ^ b; });
      return {};
    case Mnemonic::amd64_vpor:
      vector_binary([](const Word& a, const Word& b) { return a | b; });
      return {};
    case Mnemonic::amd64_vpandn:
      vector_binary([](const Word& a, const Word& b) { return ~a & b; });
      return {};
    case Mnemonic::amd64_vpaddq:
      // Addition has carries, which the polynomials do not model, except where they vanish:
      // a + a is a shift by one, and known integers add as integers.
      vector_binary([](const Word& a, const Word& b) {
        if (a == b) return shift_left(a, 1);
        if (is_constant(a) && is_constant(b))
          return constant_word(constant_value(a) + constant_value(b));
        throw MachineError("vpaddq of two different values that depend on the data");
      });
      return {};
    case Mnemonic::amd64_vpsllq:
    case Mnemonic::amd64_vpsrlq: {
      const int words = vector_words(reg(0));
      std::vector<Word> v = read_vector(1, words);
      const int bits = static_cast<int>(imm(2));
      for (Word& word : v)
        word = bits >= 64                                        ? Word{}
               : instruction_.mnemonic == Mnemonic::amd64_vpsllq ? shift_left(word, bits)
                                                                 : shift_right(word, bits);
      write_vector(0, v);
      return {};
    }
    case Mnemonic::amd64_vprolq: {
      const int words = vector_words(reg(0));
      const VectorSource source = source_vector(1, words);
      std::vector<Word> v(static_cast<std::size_t>(words));
      for (std::size_t w = 0; w < v.size(); ++w)
        v[w] = rotate_left(source[w], static_cast<int>(imm(2) & 63));
      write_vector(0, std::move(v));
      return {};
    }
    case Mnemonic::amd64_vpternlogq: {
      const int words = vector_words(reg(0));
      const VectorSource a = source_vector(0, words), b = source_vector(1, words),
                         c = source_vector(2, words);
      std::vector<Word> out(static_cast<std::size_t>(words));
      for (std::size_t w = 0; w < out.size(); ++w)
        out[w] = ternary_logic(static_cast<std::uint8_t>(imm(3)), a[w], b[w], c[w]);
      write_vector(0, std::move(out));
      return {};
    }
    case Mnemonic::amd64_vpshufb: {
      // Within each 16-byte half of the register, byte j takes the source byte the control
      // byte j names, or zero when its top bit is set. The controls are a constant table.
      const int words = vector_words(reg(0));
      const std::vector<Word> source = read_vector(1, words), control = read_vector(2, words);
      std::vector<Word> out(source.size());
      for (std::size_t byte = 0; byte < source.size() * 8; ++byte) {
        const Word& control_word = control[byte / 8];
        std::uint64_t selector = 0;
        for (std::size_t bit = 0; bit < 8; ++bit) {
          const Poly& p = control_word[8 * (byte % 8) + bit];
          if (!p.is_constant()) throw MachineError("a vpshufb control that depends on the data");
          if (p.constant_value()) selector |= std::uint64_t{1} << bit;
        }
        if (selector & 0x80) continue;
        const std::size_t from = (byte / 16) * 16 + (selector & 15);
        for (std::size_t bit = 0; bit < 8; ++bit)
          out[byte / 8][8 * (byte % 8) + bit] = source[from / 8][8 * (from % 8) + bit];
      }
      write_vector(0, out);
      return {};
    }
    case Mnemonic::amd64_vzeroall:
      for (int v = 0; v < 16; ++v)
        m_.vector(v) = VectorValue{};
      return {};
// Every other ISA's rows: the cases of this table's rows are above.
#define SPONGEGEN_AMD64(...)
#define SPONGEGEN_MNEMONIC(isa, name) case Mnemonic::isa##_##name:
#include "isa/instructions.def"
#undef SPONGEGEN_MNEMONIC
#undef SPONGEGEN_AMD64
      break;
  }
  throw MachineError("not an amd64 instruction");
}

}  // namespace

Control execute_amd64(Machine& machine, const Instruction& instruction,
                      const LabelRegions& labels) {
  return Amd64(machine, instruction, labels).run();
}

}  // namespace spongegen::prove
