// The Program: one generated assembly file as typed data.
//
// A kernel builder fills a Program with instructions whose operands are registers, memory
// references, immediates and labels; it never prints text. Writers turn a Program into GNU
// assembler text, into machine code (through asmjit), or into audit figures. Nothing here
// knows Keccak.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace spongegen {

// The ISAs, from isa/isas.def; each one's facts are in isa/<name>/ (isa/target.hpp).
enum class Isa : std::uint8_t {
#define SPONGEGEN_ISA(name) name,
#include "isa/isas.def"
#undef SPONGEGEN_ISA
};
std::string_view isa_name(Isa isa);

// ---------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------

enum class RegClass : std::uint8_t {
  gp32,   // amd64 eax..r15d, arm64 w0..w30 (index = hardware encoding)
  gp64,   // amd64 rax..r15, arm64 x0..x30
  sp,     // arm64 stack pointer (index ignored)
  xmm,    // amd64 xmm0..xmm31: 16 bytes
  ymm,    // amd64 ymm0..ymm31: 32 bytes
  zmm,    // amd64 zmm0..zmm31: 64 bytes
  fp64,   // arm64 d0..d31: the low 64 bits of a SIMD register
  fp128,  // arm64 q0..q31: a whole SIMD register, as loads and stores name it
  vec,    // arm64 v0..v31 with an arrangement
  rvv,    // riscv64 v0..v31: VLEN bits, used as 64-bit elements (vl of them)
};

// How an arm64 vector register's bits are split into lanes (RegClass::vec only).
enum class Arrangement : std::uint8_t { none, b16, d2 };

struct Reg {
  RegClass cls;
  std::uint8_t index;
  Arrangement arrangement = Arrangement::none;
  friend bool operator==(const Reg&, const Reg&) = default;
};

// Bytes a register holds: 4 for gp32, 8 for gp64, 16 for xmm and arm64 vectors...
int register_bytes(const Reg& reg);

// An arm64 register operand shifted or rotated before use: `eor x0, x1, x2, ror #19`.
enum class Shift : std::uint8_t { lsl, lsr, asr, ror };
std::string_view shift_name(Shift shift);
struct ShiftedReg {
  Reg reg;
  Shift shift;
  std::uint8_t amount;
  friend bool operator==(const ShiftedReg&, const ShiftedReg&) = default;
};

using LabelId = std::uint32_t;
inline constexpr LabelId kNoLabel = 0xffffffffu;

enum class Addressing : std::uint8_t {
  offset,       // [base + disp]
  pre_index,    // arm64 [base, #disp]!
  post_index,   // arm64 [base], #disp
  pc_relative,  // [rip + label + disp] on amd64
  go_argument   // Go ABI0: the argument disp bytes into the caller's frame, name+disp(FP)
};

// The base of a pc_relative operand: the address comes from the label, not a register.
inline constexpr Reg kNoBase{RegClass::gp64, 0xff};

struct Mem {
  Reg base;
  std::int32_t disp = 0;
  Addressing addressing = Addressing::offset;
  LabelId label = kNoLabel;  // only for pc_relative
  // Bytes accessed: amd64 prints it (qword ptr = 8, xmmword ptr = 16...); arm64 takes it
  // from the register operands, so 0 there.
  std::uint8_t bytes = 0;
  friend bool operator==(const Mem&, const Mem&) = default;
};

struct Imm {
  std::int64_t value;
  friend bool operator==(const Imm&, const Imm&) = default;
};

struct LabelRef {
  LabelId id;
  friend bool operator==(const LabelRef&, const LabelRef&) = default;
};

// A function of the file by its index in Program::functions: the System V entry a Windows x64
// entry calls (Program::win64_entries).
struct SymbolRef {
  std::uint32_t function;
  friend bool operator==(const SymbolRef&, const SymbolRef&) = default;
};

using Operand = std::variant<Reg, Mem, Imm, LabelRef, ShiftedReg, SymbolRef>;

// ---------------------------------------------------------------------------------------
// Instructions
// ---------------------------------------------------------------------------------------

// Every mnemonic any builder may use: one per row of an ISA's instruction table
// (isa/<name>/instructions.def; see program/instruction_table.hpp), named <isa>_<row>.
// Operand order is the ISA manual's: destination first.
enum class Mnemonic : std::uint16_t {
#define SPONGEGEN_MNEMONIC(isa, name) isa##_##name,
#include "isa/instructions.def"
#undef SPONGEGEN_MNEMONIC
};

// The mnemonic as the assembler spells it, and its ISA (from the instruction table).
std::string_view mnemonic_text(Mnemonic mnemonic);
Isa mnemonic_isa(Mnemonic mnemonic);

struct Instruction {
  Mnemonic mnemonic;
  std::vector<Operand> operands;
  std::string comment;  // printed after the instruction; empty for none
};

// Call frame information, so debuggers, profilers and unwinders can walk through a kernel.
enum class CfiKind : std::uint8_t {
  adjust_cfa_offset,  // value: bytes the CFA moved by
  def_cfa_offset,     // value: the CFA's new offset from the stack pointer
  offset,             // reg saved at CFA + value
  restore,            // reg holds its caller's value again
  negate_ra_state,    // arm64: the return address in x30 is now signed (or authenticated)
};
struct Cfi {
  CfiKind kind;
  std::int64_t value = 0;
  Reg reg{RegClass::gp64, 0};
};

struct LabelDef {
  LabelId id;
};
struct Comment {
  std::string text;
};
struct Blank {};

