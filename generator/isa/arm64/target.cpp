// The arm64 Target: AArch64 with AAPCS64, as the generic passes ask it (isa/target.hpp).
#include <asmjit/arm/a64assembler.h>
#include <asmjit/asmjit.h>
#include <fmt/format.h>

#include "audit/audit.hpp"
#include "audit/semantics.hpp"
#include "isa/arm64/arm64.hpp"
#include "isa/arm64/target_parts.hpp"
#include "kernels/go_entries.hpp"

namespace spongegen::arm64 {
namespace {

#define SPONGEGEN_ARM64(name, text, cls, feature, id, simd_id, behaviour, ...)     \
  SPONGEGEN_TABLE_ROW(arm64, name, text, cls, feature, asmjit::a64::Inst::kId##id, \
                      asmjit::a64::Inst::kId##simd_id, behaviour, __VA_ARGS__)
const std::vector<InstructionSpec> kTable = {
#include "isa/arm64/instructions.def"
};
#undef SPONGEGEN_ARM64

using audit::RegisterFile;
using audit::RegisterLocation;

class Arm64Target final : public Target {
 public:
  Isa isa() const override { return Isa::arm64; }
  std::string_view name() const override { return "arm64"; }
  std::string_view rust_arch() const override { return "aarch64"; }
  std::string_view go_arch() const override { return "arm64"; }
  std::string_view gnu_triple() const override { return "aarch64-linux-gnu"; }
  std::string_view mca_attributes() const override { return "-mattr=+sha3"; }
  std::vector<std::string> default_mca_cpus() const override {
    return {"cortex-a72", "neoverse-n1", "neoverse-v1", "neoverse-n2", "cortex-x2", "apple-m1"};
  }
  bool runs_on_host() const override {
#if defined(__aarch64__)
    return true;
#else
    return false;
#endif
  }

  std::span<const InstructionSpec> instructions() const override {
    return kTable;
  }

  std::string register_name(const Reg& reg) const override {
    return arm64::register_name(reg);
  }
  std::optional<Reg> parse_register(std::string_view name) const override {
    return arm64::parse_register(name);
  }
  Reg stack_pointer() const override {
    return sp;
  }
  std::optional<Reg> link_register() const override {
    return x(30);
  }
  int call_pushes_bytes() const override {
    return 0;
  }
  std::string gp_name(int index) const override {
    return fmt::format("x{}", index);
  }
  std::string vector_name(int index) const override {
    return fmt::format("v{}", index);
  }

  Reg argument_register(int index) const override {
    return aapcs64_argument(index);
  }
  int argument_gp(int index, bool) const override {
    return index;
  }
  bool is_callee_saved(const RegisterLocation& reg) const override {
    switch (reg.file) {
      case RegisterFile::gp:
        return reg.index >= 19 && reg.index <= 30;
      case RegisterFile::vector:
        // AAPCS64 saves the low halves of v8-v15.
        return reg.index >= 8 && reg.index <= 15;
      default:
        return false;
    }
  }
  bool is_caller_saved(const RegisterLocation& reg, bool go_abi0) const override {
    switch (reg.file) {
      case RegisterFile::gp:
        // Go: all but R18 (the platform's), R27 (the assembler's), g, FP and LR.
        if (go_abi0) return reg.index <= 26 && reg.index != 18;
        return reg.index <= 18;
      case RegisterFile::vector:
        return true;
      default:
        return false;
    }
  }
  bool preserves_vector_low_half(int index) const override {
    return index >= 8 && index <= 15;
  }
  PreservedRegisters preserved_registers(bool go_abi0, bool) const override {
    // Go: the registers the Go writer refuses to write: R18 (the platform's), R28 (g), R29
    // (the frame pointer the epilogue restores); R30 is checked at the return.
    if (go_abi0) return {{18, 28, 29}, {}, 0};
    PreservedRegisters preserved{{}, {8, 9, 10, 11, 12, 13, 14, 15}, 1};
    for (int r = 19; r <= 29; ++r)
      preserved.gp.push_back(r);
    return preserved;
  }
  std::vector<Reg> public_at_entry() const override {
    return {x(30), sp};
  }
  bool is_stack_base(const Mem& mem) const override {
    return mem.base.cls == RegClass::sp;
  }
  int go_prologue_saved_bytes() const override {
    return 16;
  }
  std::string_view c_abi_name() const override {
    return "AAPCS64";
  }
  std::string_view branch_verb() const override {
    return "branches";
  }
  std::vector<std::string> go_prologue_lines(int frame_bytes) const override {
    return {
        fmt::format("The toolchain's prologue allocates it with the saved LR "
                    "(MOVD.W R30, -{}(RSP)) and FP;",
                    frame_bytes + 16),
        fmt::format(
            "The check (Go 1.19, seen with go tool objdump) is MOVD 16(R28), R16; SUB ${}, RSP,",
            frame_bytes + 16 - kernels::kGoSmallestCheckedFrame),
        "R17; CMP R16, R17; BLS to runtime.morestack. A leaf's epilogue does not reload LR, so",
        "this code never writes R30.",
    };
  }
  std::vector<std::string> go_abi0_saves_lines() const override {
    return {"ABI0 saves no register: no saves of d8-d15, no CFI, no BTI landing pad (Go binaries",
            "are not BTI-marked)."};
  }
  bool has_win64_entries() const override {
    return false;
  }

  std::string gas_operand(const Program& program, const Operand& operand) const override {
    return arm64::gas_operand(program, operand);
  }
  std::string_view gas_syntax_line() const override {
    return "";
  }
  std::vector<Operand> read_operands(const std::vector<std::string>& texts,
                                     OperandReader& reader) const override {
    return arm64::read_operands(texts, reader);
  }
  std::string go_instruction(const Program& program, const Function& function,
                             const Instruction& instruction) const override {
    return arm64::go_instruction(program, function, instruction);
  }

  writers::EncodedProgram encode(const Program& program) const override {
    return arm64::encode(program);
  }
  // The NOP word, which assemblers pad code with.
  std::size_t filler_length(const std::string& bytes, std::size_t at,
                            std::size_t end) const override {
    return end - at >= 4 && bytes.compare(at, 4, "\x1f\x20\x03\xd5") == 0 ? 4 : 0;
  }

  audit::LatencyModel latency_model() const override {
    return {5, 1, 2};
  }

  bool is_epilogue_instruction(const Instruction& instruction) const override {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (spec.has(kReturn)) return true;
    if (instruction.mnemonic == Mnemonic::arm64_hint) {
      return instruction.operands.at(0) == Operand{Imm{29}};  // autiasp
    }
    if (instruction.mnemonic == Mnemonic::arm64_add) {
      return instruction.operands.at(0) == Operand{sp};
    }
    if (instruction.mnemonic == Mnemonic::arm64_ldp ||
        instruction.mnemonic == Mnemonic::arm64_ldr) {
      const Mem* mem = std::get_if<Mem>(&instruction.operands.back());
      return mem != nullptr && mem->base.cls == RegClass::sp;
    }
    return false;
  }
  std::vector<Instruction> clearing(const std::set<RegisterLocation>& registers) const override {
    std::vector<Instruction> out;
    for (const RegisterLocation& reg : registers) {
      const Reg r = reg.file == RegisterFile::gp ? x(reg.index) : v16b(reg.index);
      out.push_back({Mnemonic::arm64_eor, {r, r, r}, {}});
    }
    return out;
  }

  prove::Control execute(prove::Machine& machine, const Instruction& instruction,
                         const prove::LabelRegions& labels) const override {
    return prove::execute_arm64(machine, instruction, labels);
  }
  prove::Value& stack_pointer_value(prove::Machine& machine) const override {
    return machine.stack_pointer();
  }
};

}  // namespace

const Target& isa_target() {
  static const Arm64Target kTarget;
  return kTarget;
}

}  // namespace spongegen::arm64
