// The riscv64 Target: RV64I with the Zbb extension where a kernel declares it, and the LP64
// calling convention, as the generic passes ask it (isa/target.hpp).
#include <fmt/format.h>

#include "audit/audit.hpp"
#include "audit/semantics.hpp"
#include "isa/riscv64/riscv64.hpp"
#include "isa/riscv64/target_parts.hpp"

namespace spongegen::riscv64 {
namespace {

// No asmjit ids: the encoder is ours.
#define SPONGEGEN_RISCV64(name, text, cls, feature, behaviour, ...) \
  SPONGEGEN_TABLE_ROW(riscv64, name, text, cls, feature, 0, 0, behaviour, __VA_ARGS__)
const std::vector<InstructionSpec> kTable = {
#include "isa/riscv64/instructions.def"
};
#undef SPONGEGEN_RISCV64

using audit::RegisterFile;
using audit::RegisterLocation;

class Riscv64Target final : public Target {
 public:
  Isa isa() const override { return Isa::riscv64; }
  std::string_view name() const override { return "riscv64"; }
  std::string_view rust_arch() const override { return "riscv64"; }
  std::string_view go_arch() const override { return "riscv64"; }
  std::string_view gnu_triple() const override { return "riscv64-linux-gnu"; }
  std::string_view mca_attributes() const override { return "-mattr=+zbb"; }
  std::vector<std::string> default_mca_cpus() const override { return {"sifive-u74"}; }
  bool runs_on_host() const override {
#if defined(__riscv) && __riscv_xlen == 64
    return true;
#else
    return false;
#endif
  }

  std::span<const InstructionSpec> instructions() const override {
    return kTable;
  }

  std::string register_name(const Reg& reg) const override {
    return riscv64::register_name(reg);
  }
  std::optional<Reg> parse_register(std::string_view name) const override {
    return riscv64::parse_register(name);
  }
  Reg stack_pointer() const override {
    return sp;
  }
  std::optional<Reg> link_register() const override {
    return ra;
  }
  int call_pushes_bytes() const override {
    return 0;
  }
  std::string gp_name(int index) const override {
    return riscv64::register_name(x(index));
  }
  std::string vector_name(int index) const override {
    return fmt::format("v{}", index);
  }

  Reg argument_register(int index) const override {
    return lp64_argument(index);
  }
  int argument_gp(int index, bool) const override {
    return lp64_argument(index).index;
  }
  bool is_callee_saved(const RegisterLocation& reg) const override {
    // ra holds the return address: the caller's, as on arm64 x30; gp and tp are the
    // program's.
    if (reg.file != RegisterFile::gp) return false;
    const Reg r = x(reg.index);
    return (riscv64::is_callee_saved(r) && r != sp) || r == ra || is_reserved(r);
  }
  bool is_caller_saved(const RegisterLocation& reg, bool) const override {
    if (reg.file != RegisterFile::gp) return false;
    const Reg r = x(reg.index);
    return r != zero && r != ra && !riscv64::is_callee_saved(r) && !is_reserved(r);
  }
  bool preserves_vector_low_half(int) const override {
    return false;
  }
  PreservedRegisters preserved_registers(bool, bool) const override {
    // s0-s11, and gp and tp, which belong to the program; ra is checked at the return.
    return {{3, 4, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}, {}, 0};
  }
  // zero too: it reads as 0 whatever is written to it.
  std::vector<Reg> public_at_entry() const override {
    return {zero, ra, sp};
  }
  bool is_stack_base(const Mem& mem) const override {
    return mem.base == sp;
  }
  std::string_view c_abi_name() const override {
    return "LP64";
  }
  std::string_view branch_verb() const override {
    return "jumps";
  }
  std::vector<std::string> go_prologue_lines(int) const override {
    throw GenerationError("riscv64 kernels have no Go entries");
  }
  std::vector<std::string> go_abi0_saves_lines() const override {
    throw GenerationError("riscv64 kernels have no Go entries");
  }
  int go_prologue_saved_bytes() const override {
    throw GenerationError("riscv64 kernels have no Go entries");
  }
  bool has_win64_entries() const override {
    return false;
  }

  std::string gas_operand(const Program& program, const Operand& operand) const override {
    return riscv64::gas_operand(program, operand);
  }
  // No compressed instructions (every instruction is the 4-byte word the encoder writes)
  // and no linker relaxation (every branch offset is final in the object).
  std::vector<std::string_view> gas_syntax_lines() const override {
    return {".option norvc", ".option norelax"};
  }
  std::string gas_arch_line(std::string_view extensions) const override {
    return ".option arch, " + std::string(extensions);
  }
  std::vector<Operand> read_operands(const std::vector<std::string>& texts,
                                     OperandReader& reader) const override {
    return riscv64::read_operands(texts, reader);
  }
  std::string go_instruction(const Program&, const Function&, const Instruction&) const override {
    throw GenerationError("riscv64 kernels have no Go entries");
  }

  writers::EncodedProgram encode(const Program& program) const override {
    return riscv64::encode(program);
  }
  bool assembler_pads_section_end() const override {
    return true;
  }
  // The nop word (addi zero, zero, 0), which GNU as pads code with.
  std::size_t filler_length(const std::string& bytes, std::size_t at,
                            std::size_t end) const override {
    return end - at >= 4 && bytes.compare(at, 4, std::string("\x13\x00\x00\x00", 4)) == 0 ? 4 : 0;
  }

  audit::LatencyModel latency_model() const override {
    return {3, 1, 1};
  }

  bool is_epilogue_instruction(const Instruction& instruction) const override {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (spec.has(kReturn)) return true;
    if (instruction.mnemonic == Mnemonic::riscv64_addi) {
      return instruction.operands.at(0) == Operand{sp};
    }
    if (instruction.mnemonic == Mnemonic::riscv64_ld) {
      return std::get<Mem>(instruction.operands.at(1)).base == sp;
    }
    return false;
  }
  std::vector<Instruction> clearing(const std::set<RegisterLocation>& registers) const override {
    std::vector<Instruction> out;
    for (const RegisterLocation& reg : registers) {
      const Reg r = x(reg.index);
      out.push_back({Mnemonic::riscv64_xor, {r, r, r}, {}});
    }
    return out;
  }

  prove::Control execute(prove::Machine& machine, const Instruction& instruction,
                         const prove::LabelRegions& labels) const override {
    return prove::execute_riscv64(machine, instruction, labels);
  }
  prove::Value& stack_pointer_value(prove::Machine& machine) const override {
    return machine.gp(sp.index);
  }
};

}  // namespace

const Target& isa_target() {
  static const Riscv64Target kTarget;
  return kTarget;
}

}  // namespace spongegen::riscv64
