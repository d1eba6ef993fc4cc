// The amd64 Target: x86-64 with System V (and Windows x64 entries), as the generic passes
// ask it (isa/target.hpp).
#include <asmjit/x86.h>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "audit/audit.hpp"
#include "audit/semantics.hpp"
#include "isa/amd64/amd64.hpp"
#include "isa/amd64/target_parts.hpp"
#include "kernels/go_entries.hpp"

namespace spongegen::amd64 {
namespace {

#define SPONGEGEN_AMD64(name, text, cls, feature, id, behaviour, ...)              \
  SPONGEGEN_TABLE_ROW(amd64, name, text, cls, feature, asmjit::x86::Inst::kId##id, \
                      asmjit::x86::Inst::kId##id, behaviour, __VA_ARGS__)
const std::vector<InstructionSpec> kTable = {
#include "isa/amd64/instructions.def"
};
#undef SPONGEGEN_AMD64

using audit::RegisterFile;
using audit::RegisterLocation;

class Amd64Target final : public Target {
 public:
  Isa isa() const override { return Isa::amd64; }
  std::string_view name() const override { return "amd64"; }
  std::string_view rust_arch() const override { return "x86_64"; }
  std::string_view go_arch() const override { return "amd64"; }
  std::string_view gnu_triple() const override { return "x86_64-linux-gnu"; }
  std::string_view mca_attributes() const override { return ""; }
  std::vector<std::string> default_mca_cpus() const override {
    return {"znver2", "znver3", "icelake-server", "sapphirerapids", "alderlake"};
  }
  bool runs_on_host() const override {
#if defined(__x86_64__)
    return true;
#else
    return false;
#endif
  }

  std::span<const InstructionSpec> instructions() const override {
    return kTable;
  }

  std::string register_name(const Reg& reg) const override {
    return amd64::register_name(reg);
  }
  std::optional<Reg> parse_register(std::string_view name) const override {
    return amd64::parse_register(name);
  }
  Reg stack_pointer() const override {
    return rsp;
  }
  std::optional<Reg> link_register() const override {
    return std::nullopt;
  }
  int call_pushes_bytes() const override {
    return 8;
  }
  std::string gp_name(int index) const override {
    return amd64::register_name(Reg{RegClass::gp64, static_cast<std::uint8_t>(index)});
  }
  std::string vector_name(int index) const override {
    return amd64::register_name(xmm(index));
  }

  Reg argument_register(int index) const override {
    return sysv_argument(index);
  }
  int argument_gp(int index, bool win64) const override {
    static constexpr int kSysv[] = {7, 6, 2, 1, 8, 9};  // rdi, rsi, rdx, rcx, r8, r9
    static constexpr int kWin64[] = {1, 2, 8, 9};       // rcx, rdx, r8, r9
    return win64 ? kWin64[index] : kSysv[index];
  }
  bool is_callee_saved(const RegisterLocation& reg) const override {
    if (reg.file != RegisterFile::gp) return false;  // System V saves no vector register
    const Reg gp{RegClass::gp64, reg.index};
    return gp != rsp && is_callee_saved_sysv(gp);
  }
  bool is_caller_saved(const RegisterLocation& reg, bool go_abi0) const override {
    switch (reg.file) {
      case RegisterFile::gp:
        if (go_abi0) return reg.index != 4 && reg.index != 5 && reg.index != 14;
        // rbx (3), rsp (4), rbp (5) and r12-r15 are the caller's.
        return reg.index != 3 && reg.index != 4 && reg.index != 5 && reg.index < 12;
      case RegisterFile::vector:
        return true;
      default:
        return false;
    }
  }
  bool preserves_vector_low_half(int) const override {
    return false;
  }
  PreservedRegisters preserved_registers(bool go_abi0, bool win64) const override {
    // ABI0 preserves no register for its caller (X15 and R14 are restored by Go's internal
    // ABI after the call); the Go writer keeps R14, which the prologue's check loads with g.
    if (go_abi0) return {{14}, {}, 0};
    PreservedRegisters preserved{{3, 5, 12, 13, 14, 15}, {}, 0};
    if (win64) {
      preserved.gp.insert(preserved.gp.end(), {6, 7});
      preserved.vectors = {6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
      preserved.vector_words = 2;
    }
    return preserved;
  }
  std::vector<Reg> public_at_entry() const override {
    return {rsp};
  }
  bool is_stack_base(const Mem& mem) const override {
    return mem.base == rsp && mem.addressing != Addressing::pc_relative;
  }
  int go_prologue_saved_bytes() const override {
    return 8;
  }
  std::string_view c_abi_name() const override {
    return "System V";
  }
  std::string_view branch_verb() const override {
    return "jumps";
  }
  std::vector<std::string> go_prologue_lines(int frame_bytes) const override {
    return {
        "The toolchain's prologue allocates it (and saves BP);",
        fmt::format(
            "With the saved BP the frame is {} bytes, so the check (Go 1.19, seen with go tool",
            frame_bytes + 8),
        fmt::format("objdump) is MOVQ FS:-8, R14 (ABI0 code loads g itself); LEAQ -{}(SP), R12;",
                    frame_bytes + 8 - kernels::kGoSmallestCheckedFrame),
        "CMPQ 16(R14), R12; JBE to runtime.morestack: the prologue, not this code, writes R14.",
    };
  }
  std::vector<std::string> go_abi0_saves_lines() const override {
    return {"ABI0 saves no register: no pushes, no CFI, no endbr64 (Go binaries carry no IBT), no",
            "alignment directives (TEXT symbols are 32-byte aligned)."};
  }
  bool has_win64_entries() const override {
    return true;
  }

  std::string gas_operand(const Program& program, const Operand& operand) const override {
    return amd64::gas_operand(program, operand);
  }
  std::string_view gas_syntax_line() const override {
    return ".intel_syntax noprefix";
  }
  std::vector<Operand> read_operands(const std::vector<std::string>& texts,
                                     OperandReader& reader) const override {
    return amd64::read_operands(texts, reader);
  }
  std::string go_instruction(const Program& program, const Function& function,
                             const Instruction& instruction) const override {
    return amd64::go_instruction(program, function, instruction);
  }

  writers::EncodedProgram encode(const Program& program) const override {
    return amd64::encode(program);
  }
  // 90, or 0f 1f with a zero SIB and displacement, after 0x66 prefixes and at most one cs
  // prefix: the no-ops GNU as and LLVM pad with.
  std::size_t filler_length(const std::string& bytes, std::size_t at,
                            std::size_t end) const override {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    std::size_t i = at;
    while (i < end && byte(i) == 0x66)
      ++i;
    if (i < end && byte(i) == 0x2e) ++i;
    if (i < end && byte(i) == 0x90) return i + 1 - at;
    if (end - i < 3 || byte(i) != 0x0f || byte(i + 1) != 0x1f) return 0;
    // The ModRM bytes of the 0f 1f no-ops, and how many zero bytes (SIB, displacement) follow.
    constexpr std::pair<unsigned char, std::size_t> kNopOperands[] = {
        {0x00, 0},  // [rax]
        {0x40, 1},  // [rax + disp8]
        {0x44, 2},  // [rax + rax + disp8]
        {0x80, 4},  // [rax + disp32]
        {0x84, 5},  // [rax + rax + disp32]
    };
    const auto* form = std::find_if(std::begin(kNopOperands), std::end(kNopOperands),
                                    [&](const auto& nop) { return nop.first == byte(i + 2); });
    if (form == std::end(kNopOperands)) return 0;
    const std::size_t operand_bytes = form->second;
    if (end - (i + 3) < operand_bytes) return 0;
    for (std::size_t k = i + 3; k < i + 3 + operand_bytes; ++k) {
      if (byte(k) != 0) return 0;
    }
    return i + 3 + operand_bytes - at;
  }

  audit::LatencyModel latency_model() const override {
    return {5, 1, 1};
  }

  bool is_epilogue_instruction(const Instruction& instruction) const override {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    if (spec.has(kReturn) || spec.has(kPop)) return true;
    return instruction.mnemonic == Mnemonic::amd64_add && !instruction.operands.empty() &&
           instruction.operands[0] == Operand{rsp};
  }
  std::vector<Instruction> clearing(const std::set<RegisterLocation>& registers) const override {
    std::vector<Instruction> out;
    bool low_vectors = false;
    for (const RegisterLocation& reg : registers) {
      if (reg.file == RegisterFile::gp) {
        const Reg r32 = gp32(Reg{RegClass::gp64, reg.index});
        out.push_back({Mnemonic::amd64_xor, {r32, r32}, {}});
      } else if (reg.index < 16) {
        low_vectors = true;
      } else {
        const Reg z = zmm(reg.index);
        out.push_back({Mnemonic::amd64_vpxorq, {z, z, z}, {}});
      }
    }
    if (low_vectors) out.push_back({Mnemonic::amd64_vzeroall, {}, {}});
    return out;
  }

  prove::Control execute(prove::Machine& machine, const Instruction& instruction,
                         const prove::LabelRegions& labels) const override {
    return prove::execute_amd64(machine, instruction, labels);
  }
  prove::Value& stack_pointer_value(prove::Machine& machine) const override {
    return machine.gp(rsp.index);
  }
};

}  // namespace

const Target& isa_target() {
  static const Amd64Target kTarget;
  return kTarget;
}

}  // namespace spongegen::amd64
