// The wasm32 Target: WebAssembly 2.0 functions over locals, with the fixed-width SIMD rows
// where a kernel declares simd128, as the generic passes ask it (isa/target.hpp). What a
// native ISA has and WebAssembly lacks (a stack the code can reach, callee-saved registers,
// an assembler's syntax, a Go port) is answered here as data.
#include <fmt/format.h>

#include "audit/audit.hpp"
#include "audit/semantics.hpp"
#include "isa/wasm32/target_parts.hpp"
#include "isa/wasm32/wasm32.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::wasm32 {
namespace {

// No asmjit ids: the encoder is ours.
#define SPONGEGEN_WASM32(name, text, cls, feature, behaviour, ...) \
  SPONGEGEN_TABLE_ROW(wasm32, name, text, cls, feature, 0, 0, behaviour, __VA_ARGS__)
const std::vector<InstructionSpec> kTable = {
#include "isa/wasm32/instructions.def"
};
#undef SPONGEGEN_WASM32

using audit::RegisterLocation;

[[noreturn]] void no_gas() {
  throw GenerationError("wasm32 has no GNU assembler syntax: its text is the .wat (write_wat)");
}
[[noreturn]] void no_go() {
  throw GenerationError("wasm32 kernels have no Go entries");
}

class Wasm32Target final : public Target {
 public:
  Isa isa() const override { return Isa::wasm32; }
  std::string_view name() const override { return "wasm32"; }
  std::string_view rust_arch() const override { return "wasm32"; }
  std::string_view go_arch() const override { return "wasm"; }
  std::string_view gnu_triple() const override { return "wasm32-unknown-unknown"; }
  std::string_view mca_attributes() const override { return ""; }
  // llvm-mca has no model of a WebAssembly engine's code.
  std::vector<std::string> default_mca_cpus() const override { return {}; }
  // The generator runs no WebAssembly engine: the package's tests run every entry.
  bool runs_on_host() const override { return false; }

  std::span<const InstructionSpec> instructions() const override { return kTable; }

  std::string register_name(const Reg& reg) const override { return wasm32::register_name(reg); }
  std::optional<Reg> parse_register(std::string_view name) const override {
    return wasm32::parse_register(name);
  }
  // The prover's stack pointer, which no row may name: a call's return address lies where
  // no WebAssembly operation reaches it.
  Reg stack_pointer() const override { return kStackPointer; }
  std::optional<Reg> link_register() const override { return std::nullopt; }
  // The return address the prover parks on its simulated stack.
  int call_pushes_bytes() const override { return 8; }
  // The register file's index is the local's: i32 or i64.
  std::string gp_name(int index) const override { return fmt::format("local {}", index); }
  std::string vector_name(int index) const override { return wasm32::register_name(v(index)); }

  Reg argument_register(int index) const override { return parameter(index); }
  int argument_gp(int index, bool) const override { return index; }
  // Locals die with the call: a function's caller sees none of them, so none is the
  // caller's and none can leave a secret behind.
  bool is_callee_saved(const RegisterLocation&) const override { return false; }
  bool is_caller_saved(const RegisterLocation&, bool) const override { return false; }
  bool preserves_vector_low_half(int) const override { return false; }
  PreservedRegisters preserved_registers(bool, bool) const override { return {}; }
  std::vector<Reg> public_at_entry() const override { return {}; }
  bool is_stack_base(const Mem& mem) const override { return mem.base == kStackPointer; }
  std::string_view c_abi_name() const override { return "the WebAssembly C ABI"; }
  std::string_view branch_verb() const override { return "branches"; }
  std::vector<std::string> go_prologue_lines(int) const override { no_go(); }
  std::vector<std::string> go_abi0_saves_lines() const override { no_go(); }
  int go_prologue_saved_bytes() const override { no_go(); }
  bool has_win64_entries() const override { return false; }

  // For messages (writers::format_instruction): the operands as the rows' comments write them.
  std::string gas_operand(const Program& program, const Operand& operand) const override {
    if (const Reg* r = std::get_if<Reg>(&operand)) return wasm32::register_name(*r);
    if (const Imm* imm = std::get_if<Imm>(&operand)) return fmt::format("{}", imm->value);
    if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
      return "$" + program.label_names.at(label->id);
    }
    if (const Mem* mem = std::get_if<Mem>(&operand)) {
      return fmt::format("[{} + {}]", wasm32::register_name(mem->base), mem->disp);
    }
    throw GenerationError("operand kind not available on wasm32");
  }
  // A module's first line: what tells a .wat from every ISA's .S.
  std::vector<std::string_view> gas_syntax_lines() const override { return {"(module"}; }
  std::string gas_arch_line(std::string_view) const override { no_gas(); }
  std::vector<Operand> read_operands(const std::vector<std::string>&,
                                     OperandReader&) const override {
    no_gas();
  }
  std::string go_instruction(const Program&, const Function&, const Instruction&) const override {
    no_go();
  }

  std::string write_text(const Program& program) const override { return write_wat(program); }
  Program read_text(std::string_view text, const std::string& kernel_name) const override {
    Program program = read_wat(text, kernel_name);
    program.isa = Isa::wasm32;
    return program;
  }
  std::optional<BinaryFile> binary_file(const writers::EncodedProgram& encoded) const override {
    return BinaryFile{".wasm", std::string(encoded.code.begin(), encoded.code.end())};
  }
  // The package's JavaScript loads the module; the C runtime links none of it.
  bool links_into_runtime() const override { return false; }
  bool shares_registers_with_caller() const override { return false; }

  writers::EncodedProgram encode(const Program& program) const override {
    return wasm32::encode(program);
  }
  // The module is exactly what the encoder writes: no padding.
  std::size_t filler_length(const std::string&, std::size_t, std::size_t) const override {
    return 0;
  }

  // Assumed (no engine's figures are modelled): a load of 4 cycles, the scalar and SIMD
  // operations of 1, as a JIT maps them to a current core's.
  audit::LatencyModel latency_model() const override { return {4, 1, 1}; }

  bool is_epilogue_instruction(const Instruction& instruction) const override {
    return instruction_spec(instruction.mnemonic).has(kReturn);
  }
  // Nothing is the caller's to clear (is_caller_saved): no local outlives the call.
  std::vector<Instruction> clearing(const std::set<RegisterLocation>& registers) const override {
    if (!registers.empty()) throw GenerationError("wasm32 locals need no clearing");
    return {};
  }

  prove::Control execute(prove::Machine& machine, const Instruction& instruction,
                         const prove::LabelRegions& labels) const override {
    return prove::execute_wasm32(machine, instruction, labels);
  }
  prove::Value& stack_pointer_value(prove::Machine& machine) const override {
    return machine.stack_pointer();
  }
};

}  // namespace

const Target& isa_target() {
  static const Wasm32Target kTarget;
  return kTarget;
}

}  // namespace spongegen::wasm32
