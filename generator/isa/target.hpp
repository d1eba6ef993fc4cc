// One instruction set as the generic passes see it.
//
// Everything the generator knows about an ISA lives in its folder, isa/<name>/: the
// instruction table (instructions.def), the registers and typed emitter the builders use
// (<name>.hpp), the prover's semantics of every row (semantics.cpp), and the Target below
// (target.cpp), which answers what the writers, the reader, the encoder, the audit, the
// register clearing and the prover ask: how an operand prints, which registers an ABI
// preserves, where the return address lives. The passes ask `target(isa)` and never branch
// on an ISA themselves, so a new ISA is one folder, one line in isa/isas.def and one in
// isa/instructions.def.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "program/instruction_table.hpp"
#include "program/program.hpp"

namespace spongegen {

namespace audit {
struct RegisterLocation;
struct LatencyModel;
}  // namespace audit

namespace prove {
class Machine;
struct Value;
struct LabelRegions;
struct Control;
}  // namespace prove

namespace writers {
struct EncodedProgram;
}

// What the prover checks an entry preserves for its caller under one ABI: general-purpose
// registers by number, and the first `vector_words` 64-bit words of each listed vector
// register.
struct PreservedRegisters {
  std::vector<int> gp;
  std::vector<int> vectors;
  int vector_words = 0;
};

// The reader's side of one instruction's operands: what the ISA's operand syntax needs from
// the file being read (its labels, the functions it defines).
class OperandReader {
 public:
  virtual ~OperandReader() = default;
  virtual LabelId label(const std::string& name) = 0;
  // LOCAL(name) and SYMBOL(name) operands, which every ISA prints the same way; nothing for
  // any other text.
  virtual std::optional<Operand> macro_operand(const std::string& text) = 0;
};

class Target {
 public:
  virtual ~Target() = default;

  virtual Isa isa() const = 0;
  // "amd64": file names, messages, the C header's table names.
  virtual std::string_view name() const = 0;
  // The architecture as other toolchains name it: Rust's target_arch ("x86_64"), Go's
  // GOARCH ("amd64"), the GNU triple llvm-mca takes ("x86_64-linux-gnu").
  virtual std::string_view rust_arch() const = 0;
  virtual std::string_view go_arch() const = 0;
  virtual std::string_view gnu_triple() const = 0;
  // llvm-mca: the options every kernel of this ISA needs, and the core models it runs by
  // default.
  virtual std::string_view mca_attributes() const = 0;
  virtual std::vector<std::string> default_mca_cpus() const = 0;
  // Whether this host executes the ISA's code (the JIT self-check).
  virtual bool runs_on_host() const = 0;

  // The instruction table, in table order.
  virtual std::span<const InstructionSpec> instructions() const = 0;

  // Registers.
  virtual std::string register_name(const Reg& reg) const = 0;
  virtual std::optional<Reg> parse_register(std::string_view name) const = 0;
  virtual Reg stack_pointer() const = 0;
  // The register a call leaves the return address in; nothing where the call pushes it.
  virtual std::optional<Reg> link_register() const = 0;
  // Bytes the call pushes (the return address on the stack): the CFA's offset at entry.
  virtual int call_pushes_bytes() const = 0;
  // The audit's names of a register file's registers, by number.
  virtual std::string gp_name(int index) const = 0;
  virtual std::string vector_name(int index) const = 0;

  // The C ABI (System V on amd64, AAPCS64 on arm64).
  virtual Reg argument_register(int index) const = 0;
  // The prover's argument register numbers; `win64`: the Windows x64 convention.
  virtual int argument_gp(int index, bool win64) const = 0;
  // Registers the C ABI makes the caller's (callee-saved), other than the stack pointer.
  virtual bool is_callee_saved(const audit::RegisterLocation& reg) const = 0;
  // Registers an entry may leave holding secrets for the register residue check: those its
  // ABI (Go's ABI0 when `go_abi0`) does not make the caller's.
  virtual bool is_caller_saved(const audit::RegisterLocation& reg, bool go_abi0) const = 0;
  // A vector register whose low half the ABI preserves (so restoring it clears the secret
  // the kernel left there only in the upper half, which the ABI lets go).
  virtual bool preserves_vector_low_half(int index) const = 0;
  // What the prover checks an entry returns unchanged.
  virtual PreservedRegisters preserved_registers(bool go_abi0, bool win64) const = 0;
  // Registers holding public values at entry: the stack pointer, the return address.
  virtual std::vector<Reg> public_at_entry() const = 0;
  // Whether a memory operand addresses the stack frame.
  virtual bool is_stack_base(const Mem& mem) const = 0;
  // Go's ABI0: what the toolchain's prologue saved between the caller's stack pointer and
  // the frame it allocated (BP on amd64; LR and FP on arm64).
  virtual int go_prologue_saved_bytes() const = 0;
  // The Go files' headers: the C ABI's name ("System V"), the verb for a branch to a label
  // ("jumps"), the lines on the prologue the Go toolchain writes for a frame of
  // `frame_bytes` (the first says what it saves, the rest the stack-bound check it emits,
  // as seen with go tool objdump), and the lines on what ABI0 leaves out.
  virtual std::string_view c_abi_name() const = 0;
  virtual std::string_view branch_verb() const = 0;
  virtual std::vector<std::string> go_prologue_lines(int frame_bytes) const = 0;
  virtual std::vector<std::string> go_abi0_saves_lines() const = 0;
  // Whether every entry also gets a Windows x64 entry (isa/amd64/win64_entries.hpp).
  virtual bool has_win64_entries() const = 0;