// Brackets the code of one round, for the audit. A round inside a loop body runs as often
// as the loop turns, which depends on the entry that entered it (a 12-round entry turns a
// shared loop half as often as a 24-round one): the audit counts rounds against the
// entry's declared round count (EntryShape::rounds), not a count fixed in the marker.
struct RoundMarker {
  bool begin;
  int round;  // 0-based position in the round sequence; the first round of a loop body
  bool in_loop;
};

using Item = std::variant<Instruction, LabelDef, Comment, Blank, Cfi, RoundMarker>;

// ---------------------------------------------------------------------------------------
// Functions, data and the file
// ---------------------------------------------------------------------------------------

// One parameter of an entry's C signature: `const uint8_t block[168]` is {"const uint8_t",
// "block", 168}. Parameter i arrives in the ABI's i-th argument register.
struct Parameter {
  std::string c_type;
  std::string name;
  int extent = 0;  // array elements; 0 for a scalar
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

enum class EntryKind : std::uint8_t {
  permute,  // run the permutation on the state
  absorb,   // XOR one rate block into the state, then permute (Ascon: many blocks)
  encrypt,  // Ascon AEAD: XOR plaintext blocks into the rate, output it, then permute
  decrypt,  // Ascon AEAD: output rate ^ ciphertext, the ciphertext becomes the rate, permute
};
inline constexpr EntryKind kEntryKinds[] = {EntryKind::permute, EntryKind::absorb,
                                            EntryKind::encrypt, EntryKind::decrypt};
std::string_view entry_kind_name(EntryKind kind);

// What one call of an entry computes, declared by the builder: the manifest, `spongegen
// list`, the audit, the generated C header, the invariant checker (argument registers) and
// the JIT self-check (which reference to run) all read it from here. The permutation is a
// name, data to the writers: they print it, never interpret it.
struct EntryShape {
  EntryKind kind = EntryKind::permute;
  std::string permutation;  // e.g. "keccak-f1600", "keccak-p1600"
  int rounds = 0;           // rounds one call runs
  int rate_bytes = 0;       // absorb entries: bytes of the block; 0 for permute
  int lanes = 1;            // independent states one call permutes
  std::vector<Parameter> parameters;
  friend bool operator==(const EntryShape&, const EntryShape&) = default;

  // Whether a call takes block_count blocks (the last parameter) rather than one.
  bool takes_block_count() const {
    return !parameters.empty() && parameters.back().name == "block_count";
  }
};

// "void name(uint64_t state[25], const uint8_t block[168])"
std::string c_prototype(const std::string& symbol, const EntryShape& shape);
// "absorb keccak-p1600 rounds=12 rate=168 lanes=1": one line the reader parses back.
std::string entry_shape_line(const EntryShape& shape);

struct Function {
  std::string symbol;   // without any platform prefix
  std::string summary;  // one line: what the entry does
  EntryShape shape;
  std::vector<Item> items;
  // Go entries: the frame the TEXT line declares, which the Go toolchain allocates (and
  // checks against the stack bound); 0 elsewhere.
  int frame_bytes = 0;

  std::size_t instruction_count() const;
  // The instructions from label `from` up to label `to` (bound after it), for a builder's
  // figures of a path through its code.
  std::size_t instructions_between(LabelId from, LabelId to) const;
};

// 64-bit constants placed after the functions, in the text section (see the writers).
struct QuadTable {
  LabelId label;
  std::string comment;
  std::vector<std::uint64_t> values;
};

// Which ELF notes the file carries besides .note.GNU-stack (always present on ELF).
enum class PropertyNote : std::uint8_t { none, x86_ibt_shstk, aarch64_bti_pac };

struct Program {
  Isa isa;
  std::string kernel_name;  // e.g. "amd64-bmi2": the kernel spec's name, set by the registry
  // Go's ABI0 (the Go files): no register is the caller's but the stack and frame pointers
  // (and R14, which the Go writer refuses).
  bool go_abi0 = false;
  // The decisions and figures, as comment lines: filled after the audit (the header pass).
  std::vector<std::string> header_lines;
  PropertyNote property_note = PropertyNote::none;
  std::string arch_directive;  // e.g. "armv8.2-a+sha3" for `.arch`; empty for none
  // The choices the builder made, as (name, value), for manifest.json.
  std::vector<std::pair<std::string, std::string>> options;
  std::vector<std::string> label_names;  // LabelId -> name
  std::vector<Function> functions;
  std::vector<QuadTable> tables;
  // amd64: one Windows x64 entry per function, under the function's own symbol, assembled
  // for Windows only (_WIN32), where the System V functions are named <symbol>_sysv. Each one
  // moves the Win64 arguments into the System V registers, preserves what Win64 makes
  // callee-saved and System V does not, and calls its function (isa/amd64/win64_entries.hpp).
  std::vector<Function> win64_entries;

  LabelId new_label(std::string name);
  std::size_t instruction_count() const;
};

// A generation error: names what was being generated and what was wrong.
class GenerationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Appends items to one function of a Program. ISA-specific emitters (isa/<name>/<name>.hpp)
// derive from it and add one typed method per instruction.
class FunctionBuilder {
 public:
  FunctionBuilder(Program& program, Function& function) : program_(program), function_(function) {}

  void comment(std::string text);
  void blank();
  void bind(LabelId label);
  void cfi(Cfi entry);
  void begin_round(int round, bool in_loop);
  void end_round();
  // Attaches a trailing comment to the last instruction emitted.
  void annotate(std::string text);

  Program& program() { return program_; }

 protected:
  void emit(Mnemonic mnemonic, std::vector<Operand> operands);

 private:
  Program& program_;
  Function& function_;
};

}  // namespace spongegen