  // The GNU assembler.
  virtual std::string gas_operand(const Program& program, const Operand& operand) const = 0;
  // Lines after the object format macros (amd64: `.intel_syntax noprefix`); a file of this
  // ISA is recognized by the first, and at most one ISA has none.
  virtual std::vector<std::string_view> gas_syntax_lines() const = 0;
  // The directive that names the architecture extensions a file uses (Program's
  // arch_directive): `.arch armv8.2-a+sha3`.
  virtual std::string gas_arch_line(std::string_view extensions) const = 0;
  // Reads one instruction's operands as gas_operand prints them.
  virtual std::vector<Operand> read_operands(const std::vector<std::string>& texts,
                                             OperandReader& reader) const = 0;

  // The kernel's committed text (its KernelSpec::file_name in generated/): what `generate`
  // writes, `check` compares and `prove` reads back and proves, so a hand edit is what gets
  // proven. The GNU assembler's .S file by default; an ISA whose toolchain reads another
  // syntax writes and reads its own.
  virtual std::string write_text(const Program& program) const;
  // Throws GenerationError naming the line it cannot read.
  virtual Program read_text(std::string_view text, const std::string& kernel_name) const;
  // A binary shipped beside the text, named after it with `extension`: `check` compares it
  // byte for byte like every generated file. None by default, where the system assembler
  // makes the object from the text.
  struct BinaryFile {
    std::string extension;  // ".wasm"
    std::string bytes;
  };
  virtual std::optional<BinaryFile> binary_file(const writers::EncodedProgram& encoded) const;
  // Whether the kernels are assembled into the runtime library (sponge). The C header's
  // declarations and runtime tables and the build's kernel lists (manifest.json) hold only
  // the kernels of ISAs that are; a kernel another runtime loads is generated, audited and
  // proven all the same.
  virtual bool links_into_runtime() const { return true; }
  // Whether the code runs on registers and a stack its caller shares: callee-saved registers
  // to give back, a frame its CFI describes, caller-saved registers a later spill could write
  // out (so the entries clear them). A WebAssembly function's locals are its own and die
  // with the call.
  virtual bool shares_registers_with_caller() const { return true; }

  // The Go assembler: one instruction as the Go writer prints it.
  virtual std::string go_instruction(const Program& program, const Function& function,
                                     const Instruction& instruction) const = 0;

  // Machine code: every byte, laid out as the .S file lays it out.
  virtual writers::EncodedProgram encode(const Program& program) const = 0;
  // Whether GNU as pads the end of .text to the section's alignment with no-ops (riscv64
  // does, for ELF too), which the encoding proof then accepts after the last function.
  virtual bool assembler_pads_section_end() const { return false; }
  // The length of an assembler's padding no-op at `at`, or 0 (the encoding proof).
  virtual std::size_t filler_length(const std::string& bytes, std::size_t at,
                                    std::size_t end) const = 0;

  // The audit's latency model.
  virtual audit::LatencyModel latency_model() const = 0;

  // Register clearing before a return: whether an instruction belongs to the epilogue, and
  // the instructions that zero `registers`.
  virtual bool is_epilogue_instruction(const Instruction& instruction) const = 0;
  virtual std::vector<Instruction> clearing(
      const std::set<audit::RegisterLocation>& registers) const = 0;

  // The prover: one instruction's effect on the machine, and where the machine keeps the
  // stack pointer.
  virtual prove::Control execute(prove::Machine& machine, const Instruction& instruction,
                                 const prove::LabelRegions& labels) const = 0;
  virtual prove::Value& stack_pointer_value(prove::Machine& machine) const = 0;
};

const Target& target(Isa isa);
// Every ISA, in isa/isas.def's order.
std::span<const Target* const> targets();

}  // namespace spongegen
